/* SPDX-License-Identifier: MIT */
#ifndef COLLIDE_ENGINE_ABI_H
#define COLLIDE_ENGINE_ABI_H
/// \file
/// collide's engine ABI: the plain C interface through which a shared library is an engine
/// (`collide sim FILE --engine ./libmyengine.so`; also `check` and `sweep`). C99 and C++,
/// no collide header, no C++ type: a plugin needs this file only (installed as
/// `include/collide/engine_abi.h`; CMake: `find_package(collide)`, target `collide::engine_abi`).
///
/// **What a plugin does.** It exports one function, COLLIDE_ENGINE_ENTRY (below), which returns
/// a `collide_engine` table: the ABI version it was built against, its name and version text,
/// the lines of approximations the log prints first, and five functions. For each run collide
/// calls `create` once with the scenario's world settings and bodies (or `create` may refuse,
/// saying why and which body), then, for frame k = 0 … frames − 1, `step` once (frame 0 steps
/// phase·dt seconds, skipped when phase is 0; every other frame dt), and after every step
/// `read_states` and `read_contacts`; finally `destroy`. A plugin is loaded once per process and
/// never unloaded. Worlds must be independent of each other: collide may create and step
/// different worlds on different threads at once (`sweep`'s cells, `check --jobs`), but uses one
/// world from one thread at a time.
///
/// **Frames and units.** SI throughout: metres, seconds, kilograms, radians (rad/s for angular
/// velocities). Every pose and velocity is in the world frame unless a field says "body frame".
/// A body's frame is where its shape is given: its `position` is the body frame's origin in the
/// world and its `rotation` the unit quaternion (w, x, y, z) that turns the body frame into the
/// world. The velocity of a dynamic body is that of its centre of mass; of a kinematic body,
/// that of its origin. Angular velocities are world-frame vectors (rad/s).
///
/// **Contacts** are reported per pair of bodies a < b (indices into the bodies given to
/// `create`), with a unit normal pointing from a to b and points whose depth is positive when
/// the shapes overlap (0 when they touch, e.g. a swept impact inside the step).
///
/// **Versions.** COLLIDE_ENGINE_ABI_MAJOR changes whenever any struct below changes its layout
/// or a function its meaning; collide loads only plugins of its own major version (checked
/// exactly) and whose table is at least as large as this header's (`struct_size`). The first
/// two fields of `collide_engine` (abi_major, struct_size) and the entry point's name stay the
/// same in every version, so that collide can always say which version a plugin was built for.
/// A mismatch is one line and exit 2:
/// `./libold.so: error: engine ABI version 2; this collide loads version 1 …`.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The ABI version this header describes. A plugin puts it in collide_engine::abi_major.
#define COLLIDE_ENGINE_ABI_MAJOR 1

/// The name of the function every plugin exports (COLLIDE_ENGINE_ENTRY).
#define COLLIDE_ENGINE_ENTRY_NAME "collide_engine_entry"

/// Marks the entry point for export from the shared library (GCC and Clang; a library built
/// with -fvisibility=hidden still exports it).
#if defined(__GNUC__)
#define COLLIDE_ENGINE_EXPORT __attribute__((visibility("default")))
#else
#define COLLIDE_ENGINE_EXPORT
#endif

/// The most points one contact has.
#define COLLIDE_CONTACT_MAX_POINTS 4
/// The size of collide_refusal::message, its terminating NUL included.
#define COLLIDE_REFUSAL_MESSAGE_SIZE 256
/// The size of collide_refusal::key, its terminating NUL included.
#define COLLIDE_REFUSAL_KEY_SIZE 64

/// A vector (m, m/s, rad/s … as the field says).
typedef struct collide_vec3 {
    double x; ///< x component
    double y; ///< y component
    double z; ///< z component
} collide_vec3;

/// A unit quaternion w + xi + yj + zk: a rotation (collide's order: w first).
typedef struct collide_quat {
    double w; ///< scalar part
    double x; ///< i component
    double y; ///< j component
    double z; ///< k component
} collide_quat;

