#include "probes/record_file.h"

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>

#include "build_info.h" // generated: cmake/build_info.cmake
#include "model/diagnostic.h"
#include "probes/trace_csv.h"

namespace collide {

namespace {

constexpr char kMagic[8] = {'C', 'O', 'L', 'L', 'R', 'E', 'C', '1'};
constexpr std::size_t kStateDoubles = 13;
/// A header longer than this is no header (a corrupt length): 64 MiB.
constexpr std::uint32_t kMaxHeader = 64u << 20;
/// A frame with more contacts than this is corrupt.
constexpr std::uint32_t kMaxContacts = 1u << 26;

void put_u32(std::string& out, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

void put_u64(std::string& out, std::uint64_t v) {
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

void put_f64(std::string& out, double v) { put_u64(out, std::bit_cast<std::uint64_t>(v)); }

void put_vec(std::string& out, const Vec3& v) {
    put_f64(out, v.x);
    put_f64(out, v.y);
    put_f64(out, v.z);
}

std::uint64_t get_u64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
    return v;
}

/// The header's text: one `key: value` a line.
std::string header_text(const RunInfo& info) {
    std::string text = fmt::format("scenario: {}\ndigest: {}\nengine: {}\nbuild: {}\n", info.scenario, info.digest,
                                   info.engine, info.build);
    for (const auto& [name, value] : info.params) text += fmt::format("param: {}={}\n", name, value);
    for (const std::string& body : info.bodies) text += fmt::format("body: {}\n", body);
    return text;
}

} // namespace

std::string describe_build() {
    // The version, commit, build type and flags from build_info.h (cmake/build_info.cmake); the
    // compiler, optimization and instruction set as the compiler says them.
#if defined(__clang__)
    std::string compiler = std::string("clang ") + __clang_version__;
    while (compiler.back() == ' ') compiler.pop_back(); // "14.0.6 "
#elif defined(__GNUC__)
    const std::string compiler = std::string("gcc ") + __VERSION__;
#else
    const std::string compiler = "unknown compiler";
#endif
#ifdef __OPTIMIZE__
    const char* optimized = "optimized";
#else
    const char* optimized = "not optimized";
#endif
#if defined(__AVX2__)
    const char* isa = "AVX2";
#elif defined(__SSE2__)
    const char* isa = "SSE2";
#else
    const char* isa = "no x86 SIMD";
#endif
    return fmt::format("collide {} (commit {}), {}, {} flags \"{}\", {}, {}", COLLIDE_BUILD_VERSION,
                       COLLIDE_BUILD_COMMIT, compiler, COLLIDE_BUILD_TYPE, COLLIDE_BUILD_FLAGS, optimized, isa);
}

std::array<double, 13> state_numbers(const BodyState& s) {
    return {s.position.x,         s.position.y,         s.position.z,        s.velocity.x, s.velocity.y,
            s.velocity.z,         s.rotation.w,         s.rotation.x,        s.rotation.y, s.rotation.z,
            s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z};
}

BodyState state_of_numbers(const std::array<double, 13>& v) {
    BodyState s;
    s.position = {v[0], v[1], v[2]};
    s.velocity = {v[3], v[4], v[5]};
    s.rotation = {v[6], v[7], v[8], v[9]};
    s.angular_velocity = {v[10], v[11], v[12]};
    return s;
}

std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string fnv1a_hex(std::string_view bytes) { return fmt::format("{:016x}", fnv1a(bytes)); }

RunInfo run_info_of(const Scenario& scenario, std::string_view engine, std::string_view text) {
    RunInfo info;
    info.scenario = scenario.name;
    info.digest = text.empty() ? std::string() : fnv1a_hex(text);
    info.engine = std::string(engine);
    info.build = describe_build();
    info.params = scenario.params;
    for (const BodyDef& b : scenario.bodies) info.bodies.push_back(b.name);
    return info;
}

RecordFileSink::RecordFileSink(const RunInfo& info, OutputFile& out) : out_(out) {
    std::string head(kMagic, sizeof kMagic);
    const std::string text = header_text(info);
    put_u32(head, static_cast<std::uint32_t>(text.size()));
    head += text;
    out_.write(head);
}

void RecordFileSink::frame(int frame, double time, std::span<const BodyState> bodies) {
    bytes_.clear();
    bytes_.push_back('F');
    put_u32(bytes_, static_cast<std::uint32_t>(frame));
    put_f64(bytes_, time);
    std::size_t n = 0;
    while (n < pending_.size() && pending_[n].frame <= frame) ++n;
    put_u32(bytes_, static_cast<std::uint32_t>(n));
    for (std::size_t k = 0; k < n; ++k) {
        const TraceContact& c = pending_[k];
        put_u32(bytes_, static_cast<std::uint32_t>(c.a));
        put_u32(bytes_, static_cast<std::uint32_t>(c.b));
        put_vec(bytes_, c.point);
        put_vec(bytes_, c.normal);
        put_f64(bytes_, c.depth);
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
    for (const BodyState& s : bodies)
        for (const double x : state_numbers(s)) put_f64(bytes_, x);
    out_.write(bytes_);
    ++frames_;
}

void RecordFileSink::finish() {
    bytes_.clear();
    bytes_.push_back('E');
    put_u64(bytes_, frames_);
    out_.write(bytes_);
}

RunReader::RunReader(const std::string& path) : path_(path) {
    in_.open(path, std::ios::binary);
    if (!in_) fail(fmt::format("cannot read: {}", std::strerror(errno)));
    char first[8] = {};
    in_.read(first, sizeof first);
    const std::streamsize got = in_.gcount();
    binary_ = got == sizeof first && std::memcmp(first, kMagic, sizeof kMagic) == 0;
    if (binary_) {
        offset_ = sizeof kMagic;
        const std::uint32_t n = read_u32("the header's length");
        if (n > kMaxHeader) fail(fmt::format("a header of {} bytes: not a recording (corrupt)", n));
        std::string text(n, '\0');
        read_bytes(text.data(), n, "the header");
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t end = text.find('\n', at);
            const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
            at = end == std::string::npos ? text.size() : end + 1;
            const std::size_t colon = line.find(": ");
            if (colon == std::string::npos) fail(fmt::format("header line '{}' is not 'key: value'", line));
            const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
            if (key == "scenario")
                info_.scenario = value;
            else if (key == "digest")
                info_.digest = value;
            else if (key == "engine")
                info_.engine = value;
            else if (key == "build")
                info_.build = value;
            else if (key == "body")
                info_.bodies.push_back(value);
            else if (key == "param") {
                const std::size_t eq = value.rfind('=');
                if (eq == std::string::npos) fail(fmt::format("header param '{}' is not NAME=VALUE", value));
                info_.params.emplace_back(value.substr(0, eq), std::strtod(value.c_str() + eq + 1, nullptr));
            }
        }
        return;
    }
    in_.clear();
    in_.seekg(0);
    std::string header;
    std::getline(in_, header);
    line_ = 1;
    if (header + "\n" != trace_csv_header())
        throw InputError(path_, 1, 1,
                         "neither a recording (sim --record) nor a trace (sim --trace): its first line is not the "
                         "trace's header");
}

void RunReader::fail(const std::string& message) const {
    // A recording has no lines: line 1, its column the byte (counted from 1).
    if (binary_)
        throw InputError(path_, 1, static_cast<int>(offset_ + 1), fmt::format("byte {}: {}", offset_, message));
    throw InputError(path_, line_, line_ > 0 ? 1 : 0, message);
}

void RunReader::read_bytes(void* to, std::size_t n, const char* what) {
    in_.read(static_cast<char*>(to), static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in_.gcount()) != n)
        fail(fmt::format("cut short in {} (the recording has no end mark: an interrupted run?)", what));
    offset_ += n;
}

double RunReader::read_f64(const char* what) {
    unsigned char b[8];
    read_bytes(b, 8, what);
    return std::bit_cast<double>(get_u64(b));
}

std::uint32_t RunReader::read_u32(const char* what) {
    unsigned char b[4];
    read_bytes(b, 4, what);
    return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
           static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

bool RunReader::next(RunFrame& out) { return binary_ ? next_binary(out) : next_trace(out); }

bool RunReader::next_binary(RunFrame& out) {
    if (ended_) return false;
    char tag = 0;
    read_bytes(&tag, 1, "a frame's tag");
    if (tag == 'E') {
        unsigned char b[8];
        read_bytes(b, 8, "the end mark");
        if (get_u64(b) != frames_)
            fail(fmt::format("the end mark counts {} frames where {} were read", get_u64(b), frames_));
        ended_ = true;
        return false;
    }
    if (tag != 'F') {
        --offset_; // (the tag's own byte)
        fail(fmt::format("a frame's tag is {:#04x}, not 'F' or 'E' (corrupt)", static_cast<unsigned char>(tag)));
    }
    out.frame = static_cast<int>(read_u32("a frame's index"));
    out.time = read_f64("a frame's time");
    const std::uint32_t contacts = read_u32("a frame's contact count");
    if (contacts > kMaxContacts) fail(fmt::format("{} contacts in a frame (corrupt)", contacts));
    const auto count = static_cast<int>(info_.bodies.size());
    out.contacts.resize(contacts);
    for (TraceContact& c : out.contacts) {
        c.frame = out.frame;
        c.a = static_cast<int>(read_u32("a contact"));
        c.b = static_cast<int>(read_u32("a contact"));
        if (c.a < 0 || c.b < 0 || c.a >= count || c.b >= count) fail("a contact names a body the header has not");
        c.point = {read_f64("a contact"), read_f64("a contact"), read_f64("a contact")};
        c.normal = {read_f64("a contact"), read_f64("a contact"), read_f64("a contact")};
        c.depth = read_f64("a contact");
    }
    out.bodies.resize(info_.bodies.size());
    for (BodyState& s : out.bodies) {
        std::array<double, kStateDoubles> v;
        for (double& x : v) x = read_f64("a body's state");
        s = state_of_numbers(v);
    }
    ++frames_;
    return true;
}

namespace {

/// Splits a trace row into its 22 fields; false when it has another number of them.
bool split_row(const std::string& line, std::vector<std::string>& fields) {
    fields.clear();
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = line.find(',', at);
        fields.push_back(line.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return fields.size() == 22;
}

} // namespace

bool RunReader::next_trace(RunFrame& out) {
    out.bodies.clear();
    out.contacts.clear();
    std::vector<std::string> f;
    std::vector<std::pair<std::string, std::string>> contact_names;
    int frame = -1;
    bool states = false;
    std::size_t body = 0;
    const auto number = [&](const std::string& s, int column) {
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size())
            throw InputError(path_, line_, column, fmt::format("'{}' is not a number", s));
        return v;
    };
    const auto column_of = [&](const std::string& line, std::size_t field) {
        std::size_t at = 0;
        for (std::size_t k = 0; k < field; ++k) at = line.find(',', at) + 1;
        return static_cast<int>(at) + 1;
    };
    for (;;) {
        std::string line;
        if (have_pending_) {
            line = std::move(pending_line_);
            have_pending_ = false;
        } else {
            if (!std::getline(in_, line)) break;
            ++line_;
        }
        if (!split_row(line, f))
            throw InputError(path_, line_, 1, fmt::format("a trace row has {} fields, not 22", f.size()));
        const int row_frame = static_cast<int>(number(f[0], 1));
        const bool is_state = f[2] == "state";
        if (!is_state && f[2] != "contact")
            throw InputError(path_, line_, column_of(line, 2),
                             fmt::format("kind '{}' is neither state nor contact", f[2]));
        // A frame ends at a contact after its states, or at a state of another frame.
        if (states && (!is_state || row_frame != frame)) {
            pending_line_ = std::move(line);
            have_pending_ = true;
            break;
        }
        if (is_state) {
            if (!states) {
                frame = row_frame;
                out.frame = row_frame;
                out.time = number(f[1], column_of(line, 1));
            }
            states = true;
            if (frames_ == 0)
                info_.bodies.push_back(f[3]);
            else if (body >= info_.bodies.size() || info_.bodies[body] != f[3])
                throw InputError(path_, line_, column_of(line, 3),
                                 fmt::format("body '{}' where the first frame had {}", f[3],
                                             body < info_.bodies.size() ? "'" + info_.bodies[body] + "'"
                                                                        : std::string("no more bodies")));
            std::array<double, kStateDoubles> v;
            const std::size_t at[kStateDoubles] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 19, 20, 21}; // its columns
            for (std::size_t k = 0; k < kStateDoubles; ++k) v[k] = number(f[at[k]], column_of(line, at[k]));
            out.bodies.push_back(state_of_numbers(v));
            ++body;
        } else {
            TraceContact c;
            c.frame = row_frame;
            c.time = number(f[1], column_of(line, 1));
            c.point = {number(f[5], column_of(line, 5)), number(f[6], column_of(line, 6)),
                       number(f[7], column_of(line, 7))};
            c.normal = {number(f[15], column_of(line, 15)), number(f[16], column_of(line, 16)),
                        number(f[17], column_of(line, 17))};
            c.depth = number(f[18], column_of(line, 18));
            out.contacts.push_back(c);
            contact_names.emplace_back(f[3], f[4]);
        }
    }
    if (!states) {
        if (!out.contacts.empty()) throw InputError(path_, line_, 1, "contacts after the last frame's states");
        return false;
    }
    if (body != info_.bodies.size())
        throw InputError(
                path_, line_, 1,
                fmt::format("frame {} has {} bodies where the first had {}", frame, body, info_.bodies.size()));
    for (std::size_t k = 0; k < out.contacts.size(); ++k) {
        const auto index = [&](const std::string& name) {
            for (std::size_t i = 0; i < info_.bodies.size(); ++i)
                if (info_.bodies[i] == name) return static_cast<int>(i);
            throw InputError(path_, line_, 1, fmt::format("a contact names body '{}', which no state row has", name));
        };
        out.contacts[k].a = index(contact_names[k].first);
        out.contacts[k].b = index(contact_names[k].second);
    }
    ++frames_;
    return true;
}

} // namespace collide
