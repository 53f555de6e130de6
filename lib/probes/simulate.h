#pragma once
/// \file
/// Running a scenario: its world (world/world.h, or another engine: engine/engine.h) stepped frame by frame with the
/// probes its log asks for attached, every log entry measured into one flat array of doubles (model/log.h says which
/// fields, in which order). One call allocates nothing once its Workspace has warmed up on a scenario of the same size.
///
/// When each kind is measured:
/// - axis_overlaps, contact, push_out, separating_axis, raycast: on the bodies as placed at
///   t = 0 (probes/at_start.h). A contact the dispatcher cannot answer is reported as no hit.
///   push_out without a contact leaves the position where it was. separating_axis answers two
///   boxes (an Aabb is an Obb) or a box and a triangle, in either order; other pairs are NaN.
/// - split, respond, slope: pure functions of their inputs (the normal is normalised first;
///   slope measures from the world's up).
/// - first_contact (probes/first_contact.h), apex (probes/apex.h), at_rest
///   (probes/at_rest.h), trigger (probes/trigger.h: sampled frames, or exact times when the
///   world is swept or either body has `ccd: true`): observers of the stepping world.
/// - energy (probes/energy.h): at the start, every sampled frame and the end.
/// - final, character, max_overlap (probes/at_end.h): after the last frame.
///
/// Without a trace the run stops early once every log entry is settled (every first_contact
/// found and nothing needs the whole run — apex, at_rest, trigger, energy, final,
/// character and max_overlap do, or only unfound first_contact entries remain and no
/// pair can ever meet again) — the values are identical to a full run.

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "model/log.h"
#include "model/scenario.h"
#include "probes/apex.h"
#include "probes/at_rest.h"
#include "probes/energy.h"
#include "probes/first_contact.h"
#include "probes/trigger.h"
#include "probes/tunnel.h"

namespace collide {

/// A contact the world found while stepping, as a trace sees it.
struct TraceContact {
    int frame = 0;    ///< the frame being stepped
    double time = 0;  ///< when it happened (s)
    int a = 0;        ///< first body (index into Scenario::bodies), a < b
    int b = 0;        ///< second body
    Vec3 normal;      ///< unit normal from a to b
    double depth = 0; ///< overlap (m); 0 when they touch (a swept impact)
    Vec3 point;       ///< where they meet (m): a manifold point, midway between the surfaces
};

/// Receives every sampled frame, after collision handling, and (when it asks) every contact.
struct TraceSink {
    virtual ~TraceSink() = default;
    /// Frame `frame` at time `time` (s); bodies in Scenario::bodies order.
    virtual void frame(int frame, double time, std::span<const BodyState> bodies) = 0;
    /// True when contact() should be called (finding a contact's depth costs a query).
    virtual bool wants_contacts() const { return false; }
    /// A contact found while stepping (before its response), in the order the world finds them.
    virtual void contact(const TraceContact&) {}
};

/// Reusable state for simulate(): the engine and the probes. Not shared between threads.
class Workspace {
public:
    /// Frames the last call stepped: fewer than world.frames when it stopped early.
    int frames_stepped() const { return engine().frames_stepped(); }
    /// Runs the next calls through `engine` (engine/registry.h; "collide", the default, is
    /// collide's own world). Throws InputError when this program has no such engine.
    void use_engine(std::string_view engine);
    /// Steps collide's own world on `threads` threads (World::set_threads: the same bits for
    /// every count; other engines step on one).
    void set_threads(int threads) { own_.set_threads(threads); }
    /// The engine the next call runs.
    Engine& engine() { return other_ ? *other_ : static_cast<Engine&>(own_); }
    /// The engine the next call runs.
    const Engine& engine() const { return other_ ? *other_ : static_cast<const Engine&>(own_); }

private:
    friend void simulate(const Scenario&, std::span<double>, Workspace&, TraceSink*);
    CollideEngine own_;             ///< collide's world
    std::unique_ptr<Engine> other_; ///< another engine, when use_engine chose one
    FirstContactProbes contacts_;
    ApexProbes apexes_;
    AtRestProbes rests_;
    TriggerProbes triggers_;
    TunnelProbes tunnels_;
    EnergyProbes energies_;
    std::vector<Shape> targets_; ///< raycast targets, placed
};

/// Runs the scenario's world for world.frames frames and writes every log entry's fields into
/// `values` (size layout_of(scenario).fields.size(); entry i starts at the sum of field_count
/// of the entries before it). Deterministic: the same scenario gives bit-identical values.
/// `trace`, when given, receives every sampled frame (and every contact when it wants them).
void simulate(const Scenario& scenario, std::span<double> values, Workspace& workspace, TraceSink* trace = nullptr);

/// Convenience: simulate into a fresh vector sized by the layout (allocates).
std::vector<double> simulate(const Scenario& scenario);

} // namespace collide
