#pragma once
/// \file
/// What the parts of the scenario reader share while they read one file: the template being
/// filled, the problems found, the number reader, and what one section tells a later one (body
/// names, whether world.skin depends on params, the ids of log entries that could not be read).
/// The sections are read in file-independent order: params, name/about/decimals/tolerance,
/// world, bodies, log, expect (reader.cpp). Internal to the scenario loader.

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "scenario/read_numbers.h"
#include "scenario/yaml_schema.h"

namespace collide::reader {

/// The state of one read of a scenario file.
struct ReaderState {
    /// Reads into `data`, whose `file` is already set.
    explicit ReaderState(TemplateData& data);

    TemplateData& t;                   ///< the template being filled
    Problems problems;                 ///< every problem found so far
    NumberReader numbers;              ///< reads numbers into `t`
    bool skin_dep = false;             ///< world.skin depends on params (push_out copies it per instance)
    std::set<std::string> dropped_ids; ///< ids of log entries that could not be read at all
    std::unordered_map<std::string, BodyIndex> body_index; ///< body name → index in t.base.bodies
};

// ---- read_bodies.cpp ---------------------------------------------------------------------

/// `world:` into t.base.world.
void read_world(ReaderState& r, const Entry* e);

/// `bodies:` into t.base.bodies (and r.body_index).
void read_bodies(ReaderState& r, const Entry* e);

/// The body a scalar names; −2 (after an error) when it names none or is not a scalar, or when
/// `e` is null.
BodyIndex body_ref(ReaderState& r, const Entry* e, const std::string& what);

/// The required key `key` of `view`, a body name, into `field` (left as is when not read).
void read_body(ReaderState& r, const MapView& view, const char* key, BodyIndex& field, const std::string& path);

// ---- read_mesh.cpp -----------------------------------------------------------------------

/// The `mesh:` of body `body` (an OBJ `file:` relative to the scenario, or inline `vertices:`
/// and `triangles:`) into its shape and mesh_data.
void read_mesh(ReaderState& r, const MapView& view, int body, const std::string& path);

// ---- read_log.cpp ------------------------------------------------------------------------

/// `log:` into t.base.log, giving every entry an id.
void read_log(ReaderState& r, const Entry* e);

// ---- read_expect.cpp ---------------------------------------------------------------------

/// `expect:` into t.base.expect, each value resolved against the log read before.
void read_expect(ReaderState& r, const Entry* e);

} // namespace collide::reader
