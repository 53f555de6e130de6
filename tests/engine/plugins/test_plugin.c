/* Small engine plugins for the loader's and the adapter's tests (tests/engine/plugin_*_test.cpp),
 * one per TEST_PLUGIN_* variant (CMakeLists.txt builds each as a MODULE library):
 *   WRONG_ABI    reports COLLIDE_ENGINE_ABI_MAJOR + 1;
 *   SMALL_TABLE  reports a table of 16 bytes;
 *   NO_ENTRY     exports no entry point;
 *   NULL_TABLE   its entry point returns NULL;
 *   BAD_NAME     names itself "Bad Name";
 *   NO_STEP      leaves its table's step and destroy functions NULL;
 *   RECORDER     a valid engine that keeps a copy of what `create` was given (read back through
 *                recorder_world() and recorder_body()), moves every body that is not static in
 *                free flight (v += g·h, then x += v·h; its rotation by ω·h about z only when
 *                ω = (0, 0, ωz), else unchanged), and reports one contact per step between bodies 0
 *                and 1 with two points; it refuses a body named "refuse_me" (key "restitution"), a
 *                world of 7 frames (key "frames"), a speculative world (key "detection"), a body
 *                named "no_ccd" with ccd (key "ccd"), and a world of 8 frames without a key; a body
 *                named "bad_pair" makes it report the pair (1, 1), which breaks the ABI.
 */
#include <collide/engine_abi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(TEST_PLUGIN_RECORDER)

#define MAX_BODIES 16
#define MAX_POINTS 8

/* What create was given (the arrays copied: collide's are valid only during create). */
static collide_world_def recorded_world;
static collide_body_def recorded_bodies[MAX_BODIES];
static char recorded_names[MAX_BODIES][32];
static collide_vec3 recorded_points[MAX_BODIES][MAX_POINTS];
static int32_t recorded_triangles[MAX_BODIES][3];
static int32_t recorded_count;

COLLIDE_ENGINE_EXPORT const collide_world_def* recorder_world(void);
COLLIDE_ENGINE_EXPORT const collide_body_def* recorder_body(int32_t i);
COLLIDE_ENGINE_EXPORT int32_t recorder_count(void);

const collide_world_def* recorder_world(void) { return &recorded_world; }
const collide_body_def* recorder_body(int32_t i) { return &recorded_bodies[i]; }
int32_t recorder_count(void) { return recorded_count; }

typedef struct world {
    int32_t count;
    collide_vec3 gravity;
    collide_body_state states[MAX_BODIES];
    int32_t kinds[MAX_BODIES];
    int bad_pair;
    collide_contact contact;
} world;

static void* create(const collide_world_def* def, const collide_body_def* bodies, int32_t count,
                    collide_refusal* refusal) {
    if (def->frames == 7) {
        refusal->body = -1;
        snprintf(refusal->key, sizeof refusal->key, "frames");
        snprintf(refusal->message, sizeof refusal->message, "seven frames are too many");
        return NULL;
    }
    if (def->detection == COLLIDE_DETECTION_SPECULATIVE) {
        snprintf(refusal->key, sizeof refusal->key, "detection");
        snprintf(refusal->message, sizeof refusal->message, "no speculative contacts");
        return NULL;
    }
    if (def->frames == 8) {
        snprintf(refusal->message, sizeof refusal->message, "eight frames are too many");
        return NULL;
    }
    if (count > MAX_BODIES) {
        refusal->body = MAX_BODIES;
        snprintf(refusal->message, sizeof refusal->message, "at most %d bodies", MAX_BODIES);
        return NULL;
    }
    for (int32_t i = 0; i < count; ++i) {
        if (strcmp(bodies[i].name, "no_ccd") == 0 && (bodies[i].flags & COLLIDE_BODY_CCD)) {
            refusal->body = i;
            snprintf(refusal->key, sizeof refusal->key, "ccd");
            snprintf(refusal->message, sizeof refusal->message, "no continuous detection");
            return NULL;
        }
        if (strcmp(bodies[i].name, "refuse_me") == 0) {
            refusal->body = i;
            snprintf(refusal->key, sizeof refusal->key, "restitution");
            snprintf(refusal->message, sizeof refusal->message, "asked to refuse it");
            return NULL;
        }
    }
    world* w = calloc(1, sizeof *w);
    if (!w) return NULL;
    recorded_world = *def;
    recorded_count = count;
    w->count = count;
    w->gravity = def->gravity;
    for (int32_t i = 0; i < count; ++i) {
        collide_body_def* r = &recorded_bodies[i];
        *r = bodies[i];
        snprintf(recorded_names[i], sizeof recorded_names[i], "%s", bodies[i].name);
        r->name = recorded_names[i];
        const collide_vec3* points = r->shape.kind == COLLIDE_SHAPE_HULL ? r->shape.points : r->shape.vertices;
        const int32_t n = r->shape.kind == COLLIDE_SHAPE_HULL ? r->shape.point_count : r->shape.vertex_count;
        for (int32_t k = 0; k < n && k < MAX_POINTS; ++k) recorded_points[i][k] = points[k];
        if (r->shape.kind == COLLIDE_SHAPE_HULL) r->shape.points = recorded_points[i];
        if (r->shape.kind == COLLIDE_SHAPE_MESH) {
            r->shape.vertices = recorded_points[i];
            memcpy(recorded_triangles[i], r->shape.triangles, sizeof recorded_triangles[i]);
            r->shape.triangles = recorded_triangles[i];
        }
        w->kinds[i] = bodies[i].kind;
        w->states[i].position = bodies[i].position;
        w->states[i].rotation = bodies[i].rotation;
        w->states[i].velocity = bodies[i].velocity;
        w->states[i].angular_velocity = bodies[i].angular_velocity;
        if (strcmp(bodies[i].name, "bad_pair") == 0) w->bad_pair = 1;
    }
    return w;
}

