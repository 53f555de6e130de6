#include "app/merge.h"

#include "app/errors.h"
#include "sweep/merge.h"

namespace collide {

int merge_command(const std::vector<std::string>& files, const std::string& output, std::ostream& err) {
    return exit_code_for_errors(err, "merge", [&] { merge_sweep_files(files, output); });
}

} // namespace collide