/// What moves a body (collide_body_def::kind). A scenario's `character` bodies have no
/// counterpart: collide refuses them before the plugin sees them.
enum collide_body_kind {
    COLLIDE_BODY_STATIC = 0,    ///< never moves; infinite mass
    COLLIDE_BODY_DYNAMIC = 1,   ///< moved by gravity and contacts
    COLLIDE_BODY_KINEMATIC = 2, ///< moved by its velocity and angular velocity only; pushes others as a static body
};

/// Flags of a body (collide_body_def::flags), or-ed.
enum collide_body_flag {
    /// A trigger volume: others pass through it; nothing responds to it (collide measures its
    /// overlaps itself from the states, and ignores contacts reported with it).
    COLLIDE_BODY_TRIGGER = 1u << 0,
    /// A dynamic body that never turns (its angular velocity stays zero).
    COLLIDE_BODY_FIXED_ROTATION = 1u << 1,
    /// Continuous (swept) detection for this body even in a discrete world.
    COLLIDE_BODY_CCD = 1u << 2,
    /// Speculative contacts for this body (`ccd: speculative`).
    COLLIDE_BODY_SPECULATIVE = 1u << 3,
};

/// The kind of a shape (collide_shape::kind).
enum collide_shape_kind {
    COLLIDE_SHAPE_SPHERE = 0,   ///< centre, radius
    COLLIDE_SHAPE_BOX = 1,      ///< centre, half, rotation
    COLLIDE_SHAPE_CAPSULE = 2,  ///< a, b, radius
    COLLIDE_SHAPE_TRIANGLE = 3, ///< a, b, c
    COLLIDE_SHAPE_HULL = 4,     ///< points, point_count
    COLLIDE_SHAPE_PLANE = 5,    ///< normal, offset (static bodies only)
    COLLIDE_SHAPE_MESH = 6,     ///< vertices, vertex_count, triangles, triangle_count (static bodies only)
};

/// How the world finds collisions (collide_world_def::detection).
enum collide_detection {
    COLLIDE_DETECTION_DISCRETE = 0,    ///< test the poses at the end of each step (can tunnel)
    COLLIDE_DETECTION_SWEPT = 1,       ///< find the time of impact inside each step
    COLLIDE_DETECTION_SPECULATIVE = 2, ///< contacts for pairs closer than their motion this step
};

/// How a step advances bodies in collide's own world (collide_world_def::integrator); an engine
/// that integrates otherwise says so in its approximations.
enum collide_integrator {
    COLLIDE_INTEGRATOR_EXACT = 0, ///< exact for constant gravity: p += v·dt + ½·g·dt², v += g·dt
    COLLIDE_INTEGRATOR_EULER = 1, ///< semi-implicit Euler: v += g·dt, then p += v·dt
};

/// How friction acts at a contact (collide_world_def::friction_model).
enum collide_friction_model {
    COLLIDE_FRICTION_COULOMB = 0,     ///< the tangential impulse is at most μ times the normal one
    COLLIDE_FRICTION_PER_CONTACT = 1, ///< each contact keeps (1 − f) of the sliding velocity
};

/// How a pair's two coefficients make one (collide_world_def::friction_combine, restitution_combine).
enum collide_combine {
    COLLIDE_COMBINE_MAX = 0,      ///< the larger
    COLLIDE_COMBINE_MIN = 1,      ///< the smaller
    COLLIDE_COMBINE_AVERAGE = 2,  ///< their mean
    COLLIDE_COMBINE_MULTIPLY = 3, ///< their product
};

/// A body's shape, in the body frame. Only the fields its kind lists are meaningful (the others
/// are zero); the arrays are collide's and valid only during `create`: copy what you keep.
typedef struct collide_shape {
    int32_t kind;          ///< a collide_shape_kind
    collide_vec3 centre;   ///< sphere, box: the centre (m, body frame)
    double radius;         ///< sphere, capsule: the radius (m), > 0
    collide_vec3 half;     ///< box: half-size along the box's own axes (m), each > 0
    collide_quat rotation; ///< box: turns the box's axes into the body frame (identity: axis-aligned)
    collide_vec3 a;        ///< capsule: one end of the core segment; triangle: first corner (m, body frame)
    collide_vec3 b;        ///< capsule: the other end; triangle: second corner (m, body frame)
    collide_vec3 c;        ///< triangle: third corner (m, body frame); face normal (b − a) × (c − a)
    collide_vec3 normal;   ///< plane: unit outward normal (body frame); the solid side is dot(normal, x) ≤ offset
    double offset;         ///< plane: the surface's signed distance from the body origin along normal (m)
    const collide_vec3* points;   ///< hull: its points (m, body frame); the shape is their convex hull
    int32_t point_count;          ///< hull: how many points, 3 … 32
    const collide_vec3* vertices; ///< mesh: corner positions (m, body frame)
    int32_t vertex_count;         ///< mesh: how many vertices
    /// mesh: 3 vertex indices per triangle, 0-based, counter-clockwise seen from the front.
    const int32_t* triangles;
    int32_t triangle_count; ///< mesh: how many triangles (the array holds 3 × this many indices)
} collide_shape;

