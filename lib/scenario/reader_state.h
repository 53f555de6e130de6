#pragma once
/// \file
/// What the parts of the scenario reader share while they read one file: the template being
/// filled, the problems found, the number reader, and what one section tells a later one (body
/// names, whether world.skin depends on params, the ids of log entries that could not be read).
/// The sections are read in file-independent order: params, name/about/decimals/tolerance,
/// world, bodies, log, expect (reader.cpp). Internal to the scenario loader.

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/name_table.h"
#include "scenario/read_numbers.h"
#include "scenario/yaml_schema.h"

namespace collide::reader {

/// The name of body `index` of a template being read (for NameTable).
struct BodyName {
    const TemplateData* t;
    std::string_view operator()(std::uint32_t index) const { return t->base.bodies[index].name; }
};

/// The state of one read of a scenario file.
struct ReaderState {
    /// Reads into `data`, whose `file` is already set.
    explicit ReaderState(TemplateData& data);

    TemplateData& t;                   ///< the template being filled
    Problems problems;                 ///< every problem found so far
    NumberReader numbers;              ///< reads numbers into `t`
    bool skin_dep = false;             ///< world.skin depends on params (push_out copies it per instance)
    std::set<std::string> dropped_ids; ///< ids of log entries that could not be read at all
    NameTable<BodyName> body_index;    ///< body name → index in t.base.bodies (names read from the bodies)
    std::size_t bodies_after = 0;      ///< entries of `bodies:` after the one being read (each one body at least)
    /// Arrays that were refused: their name and how many bodies they would have made (0: not
    /// known). A reference to one of those bodies is no second error.
    std::vector<std::pair<std::string, std::size_t>> refused_arrays;
    bool bodies_refused = false; ///< `bodies:` was refused whole (too many): no body is known
    std::function<void(std::size_t done, std::size_t bodies)> progress; ///< told as bodies are read, or empty
};

// ---- read_bodies.cpp ---------------------------------------------------------------------

/// `world:` into t.base.world.
void read_world(ReaderState& r, const Entry* e);

/// `bodies:` into t.base.bodies (and r.body_index).
void read_bodies(ReaderState& r, const Entry* e);

/// The body a scalar names; −2 (after an error) when it names none or is not a scalar, or when
/// `e` is null.
BodyIndex body_ref(ReaderState& r, const Entry* e, const What& what);

/// The required key `key` of `view`, a body name, into `field` (left as is when not read).
void read_body(ReaderState& r, const MapView& view, const char* key, BodyIndex& field, const What& path);

// ---- read_mesh.cpp -----------------------------------------------------------------------

/// The `mesh:` of body `body` (an OBJ `file:` relative to the scenario, or inline `vertices:`
/// and `triangles:`) into its shape and mesh_data.
void read_mesh(ReaderState& r, const MapView& view, int body, const What& path);

// ---- read_log.cpp ------------------------------------------------------------------------

/// `log:` into t.base.log, giving every entry an id.
void read_log(ReaderState& r, const Entry* e);

// ---- read_expect.cpp ---------------------------------------------------------------------

/// `expect:` into t.base.expect, each value resolved against the log read before.
void read_expect(ReaderState& r, const Entry* e);

} // namespace collide::reader
