#include "engine/plugin_loader.h"

#include <collide/engine_abi.h>

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <utility>

#include "engine/plugin_engine.h"

namespace collide {

namespace {

namespace fs = std::filesystem;

/// The most approximation lines a plugin may give.
constexpr int kMaxApproximations = 64;

/// A plugin loaded by this process: its file and the name it registered.
struct Loaded {
    std::string path; ///< as first given
    std::string name; ///< its engine's name
};

/// The plugins loaded so far, by canonical path, and the lock that serialises loading.
std::map<std::string, Loaded>& loaded() {
    static std::map<std::string, Loaded> plugins;
    return plugins;
}
std::mutex& loading() {
    static std::mutex m;
    return m;
}

/// Closes a library unless released: a plugin that fails a check is not kept.
struct Library {
    void* handle = nullptr;
    ~Library() {
        if (handle) dlclose(handle);
    }
    void* release() { return std::exchange(handle, nullptr); }
};

bool valid_name(std::string_view name) {
    return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

/// True when `text` is one printable line (no control character), not empty.
bool one_line(const char* text) {
    if (!text || !*text) return false;
    for (const char* c = text; *c; ++c)
        if (static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f) return false;
    return true;
}

/// Checks the table a plugin returned; throws `fail` with what is wrong.
template <class Fail> void check_table(const collide_engine& t, Fail&& fail) {
    if (t.abi_major != COLLIDE_ENGINE_ABI_MAJOR)
        fail(fmt::format("engine ABI version {}; this collide loads version {} (rebuild the plugin against this "
                         "collide's include/collide/engine_abi.h)",
                         t.abi_major, COLLIDE_ENGINE_ABI_MAJOR));
    if (t.struct_size < sizeof(collide_engine))
        fail(fmt::format("its engine table is {} bytes; engine ABI version {} has {} (set struct_size to "
                         "sizeof(collide_engine))",
                         t.struct_size, COLLIDE_ENGINE_ABI_MAJOR, sizeof(collide_engine)));
    if (!t.name || !valid_name(t.name))
        fail(fmt::format("engine name '{}' is not 1 to 32 characters of a-z, 0-9, '_' and '-'", t.name ? t.name : ""));
    if (!one_line(t.version)) fail(fmt::format("engine '{}' gives no version, or one that is not one line", t.name));
    if (t.approximations) {
        int count = 0;
        for (const char* const* line = t.approximations; *line; ++line)
            if (!one_line(*line) || ++count > kMaxApproximations)
                fail(fmt::format("engine '{}': approximation {} is empty, not one line, or one too many (at most {})",
                                 t.name, count + 1, kMaxApproximations));
    }
    std::string missing;
    for (const auto& [fn, what] :
         {std::pair{t.create != nullptr, "create"}, std::pair{t.step != nullptr, "step"},
          std::pair{t.read_states != nullptr, "read_states"}, std::pair{t.read_contacts != nullptr, "read_contacts"},
          std::pair{t.destroy != nullptr, "destroy"}})
        if (!fn) missing += (missing.empty() ? "" : ", ") + std::string(what);
    if (!missing.empty())
        fail(fmt::format("engine '{}' leaves {} NULL in its table (collide_engine needs every function)", t.name,
                         missing));
    if (find_engine(t.name) ||
        std::find(std::begin(kOptionalEngines), std::end(kOptionalEngines), t.name) != std::end(kOptionalEngines))
        fail(fmt::format("engine name '{}' is the name of an engine built into collide", t.name));
}

} // namespace

bool is_engine_path(std::string_view engine) {
    return engine.find('/') != std::string_view::npos ||
           (engine.size() > 3 && engine.compare(engine.size() - 3, 3, ".so") == 0);
}

std::string engine_name_of(const std::string& engine) {
    return is_engine_path(engine) ? load_engine_plugin(engine).name : engine;
}

const EngineSpec& load_engine_plugin(const std::string& path) {
    const auto fail = [&](const std::string& what) { throw InputError(path, 0, 0, what); };
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (!fs::exists(status)) fail("no such file (--engine PATH loads an engine plugin: a shared library)");
    if (fs::is_directory(status)) fail("is a folder, not an engine plugin (a shared library)");
    const std::string canonical = fs::canonical(path, ec).string();
    if (ec) fail("cannot resolve the path: " + ec.message());

    const std::lock_guard lock(loading());
    if (const auto it = loaded().find(canonical); it != loaded().end()) return require_engine(it->second.name);
    Library library;
    library.handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library.handle) {
        const char* why = dlerror();
        fail(std::string("cannot load it as a shared library: ") + (why ? why : "dlopen failed"));
    }
    dlerror(); // clear
    void* symbol = dlsym(library.handle, COLLIDE_ENGINE_ENTRY_NAME);
    if (!symbol)
        fail("not a collide engine: it exports no " COLLIDE_ENGINE_ENTRY_NAME
             "() (include/collide/engine_abi.h: COLLIDE_ENGINE_ENTRY)");
    collide_engine_entry_fn entry = nullptr;
    static_assert(sizeof(entry) == sizeof(symbol));
    std::memcpy(&entry, &symbol, sizeof(entry)); // a data pointer from dlsym as a function pointer (POSIX)
    const collide_engine* table = entry();
    if (!table) fail(COLLIDE_ENGINE_ENTRY_NAME "() returned no engine table");
    // The first two fields are the same in every version of the ABI: read them before the rest.
    check_table(*table, fail);
    for (const auto& [other, plugin] : loaded())
        if (plugin.name == table->name)
            fail(fmt::format("engine name '{}' is taken by {}, loaded before", table->name, plugin.path));

    EngineSpec spec;
    spec.name = table->name;
    spec.version = table->version;
    spec.make = [table] { return make_plugin_engine(*table); };
    spec.refuse_unsupported = [table](const Scenario& s) { refuse_unsupported_by_plugin(*table, s); };
    spec.header = [table](const Scenario& s) { return plugin_header(*table, s); };
    library.release(); // kept for the process: its table and functions are in use from now on
    loaded()[canonical] = {path, spec.name};
    const std::string name = spec.name;
    register_engine(std::move(spec));
    return require_engine(name);
}

} // namespace collide
