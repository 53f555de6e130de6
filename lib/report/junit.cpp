#include "report/junit.h"

#include <fmt/format.h>

namespace collide {

namespace {
/// The length of the valid UTF-8 sequence starting at text[i] (1–4), or 0 when it is not one.
std::size_t utf8_length(const std::string& text, std::size_t i) {
    const auto b = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    const unsigned c = b(i);
    const auto cont = [&](std::size_t k) { return (b(k) & 0xC0u) == 0x80u; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const unsigned c1 = b(i + 1);
        if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F)) return 0; // overlong, surrogates
        return cont(i + 1) && cont(i + 2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const unsigned c1 = b(i + 1);
        if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F)) return 0;
        return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}
} // namespace

std::string xml_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            // Valid UTF-8 is kept; any other byte (a non-UTF-8 file name) becomes U+FFFD.
            const std::size_t n = utf8_length(text, i);
            if (n == 0) {
                out += "\xEF\xBF\xBD";
            } else {
                out.append(text, i, n);
                i += n - 1;
            }
            continue;
        }
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
            out += c;
        }
    }
    return out;
}

namespace {
/// An attribute value keeps its line breaks only when they are written as references.
std::string attribute(const std::string& text) {
    std::string out;
    for (char c : xml_escape(text)) {
        if (c == '\n')
            out += "&#10;";
        else if (c == '\r')
            out += "&#13;";
        else if (c == '\t')
            out += "&#9;";
        else
            out += c;
    }
    return out;
}
} // namespace

std::string render_junit(const std::vector<JunitCase>& cases) {
    int failures = 0, errors = 0, skipped = 0;
    double total = 0;
    for (const JunitCase& c : cases) {
        failures += c.failed && !c.error;
        errors += c.error;
        skipped += c.skipped && !c.failed && !c.error;
        total += c.seconds;
    }
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format(
            "<testsuites name=\"collide check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n",
            cases.size(), failures, errors, total);
    out += fmt::format("  <testsuite name=\"collide check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
                       "time=\"{:.3f}\">\n",
                       cases.size(), failures, errors, skipped, total);
    for (const JunitCase& c : cases) {
        out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"", attribute(c.name),
                           attribute(c.classname), c.seconds);
        if (!c.failed && !c.error) {
            if (c.skipped)
                out += fmt::format(">\n      <skipped message=\"{}\"/>\n    </testcase>\n", attribute(c.message));
            else
                out += "/>\n";
            continue;
        }
        const char* tag = c.error ? "error" : "failure";
        out += ">\n";
        out += fmt::format("      <{} message=\"{}\" type=\"{}\">{}</{}>\n", tag, attribute(c.message),
                           c.error ? "bad input" : "difference", xml_escape(c.details), tag);
        out += "    </testcase>\n";
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string github_annotation(const std::string& file, int line, int column, const std::string& message) {
    auto escape = [](const std::string& text, bool property) {
        std::string out;
        for (char c : text) {
            if (c == '%')
                out += "%25";
            else if (c == '\r')
                out += "%0D";
            else if (c == '\n')
                out += "%0A";
            else if (property && c == ':')
                out += "%3A";
            else if (property && c == ',')
                out += "%2C";
            else
                out += c;
        }
        return out;
    };
    std::string out = "::error file=" + escape(file, true);
    if (line > 0) out += fmt::format(",line={}", line);
    if (line > 0 && column > 0) out += fmt::format(",col={}", column);
    std::string body = message;
    while (!body.empty() && body.back() == '\n') body.pop_back();
    out += "::" + escape(body, false);
    return out;
}

} // namespace collide