static int32_t step(void* handle, double h) {
    world* w = handle;
    for (int32_t i = 0; i < w->count; ++i) {
        collide_body_state* s = &w->states[i];
        if (w->kinds[i] == COLLIDE_BODY_STATIC) continue;
        if (w->kinds[i] == COLLIDE_BODY_DYNAMIC) {
            s->velocity.x += w->gravity.x * h;
            s->velocity.y += w->gravity.y * h;
            s->velocity.z += w->gravity.z * h;
        }
        s->position.x += s->velocity.x * h;
        s->position.y += s->velocity.y * h;
        s->position.z += s->velocity.z * h;
        const collide_vec3 wv = s->angular_velocity;
        if (wv.x == 0 && wv.y == 0 && wv.z != 0) { /* about z: q ← (cos ½θ, 0, 0, sin ½θ)·q */
            const double half = 0.5 * wv.z * h, c = cos(half), sn = sin(half);
            const collide_quat q = s->rotation;
            s->rotation =
                    (collide_quat){c * q.w - sn * q.z, c * q.x - sn * q.y, c * q.y + sn * q.x, c * q.z + sn * q.w};
        }
    }
    memset(&w->contact, 0, sizeof w->contact);
    w->contact.a = w->bad_pair ? 1 : 0;
    w->contact.b = 1;
    w->contact.normal = (collide_vec3){0, 2, 0}; /* not unit: collide normalises it */
    w->contact.point_count = 2;
    w->contact.points[0] = (collide_contact_point){{1, 2, 3}, 0.25};
    w->contact.points[1] = (collide_contact_point){{4, 5, 6}, 0.5};
    return 0;
}

static void read_states(const void* handle, collide_body_state* states) {
    const world* w = handle;
    for (int32_t i = 0; i < w->count; ++i) states[i] = w->states[i];
}

static int32_t read_contacts(const void* handle, const collide_contact** contacts) {
    const world* w = handle;
    *contacts = &w->contact;
    return w->count >= 2 ? 1 : 0;
}

static void destroy(void* handle) { free(handle); }

static const char* const approximations[] = {"moves in free flight", "reports one contact per step", NULL};

static const collide_engine engine = {
        .abi_major = COLLIDE_ENGINE_ABI_MAJOR,
        .struct_size = sizeof(collide_engine),
        .name = "recorder",
        .version = "recorder 1 (a test plugin)",
        .approximations = approximations,
        .create = create,
        .step = step,
        .read_states = read_states,
        .read_contacts = read_contacts,
        .destroy = destroy,
};

COLLIDE_ENGINE_ENTRY { return &engine; }

#elif defined(TEST_PLUGIN_NO_ENTRY)

COLLIDE_ENGINE_EXPORT int collide_engine_entry_misspelt(void);
int collide_engine_entry_misspelt(void) { return 1; }

#else

static void* create(const collide_world_def* def, const collide_body_def* bodies, int32_t count,
                    collide_refusal* refusal) {
    (void)def, (void)bodies, (void)count, (void)refusal;
    return NULL;
}
#if !defined(TEST_PLUGIN_NO_STEP)
static int32_t step(void* world, double seconds) {
    (void)world, (void)seconds;
    return 1;
}
static void destroy(void* world) { (void)world; }
#endif
static void read_states(const void* world, collide_body_state* states) { (void)world, (void)states; }
static int32_t read_contacts(const void* world, const collide_contact** contacts) {
    (void)world, (void)contacts;
    return 0;
}

static const collide_engine engine = {
#if defined(TEST_PLUGIN_WRONG_ABI)
        .abi_major = COLLIDE_ENGINE_ABI_MAJOR + 1,
#else
        .abi_major = COLLIDE_ENGINE_ABI_MAJOR,
#endif
#if defined(TEST_PLUGIN_SMALL_TABLE)
        .struct_size = 16,
#else
        .struct_size = sizeof(collide_engine),
#endif
#if defined(TEST_PLUGIN_BAD_NAME)
        .name = "Bad Name",
#else
        .name = "broken",
#endif
        .version = "broken 1 (a test plugin)",
        .approximations = NULL,
        .create = create,
#if defined(TEST_PLUGIN_NO_STEP)
        .step = NULL,
#else
        .step = step,
#endif
        .read_states = read_states,
        .read_contacts = read_contacts,
#if defined(TEST_PLUGIN_NO_STEP)
        .destroy = NULL,
#else
        .destroy = destroy,
#endif
};

#if defined(TEST_PLUGIN_NULL_TABLE)
COLLIDE_ENGINE_ENTRY { return (void)engine, NULL; }
#else
COLLIDE_ENGINE_ENTRY { return &engine; }
#endif

#endif
