#include "engine/registry.h"

#include <algorithm>
#include <deque>
#include <mutex>

#include <collide/engine_abi.h>

#include "engine/plugin_loader.h"

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

/// Guards the registry: a plugin may be registered while other threads look engines up.
std::mutex& registry_lock() {
    static std::mutex m;
    return m;
}

} // namespace

void register_engine(EngineSpec spec) {
    const std::lock_guard lock(registry_lock());
    auto& specs = registry();
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const EngineSpec& s) { return s.name == spec.name; });
    if (it != specs.end())
        *it = std::move(spec);
    else
        specs.push_back(std::move(spec));
}

const EngineSpec* find_engine(std::string_view name) {
    const std::lock_guard lock(registry_lock());
    for (const EngineSpec& s : registry())
        if (s.name == name) return &s;
    return nullptr;
}

const EngineSpec& require_engine(std::string_view name) {
    if (const EngineSpec* s = find_engine(name)) return *s;
    if (is_engine_path(name)) return load_engine_plugin(std::string(name));
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
    for (const EngineSpec* s : engines()) known += (known.empty() ? "" : ", ") + s->name;
    throw InputError("", 0, 0,
                     "--engine " + std::string(name) + ": no such engine (this build has " + known +
                             "; a plugin is given by its path: --engine ./libNAME.so)");
}

std::string engines_text() {
    std::string text = "engines:";
    for (const EngineSpec* s : engines()) text += (text.back() == ':' ? " " : ", ") + s->name + " (" + s->version + ")";
    for (const std::string_view name : kOptionalEngines)
        if (!find_engine(name))
            text += "\nnot built in: " + std::string(name) +
                    (package_of(name).empty()
                             ? " (vendored in third_party/" + std::string(name) + ": rebuild with -DCOLLIDE_ENGINES=ON)"
                             : " (apt-get install " + std::string(package_of(name)) +
                                       ", then rebuild with -DCOLLIDE_ENGINES=ON)");
    text += "\nplugins: --engine PATH loads an engine from a shared library (engine ABI version " +
            std::to_string(COLLIDE_ENGINE_ABI_MAJOR) + ", include/collide/engine_abi.h)";
    return text;
}

std::vector<const EngineSpec*> engines() {
    const std::lock_guard lock(registry_lock());
    std::vector<const EngineSpec*> out;
    for (const EngineSpec& s : registry()) out.push_back(&s);
    return out;
}

} // namespace collide
