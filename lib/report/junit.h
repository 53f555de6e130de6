#pragma once
/// \file
/// Reports for CI systems: a JUnit XML file (GitLab, Jenkins, Azure and most test dashboards
/// read it) and GitHub Actions workflow-command annotations (`::error file=…,line=…::…`).

#include <string>
#include <vector>

namespace collide {

/// How one scenario fared, for a JUnit test case.
struct JunitCase {
    std::string name;      ///< the scenario's name (its file stem)
    std::string classname; ///< the scenario file (or, for a stale golden, the golden file)
    double seconds = 0;    ///< time it took (s)
    bool failed = false;   ///< a difference, a missing or stale golden, a failed expectation
    bool error = false;    ///< bad input: the scenario could not be run
    std::string message;   ///< one-line reason when failed or error
    std::string details;   ///< the diff, expectation messages or diagnostics (multi-line)
    bool skipped = false;  ///< the engine cannot run it (`check --engine`): `message` says why
};

/// The JUnit XML document: one `<testsuite name="collide check">` with one `<testcase>` per
/// case, in the order given, `<failure>`/`<error>` carrying `message` as an attribute and
/// `details` as escaped text, `<skipped>` carrying `message`. Same cases → byte-identical output. Times print with 3
/// decimals.
std::string render_junit(const std::vector<JunitCase>& cases);

/// `text` with the five XML special characters escaped and characters XML 1.0 forbids
/// (control characters other than tab, newline and carriage return, such as ANSI escapes) dropped.
std::string xml_escape(const std::string& text);

/// One GitHub Actions annotation line, `::error file=PATH,line=N,col=C::MESSAGE` (`line`/`col`
/// left out when ≤ 0), with the property and message escaping GitHub requires (%, CR, LF; and
/// `:` and `,` in properties), so a multi-line message stays one annotation.
std::string github_annotation(const std::string& file, int line, int column, const std::string& message);

} // namespace collide