/// One body, as the scenario gives it (collide has evaluated params and computed the mass
/// properties). Valid only during `create`.
typedef struct collide_body_def {
    const char* name;      ///< the body's key in the scenario (UTF-8, NUL-terminated), for messages
    int32_t kind;          ///< a collide_body_kind
    uint32_t flags;        ///< collide_body_flag bits
    collide_shape shape;   ///< its shape, in the body frame
    collide_vec3 position; ///< the body frame's origin at t = 0 (m, world)
    collide_quat rotation; ///< the body frame's orientation at t = 0 (unit, body → world)
    /// at t = 0 (m/s, world): of the centre of mass (dynamic), of the origin (kinematic); 0 (static).
    collide_vec3 velocity;
    /// at t = 0 (rad/s, world); a kinematic body keeps it, turning about its origin; 0 (static).
    collide_vec3 angular_velocity;
    double mass;                 ///< dynamic: kg > 0; 0 for static and kinematic bodies
    collide_vec3 centre_of_mass; ///< dynamic: the centre of mass (m, body frame); zero otherwise
    /// dynamic: the inertia tensor about the centre of mass (kg·m², body frame), row-major, symmetric;
    /// zero otherwise.
    double inertia[9];
    double restitution; ///< bounciness in [0, 1]; a pair combines its two by the world's restitution_combine
    double friction;    ///< friction coefficient ≥ 0; a pair combines its two by the world's friction_combine
} collide_body_def;

/// The world settings of a scenario. Valid only during `create`.
typedef struct collide_world_def {
    /// sizeof(collide_world_def) as collide was built: the plugin's own when the ABI matches.
    uint32_t struct_size;
    uint32_t body_def_size;      ///< sizeof(collide_body_def) as collide was built
    double dt;                   ///< the step between sampled frames (s) > 0
    int32_t frames;              ///< frames sampled: frame k is at t = (k + phase)·dt
    double phase;                ///< in [0, 1): the first step is phase·dt (none when 0), every other dt
    collide_vec3 gravity;        ///< acceleration of every dynamic body (m/s², world)
    int32_t detection;           ///< a collide_detection: the default for bodies without COLLIDE_BODY_CCD
    int32_t integrator;          ///< a collide_integrator: what collide's own world would use
    double skin;                 ///< collide's push-out distance beyond the depth (m) ≥ 0
    double rest_speed;           ///< a body slower than this (m/s) …
    double rest_time;            ///< … for this long (s) is at rest (may sleep)
    int32_t sleep;               ///< 1: still bodies may fall asleep; 0: every body stays awake
    int32_t velocity_iterations; ///< the most velocity-solver passes per step collide's world makes
    double velocity_tolerance;   ///< collide's solver stops once no pass changes a velocity by more (m/s)
    int32_t position_iterations; ///< the most position-correction passes per step collide's world makes
    int32_t friction_model;      ///< a collide_friction_model
    int32_t friction_combine;    ///< a collide_combine: a pair's friction from its bodies'
    int32_t restitution_combine; ///< a collide_combine: a pair's restitution from its bodies'
} collide_world_def;

/// What a plugin cannot run, filled by `create` when it refuses. collide prints it located in
/// the scenario file: at the body's definition, or at the world key named.
typedef struct collide_refusal {
    int32_t body;                               ///< index of the body at fault, or −1 for the world settings
    char key[COLLIDE_REFUSAL_KEY_SIZE];         ///< the scenario key at fault ("friction_model", "capsule"), or ""
    char message[COLLIDE_REFUSAL_MESSAGE_SIZE]; ///< why, one line, NUL-terminated
} collide_refusal;

