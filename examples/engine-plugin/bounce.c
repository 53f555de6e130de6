/* bounce: a small engine as a collide plugin (include/collide/engine_abi.h), in plain C11.
 *
 * Dynamic spheres fall under gravity (semi-implicit Euler: v += g·h, then x += v·h) onto static
 * boxes (turned or not) and planes, and meet each other; every contact reflects the normal
 * velocity with the pair's restitution (combined by the world's rule) when the approach is
 * faster than max(rest_speed, |g|·h), and stops it otherwise; overlaps are pushed out. A sphere
 * with `ccd` (or in a swept world) stops at its time of impact inside the step against each
 * static shape grown by its radius, bounces, and goes on for the rest of the step. No friction,
 * no rolling, no sleep. Whatever else a scenario holds is refused, naming the body or world key.
 *
 * Build it against an installed collide (README.md here), then:
 *     collide sim scenarios/bouncing.yaml --engine ./build/libbounce.so
 */
#include <collide/engine_abi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- vectors and rotations --------------------------------------------------------------- */

typedef collide_vec3 vec3;
typedef collide_quat quat;

static vec3 add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec3 sub(vec3 a, vec3 b) { return (vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static vec3 scale(vec3 a, double k) { return (vec3){a.x * k, a.y * k, a.z * k}; }
static double dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double length(vec3 a) { return sqrt(dot(a, a)); }
static double component(vec3 a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }
static vec3 axis_vector(int axis, double sign) {
    return (vec3){axis == 0 ? sign : 0.0, axis == 1 ? sign : 0.0, axis == 2 ? sign : 0.0};
}

static quat multiply(quat a, quat b) {
    return (quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
static quat normalized(quat q) {
    const double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return n > 0 ? (quat){q.w / n, q.x / n, q.y / n, q.z / n} : (quat){1, 0, 0, 0};
}
/* v turned by the unit quaternion q: v + 2w(u × v) + 2u × (u × v), u = (x, y, z). */
static vec3 rotate(quat q, vec3 v) {
    const vec3 u = {q.x, q.y, q.z};
    const vec3 t = {2 * (u.y * v.z - u.z * v.y), 2 * (u.z * v.x - u.x * v.z), 2 * (u.x * v.y - u.y * v.x)};
    const vec3 ut = {u.y * t.z - u.z * t.y, u.z * t.x - u.x * t.z, u.x * t.y - u.y * t.x};
    return add(add(v, scale(t, q.w)), ut);
}
static vec3 rotate_back(quat q, vec3 v) { return rotate((quat){q.w, -q.x, -q.y, -q.z}, v); }

/* ---- the world ---------------------------------------------------------------------------- */

enum { SPHERE, BOX, PLANE };

typedef struct body {
    int moves;          /* a dynamic sphere; else a static box or plane */
    int shape;          /* SPHERE, BOX or PLANE */
    int swept;          /* ccd, or a swept world */
    int fixed_rotation; /* never turns */
    vec3 offset;        /* a sphere's centre in its body frame (m) */
    quat rotation;      /* body frame → world */
    vec3 centre;        /* a sphere's or box's centre (m, world) */
    vec3 velocity;      /* a sphere's (m/s) */
    vec3 spin;          /* a sphere's angular velocity (rad/s): no torque ever changes it */
    double radius;      /* a sphere's (m) */
    double inverse_mass;
    vec3 half;           /* a box's half-size along its axes (m) */
    quat box_rotation;   /* a box's axes → world */
    vec3 normal;         /* a plane's outward normal (world) */
    double offset_along; /* a plane's surface: dot(normal, x) = offset_along (m) */
    double restitution;
} body;

typedef struct world {
    int count;
    body* bodies;
    vec3 gravity;
    double rest_speed;
    int combine; /* collide_combine */
    int* order;  /* the spheres, sorted by their lowest x each step (sweep and prune) */
    int sphere_count;
    collide_contact* contacts;
    int contact_count, contact_capacity;
    int failed; /* out of memory: the step reports it */
} world;

static double combined(const world* w, double a, double b) {
    switch (w->combine) {
    case COLLIDE_COMBINE_MIN: return a < b ? a : b;
    case COLLIDE_COMBINE_AVERAGE: return 0.5 * (a + b);
    case COLLIDE_COMBINE_MULTIPLY: return a * b;
    default: return a > b ? a : b;
    }
}

/* Records a contact of bodies i and j; `normal` points from i to j, `point` is midway. */
static void add_contact(world* w, int i, int j, vec3 normal, vec3 point, double depth) {
    if (w->contact_count == w->contact_capacity) {
        const int capacity = w->contact_capacity ? 2 * w->contact_capacity : 64;
        collide_contact* grown = realloc(w->contacts, (size_t)capacity * sizeof *grown);
        if (!grown) {
            w->failed = 1;
            return;
        }
        w->contacts = grown;
        w->contact_capacity = capacity;
    }
    collide_contact* c = &w->contacts[w->contact_count++];
    memset(c, 0, sizeof *c);
    c->a = i < j ? i : j;
    c->b = i < j ? j : i;
    c->normal = i < j ? normal : scale(normal, -1);
    c->point_count = 1;
    c->points[0].point = point;
    c->points[0].depth = depth;
}

/* Reflects sphere s's velocity off a surface of outward normal n (towards the sphere). */
static void bounce_off(const world* w, body* s, vec3 n, double restitution, double h) {
    const double vn = dot(s->velocity, n);
    if (vn >= 0) return;
    const double threshold = fmax(w->rest_speed, length(w->gravity) * h);
    const double e = -vn > threshold ? restitution : 0.0;
    s->velocity = sub(s->velocity, scale(n, (1 + e) * vn));
}

/* How far sphere s overlaps static body b (> 0), the outward normal of b there, 0 if apart. */
static double overlap(const body* s, const body* b, vec3* n) {
    if (b->shape == PLANE) {
        *n = b->normal;
        return s->radius - (dot(b->normal, s->centre) - b->offset_along);
    }
    const vec3 d = rotate_back(b->box_rotation, sub(s->centre, b->centre)); /* in the box's frame */
    const double dv[3] = {d.x, d.y, d.z}, hv[3] = {b->half.x, b->half.y, b->half.z};
    double closest[3];
    int inside = 1;
    for (int k = 0; k < 3; ++k) {
        closest[k] = fmin(fmax(dv[k], -hv[k]), hv[k]);
        if (closest[k] != dv[k]) inside = 0;
    }
    if (inside) { /* the centre in the box: out through the nearest face */
        int best = 0;
        for (int k = 1; k < 3; ++k)
            if (hv[k] - fabs(dv[k]) < hv[best] - fabs(dv[best])) best = k;
        *n = rotate(b->box_rotation, axis_vector(best, dv[best] < 0 ? -1.0 : 1.0));
        return s->radius + hv[best] - fabs(dv[best]);
    }
    const vec3 gap = {dv[0] - closest[0], dv[1] - closest[1], dv[2] - closest[2]};
    const double distance = length(gap);
    *n = rotate(b->box_rotation, scale(gap, 1 / distance));
    return s->radius - distance;
}

/* The fraction of `move` (m) at which sphere s first touches static body b grown by its
 * radius (a box's edges and corners square: an approximation), and the outward normal there;
 * −1 when it does not within the move or starts inside. */
static double impact(const body* s, const body* b, vec3 move, vec3* n) {
    if (b->shape == PLANE) {
        const double gap = dot(b->normal, s->centre) - b->offset_along - s->radius, along = dot(b->normal, move);
        if (gap < 0 || along >= 0 || gap + along > 0) return -1;
        *n = b->normal;
        return gap / -along;
    }
    const vec3 p = rotate_back(b->box_rotation, sub(s->centre, b->centre)), m = rotate_back(b->box_rotation, move);
    double enter = -1e300, leave = 1e300;
    int face = -1;
    double face_sign = 1;
    for (int k = 0; k < 3; ++k) {
        const double h = component(b->half, k) + s->radius, pk = component(p, k), mk = component(m, k);
        if (fabs(mk) < 1e-300) {
            if (pk < -h || pk > h) return -1;
            continue;
        }
        double t1 = (-h - pk) / mk, t2 = (h - pk) / mk;
        const double sign = mk > 0 ? -1.0 : 1.0; /* the face it enters through faces the motion */
        if (t1 > t2) {
            const double t = t1;
            t1 = t2;
            t2 = t;
        }
        if (t1 > enter) enter = t1, face = k, face_sign = sign;
        if (t2 < leave) leave = t2;
    }
    if (face < 0 || enter > leave || enter < 0 || enter > 1) return -1;
    *n = rotate(b->box_rotation, axis_vector(face, face_sign));
    return enter;
}

/* Moves sphere s for h seconds, stopping and bouncing at each static shape it hits first. */
static void move_swept(world* w, int i, double h) {
    body* s = &w->bodies[i];
    double left = h;
    for (int hits = 0; hits < 8 && left > 0; ++hits) {
        const vec3 move = scale(s->velocity, left);
        double first = 2;
        int with = -1;
        vec3 normal = {0, 0, 0};
        for (int j = 0; j < w->count; ++j) {
            if (w->bodies[j].moves) continue;
            vec3 n;
            const double t = impact(s, &w->bodies[j], move, &n);
            if (t >= 0 && t < first) first = t, with = j, normal = n;
        }
        if (with < 0) break;
        s->centre = add(s->centre, scale(move, first));
        add_contact(w, with, i, normal, sub(s->centre, scale(normal, s->radius)), 0.0);
        bounce_off(w, s, normal, combined(w, s->restitution, w->bodies[with].restitution), h);
        left -= left * first;
    }
    s->centre = add(s->centre, scale(s->velocity, left));
}

/* A sphere's lowest x (m): the sweep and prune's key. */
static double lowest_x(const world* w, int i) { return w->bodies[i].centre.x - w->bodies[i].radius; }

/* Sorts the spheres by their lowest x, ties by index (insertion sort: nearly sorted already). */
static void sort_spheres(world* w) {
    for (int k = 1; k < w->sphere_count; ++k) {
        const int moving = w->order[k];
        const double key = lowest_x(w, moving);
        int m = k;
        while (m > 0 && (lowest_x(w, w->order[m - 1]) > key ||
                         (lowest_x(w, w->order[m - 1]) == key && w->order[m - 1] > moving))) {
            w->order[m] = w->order[m - 1];
            --m;
        }
        w->order[m] = moving;
    }
}

/* Pushes two overlapping spheres apart by their inverse masses and exchanges the impulse. */
static void meet(world* w, int i, int j, double h) {
    body *a = &w->bodies[i], *b = &w->bodies[j];
    const vec3 d = sub(b->centre, a->centre);
    const double distance = length(d), depth = a->radius + b->radius - distance;
    if (depth <= 0) return;
    const vec3 n = distance > 0 ? scale(d, 1 / distance) : scale(w->gravity, -1 / fmax(length(w->gravity), 1e-300));
    const double wa = a->inverse_mass, wb = b->inverse_mass;
    add_contact(w, i, j, n, add(a->centre, scale(n, a->radius - 0.5 * depth)), depth);
    a->centre = sub(a->centre, scale(n, depth * wa / (wa + wb)));
    b->centre = add(b->centre, scale(n, depth * wb / (wa + wb)));
    const double approach = dot(sub(b->velocity, a->velocity), n);
    if (approach >= 0) return;
    const double threshold = fmax(w->rest_speed, length(w->gravity) * h);
    const double e = -approach > threshold ? combined(w, a->restitution, b->restitution) : 0.0;
    const double impulse = -(1 + e) * approach / (wa + wb);
    a->velocity = sub(a->velocity, scale(n, impulse * wa));
    b->velocity = add(b->velocity, scale(n, impulse * wb));
}

/* ---- the ABI ------------------------------------------------------------------------------ */

static void refuse(collide_refusal* r, int body_index, const char* key, const char* message) {
    r->body = body_index;
    snprintf(r->key, sizeof r->key, "%s", key);
    snprintf(r->message, sizeof r->message, "%s", message);
}

static const char* shape_key(int kind) {
    switch (kind) {
    case COLLIDE_SHAPE_SPHERE: return "sphere";
    case COLLIDE_SHAPE_BOX: return "box";
    case COLLIDE_SHAPE_CAPSULE: return "capsule";
    case COLLIDE_SHAPE_TRIANGLE: return "triangle";
    case COLLIDE_SHAPE_HULL: return "hull";
    case COLLIDE_SHAPE_PLANE: return "plane";
    default: return "mesh";
    }
}

static void destroy(void* handle) {
    world* w = handle;
    if (!w) return;
    free(w->bodies);
    free(w->order);
    free(w->contacts);
    free(w);
}

static void* create(const collide_world_def* def, const collide_body_def* defs, int32_t count,
                    collide_refusal* refusal) {
    if (def->struct_size != sizeof(collide_world_def) || def->body_def_size != sizeof(collide_body_def)) {
        refuse(refusal, -1, "", "built against another engine_abi.h than this collide's");
        return NULL;
    }
    if (def->detection == COLLIDE_DETECTION_SPECULATIVE) {
        refuse(refusal, -1, "detection", "bounce has no speculative contacts (discrete or swept only)");
        return NULL;
    }
    for (int i = 0; i < count; ++i) {
        const collide_body_def* d = &defs[i];
        const int kind = d->shape.kind;
        if (d->kind == COLLIDE_BODY_KINEMATIC) {
            refuse(refusal, i, "kinematic", "bounce moves no kinematic body");
            return NULL;
        }
        if (d->flags & COLLIDE_BODY_TRIGGER) {
            refuse(refusal, i, "trigger", "bounce has no trigger volumes");
            return NULL;
        }
        if (d->flags & COLLIDE_BODY_SPECULATIVE) {
            refuse(refusal, i, "ccd", "bounce has no speculative contacts (ccd: true sweeps)");
            return NULL;
        }
        if (d->friction > 0) {
            refuse(refusal, i, "friction", "bounce has no friction (its spheres slide freely): friction must be 0");
            return NULL;
        }
        if (d->kind == COLLIDE_BODY_DYNAMIC && kind != COLLIDE_SHAPE_SPHERE) {
            refuse(refusal, i, shape_key(kind), "only spheres move in bounce");
            return NULL;
        }
        if (d->kind == COLLIDE_BODY_STATIC && kind != COLLIDE_SHAPE_BOX && kind != COLLIDE_SHAPE_PLANE &&
            kind != COLLIDE_SHAPE_SPHERE) {
            refuse(refusal, i, shape_key(kind), "bounce's static bodies are boxes, planes and spheres");
            return NULL;
        }
    }
    world* w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->count = count;
    w->bodies = calloc((size_t)(count > 0 ? count : 1), sizeof *w->bodies);
    w->order = calloc((size_t)(count > 0 ? count : 1), sizeof *w->order);
    if (!w->bodies || !w->order) {
        destroy(w);
        refuse(refusal, -1, "", "out of memory");
        return NULL;
    }
    w->gravity = def->gravity;
    w->rest_speed = def->rest_speed;
    w->combine = def->restitution_combine;
    for (int i = 0; i < count; ++i) {
        const collide_body_def* d = &defs[i];
        body* b = &w->bodies[i];
        b->moves = d->kind == COLLIDE_BODY_DYNAMIC;
        b->swept = (d->flags & COLLIDE_BODY_CCD) || def->detection == COLLIDE_DETECTION_SWEPT;
        b->fixed_rotation = (d->flags & COLLIDE_BODY_FIXED_ROTATION) != 0;
        b->rotation = d->rotation;
        b->restitution = d->restitution;
        switch (d->shape.kind) {
        case COLLIDE_SHAPE_SPHERE:
            b->shape = SPHERE;
            b->offset = d->shape.centre;
            b->radius = d->shape.radius;
            b->centre = add(d->position, rotate(d->rotation, d->shape.centre));
            break;
        case COLLIDE_SHAPE_BOX:
            b->shape = BOX;
            b->half = d->shape.half;
            b->centre = add(d->position, rotate(d->rotation, d->shape.centre));
            b->box_rotation = normalized(multiply(d->rotation, d->shape.rotation));
            break;
        default: /* a plane */
            b->shape = PLANE;
            b->normal = rotate(d->rotation, d->shape.normal);
            b->offset_along = d->shape.offset + dot(b->normal, d->position);
            break;
        }
        if (b->moves) {
            b->velocity = d->velocity;
            b->spin = b->fixed_rotation ? (vec3){0, 0, 0} : d->angular_velocity;
            b->inverse_mass = 1 / d->mass;
            w->order[w->sphere_count++] = i;
        } else if (b->shape == SPHERE) {
            b->moves = 0; /* a static sphere: met as a sphere of infinite mass */
        }
    }
    return w;
}

static int32_t step(void* handle, double h) {
    world* w = handle;
    w->contact_count = 0;
    for (int i = 0; i < w->count; ++i) {
        body* s = &w->bodies[i];
        if (!s->moves) continue;
        s->velocity = add(s->velocity, scale(w->gravity, h));
        if (s->swept)
            move_swept(w, i, h);
        else
            s->centre = add(s->centre, scale(s->velocity, h));
        if (dot(s->spin, s->spin) > 0) { /* dq/dt = ½·ω·q, then normalised */
            const quat turn = multiply((quat){0, s->spin.x, s->spin.y, s->spin.z}, s->rotation);
            s->rotation = normalized((quat){s->rotation.w + 0.5 * h * turn.w, s->rotation.x + 0.5 * h * turn.x,
                                            s->rotation.y + 0.5 * h * turn.y, s->rotation.z + 0.5 * h * turn.z});
        }
        for (int j = 0; j < w->count; ++j) { /* overlaps with static shapes: pushed out */
            const body* b = &w->bodies[j];
            if (b->moves || b->shape == SPHERE) continue;
            vec3 n;
            const double depth = overlap(s, b, &n);
            if (depth <= 0) continue;
            add_contact(w, j, i, n, sub(s->centre, scale(n, s->radius - 0.5 * depth)), depth);
            s->centre = add(s->centre, scale(n, depth));
            bounce_off(w, s, n, combined(w, s->restitution, b->restitution), h);
        }
    }
    for (int j = 0; j < w->count; ++j) /* static spheres: met with infinite mass */
        if (!w->bodies[j].moves && w->bodies[j].shape == SPHERE)
            for (int k = 0; k < w->sphere_count; ++k) meet(w, j, w->order[k], h);
    sort_spheres(w);
    for (int k = 0; k < w->sphere_count; ++k) { /* sweep and prune along x */
        const int i = w->order[k];
        for (int m = k + 1; m < w->sphere_count; ++m) {
            const int j = w->order[m];
            const body *a = &w->bodies[i], *b = &w->bodies[j];
            if (b->centre.x - b->radius > a->centre.x + a->radius) break;
            meet(w, i < j ? i : j, i < j ? j : i, h);
        }
    }
    return w->failed ? 1 : 0;
}

static void read_states(const void* handle, collide_body_state* states) {
    const world* w = handle;
    for (int i = 0; i < w->count; ++i) {
        const body* b = &w->bodies[i];
        if (!b->moves) continue; /* collide keeps a static body's pose */
        states[i].rotation = b->rotation;
        states[i].position = sub(b->centre, rotate(b->rotation, b->offset));
        states[i].velocity = b->velocity;
        states[i].angular_velocity = b->spin;
    }
}

static int32_t read_contacts(const void* handle, const collide_contact** contacts) {
    const world* w = handle;
    *contacts = w->contacts;
    return w->contact_count;
}

static const char* const approximations[] = {
        "one semi-implicit Euler step per frame (v += g·dt, then x += v·dt), whatever world.integrator says",
        "spheres move, boxes and planes stay; no friction, no rolling, no sleep; restitution above max(rest_speed, "
        "|g|·dt), none below",
        "a swept sphere stops at its time of impact against each box grown by its radius (edges and corners square, "
        "not rounded) or plane; spheres meet spheres at the end of a step only",
        NULL,
};

static const collide_engine engine = {
        .abi_major = COLLIDE_ENGINE_ABI_MAJOR,
        .struct_size = sizeof(collide_engine),
        .name = "bounce",
        .version = "bounce 1.0, spheres on boxes and planes (collide's example plugin, engine ABI 1)",
        .approximations = approximations,
        .create = create,
        .step = step,
        .read_states = read_states,
        .read_contacts = read_contacts,
        .destroy = destroy,
};

COLLIDE_ENGINE_ENTRY { return &engine; }
