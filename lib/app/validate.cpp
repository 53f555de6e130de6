#include "app/validate.h"

#include <algorithm>
#include <fmt/format.h>
#include <ostream>

#include "app/errors.h"
#include "scenario/load.h"

namespace collide {

namespace {

void validate_file(const std::string& file, std::ostream& out) {
    const Scenario s = load_scenario(file);
    out << fmt::format("{}: ok ({} bodies, {} log entries, {} expectations)\n", display_name(file), s.bodies.size(),
                       s.log.size(), s.expect.size());
}

} // namespace

int validate_command(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "validate", [&] {
        int worst = kExitOk;
        for (const std::string& file : files) {
            const Diagnostic here{display_name(file), 1, 1, ""};
            worst = std::max(worst, exit_code_for_errors(
                                            err, "validate", [&] { validate_file(file, out); }, here));
        }
        return worst;
    });
}

} // namespace collide