/// One body's state after a step.
typedef struct collide_body_state {
    collide_vec3 position;         ///< the body frame's origin (m, world)
    collide_quat rotation;         ///< the body frame's orientation (unit, body → world)
    collide_vec3 velocity;         ///< of the centre of mass (dynamic) or of the origin (others) (m/s, world)
    collide_vec3 angular_velocity; ///< (rad/s, world)
} collide_body_state;

/// One point of a contact.
typedef struct collide_contact_point {
    collide_vec3 point; ///< midway between the two surfaces (m, world)
    double depth;       ///< overlap along the normal (m): > 0 overlapping, 0 touching
} collide_contact_point;

/// Two bodies that touched during the last step (or were pushed apart by it).
typedef struct collide_contact {
    int32_t a;                                                ///< the first body: a < b
    int32_t b;                                                ///< the second body
    collide_vec3 normal;                                      ///< unit, from a to b (world)
    int32_t point_count;                                      ///< points used, 1 … COLLIDE_CONTACT_MAX_POINTS
    collide_contact_point points[COLLIDE_CONTACT_MAX_POINTS]; ///< the first point_count are used
} collide_contact;

/// An engine: what COLLIDE_ENGINE_ENTRY returns. Static storage: collide never frees it.
typedef struct collide_engine {
    /// COLLIDE_ENGINE_ABI_MAJOR as the plugin was built; collide checks it exactly. Always first.
    uint32_t abi_major;
    /// sizeof(collide_engine) as the plugin was built; at least collide's. Always second.
    uint32_t struct_size;
    /// The engine's name as logs, goldens (`NAME.ENGINE.log`) and sweep tables show it: 1 to 32
    /// characters of a-z, 0-9, '_' and '-', not the name of an engine built into collide.
    const char* name;
    /// Its version, one line, printed as the log's first line (`engine → VERSION`) and by
    /// `collide check` when a golden was written by another version.
    const char* version;
    /// What maps only approximately, one line each (printed `NAME's approximations → LINE` after
    /// the engine line); a NULL-terminated array, or NULL for none.
    const char* const* approximations;
    /// Makes a world of `body_count` bodies (bodies[i] is body i everywhere after) at t = 0.
    /// Returns NULL when it cannot run them, after filling `refusal` (collide has zeroed it and
    /// set refusal->body to −1). Collide may create a world only to learn whether it is refused.
    void* (*create)(const collide_world_def* world, const collide_body_def* bodies, int32_t body_count,
                    collide_refusal* refusal);
    /// Advances the world by `seconds` (> 0) with the world's gravity. Returns 0, or non-zero when
    /// the world cannot go on (collide then stops with an error naming the frame).
    int32_t (*step)(void* world, double seconds);
    /// Writes the state of every body that is not static into `states` (body_count entries, in
    /// body order; a static body's entry is left as it is: collide keeps its pose).
    void (*read_states)(const void* world, collide_body_state* states);
    /// The contacts of the last step: sets *contacts to an array (the plugin's, valid until the
    /// next step or destroy) and returns how many. A body in a contact whose velocity changed
    /// other than by gravity is reported to collide's probes as a response (a bounce).
    int32_t (*read_contacts)(const void* world, const collide_contact** contacts);
    /// Frees a world made by create.
    void (*destroy)(void* world);
} collide_engine;

/// The entry point every plugin defines and exports (C linkage, named COLLIDE_ENGINE_ENTRY_NAME):
/// returns the plugin's table. collide calls it once, when it loads the library, and reads
/// abi_major and struct_size before anything else of the table.
COLLIDE_ENGINE_EXPORT const collide_engine* collide_engine_entry(void);

/// The entry point's type.
typedef const collide_engine* (*collide_engine_entry_fn)(void);

/// Begins the entry point's definition: `COLLIDE_ENGINE_ENTRY { return &my_engine; }`.
#define COLLIDE_ENGINE_ENTRY COLLIDE_ENGINE_EXPORT const collide_engine* collide_engine_entry(void)

#ifdef __cplusplus
} // extern "C"
#endif

#endif // COLLIDE_ENGINE_ABI_H
