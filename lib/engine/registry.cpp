#include "engine/registry.h"

#include <algorithm>
#include <deque>

namespace collide {

namespace {

/// The Debian package an optional engine (kOptionalEngines) comes from; empty for one vendored in
/// third_party/NAME, which a rebuild gets.
std::string_view package_of(std::string_view name) {
    return name == "bullet" ? "libbullet-dev" : name == "ode" ? "libode-dev" : "";
}

/// The registry: a deque, so that a spec found keeps its address when another is registered.
std::deque<EngineSpec>& registry() {
    static std::deque<EngineSpec> specs = [] {
        std::deque<EngineSpec> d;
        EngineSpec own;
        own.name = "collide";
        own.version = "collide's own world (exact)";
        own.make = [] { return std::make_unique<CollideEngine>(); };
        own.refuse_unsupported = [](const Scenario&) {};
        own.header = [](const Scenario&) { return std::vector<std::string>{}; };
        d.push_back(std::move(own));
        return d;
    }();
    return specs;
}

} // namespace

void register_engine(EngineSpec spec) {
    auto& specs = registry();
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const EngineSpec& s) { return s.name == spec.name; });
    if (it != specs.end())
        *it = std::move(spec);
    else
        specs.push_back(std::move(spec));
}

const EngineSpec* find_engine(std::string_view name) {
    for (const EngineSpec& s : registry())
        if (s.name == name) return &s;
    return nullptr;
}

const EngineSpec& require_engine(std::string_view name) {
    if (const EngineSpec* s = find_engine(name)) return *s;
    const bool optional =
            std::find(std::begin(kOptionalEngines), std::end(kOptionalEngines), name) != std::end(kOptionalEngines);
    if (optional)
        throw InputError("", 0, 0,
                         "--engine " + std::string(name) + ": this collide was built without " + std::string(name) +
                                 (package_of(name).empty()
                                          ? "; rebuild with -DCOLLIDE_ENGINES=ON (it is vendored in third_party/" +
                                                    std::string(name) + ")"
                                          : "; install it (apt-get install " + std::string(package_of(name)) +
                                                    ") and rebuild with -DCOLLIDE_ENGINES=ON"));
    std::string known;
    for (const EngineSpec& s : registry()) known += (known.empty() ? "" : ", ") + s.name;
    throw InputError("", 0, 0, "--engine " + std::string(name) + ": no such engine (this build has " + known + ")");
}

std::string engines_text() {
    std::string text = "engines:";
    for (const EngineSpec& s : registry()) text += (text.back() == ':' ? " " : ", ") + s.name + " (" + s.version + ")";
    for (const std::string_view name : kOptionalEngines)
        if (!find_engine(name))
            text += "\nnot built in: " + std::string(name) +
                    (package_of(name).empty()
                             ? " (vendored in third_party/" + std::string(name) + ": rebuild with -DCOLLIDE_ENGINES=ON)"
                             : " (apt-get install " + std::string(package_of(name)) +
                                       ", then rebuild with -DCOLLIDE_ENGINES=ON)");
    return text;
}

std::vector<const EngineSpec*> engines() {
    std::vector<const EngineSpec*> out;
    for (const EngineSpec& s : registry()) out.push_back(&s);
    return out;
}

} // namespace collide
