#include "probes/simulate.h"

#include <limits>

#include <algorithm>

#include "detection/dispatch.h"
#include "engine/registry.h"
#include "math/overloaded.h"
#include "probes/at_end.h"
#include "probes/at_start.h"

namespace collide {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Hands every sampled frame (and contact) to a TraceSink.
class TraceObserver final : public EngineObserver {
public:
    explicit TraceObserver(TraceSink* sink) : sink_(sink) {}
    void on_frame(const EngineView& world, int frame, double time) override {
        sink_->frame(frame, time, world.states());
    }
    void on_contact(const EngineView& world, const ContactEvent& e) override {
        // One row per manifold point: where it is, the normal from a to b, its depth (0 for a
        // swept impact or a speculative arrival: they touch).
        TraceContact c;
        c.frame = world.frame();
        c.time = e.time;
        c.a = e.a;
        c.b = e.b;
        for (const Manifold& m : e.manifolds) {
            c.normal = m.normal;
            for (int k = 0; k < m.count; ++k) {
                c.point = m.points[static_cast<std::size_t>(k)].point;
                c.depth = std::max(0.0, m.points[static_cast<std::size_t>(k)].depth);
                sink_->contact(c);
            }
        }
    }

private:
    TraceSink* sink_;
};

} // namespace

void Workspace::use_engine(std::string_view engine) {
    if (engine == own_.name()) {
        other_.reset();
        return;
    }
    if (other_ && other_->name() == engine) return;
    other_ = require_engine(engine).make();
}

void simulate(const Scenario& scenario, std::span<double> values, Workspace& ws, TraceSink* trace) {
    std::fill(values.begin(), values.end(), kNaN);
    Engine& world = ws.engine();
    world.reset(scenario.world, scenario.bodies);
    ws.contacts_.clear();
    ws.apexes_.clear();
    ws.rests_.clear();
    ws.triggers_.clear();
    ws.tunnels_.clear();
    ws.energies_.clear();
    const int n = static_cast<int>(scenario.bodies.size());
    const auto valid = [n](int index) { return index >= 0 && index < n; };
    const auto restitution = [&](int index) { return scenario.bodies[static_cast<std::size_t>(index)].restitution; };

    bool whole_run = false; // some entry needs every frame (apex, final, at_rest, max_overlap)
    std::size_t offset = 0;
    for (const LogDef& def : scenario.log) {
        const auto count = static_cast<std::size_t>(field_count(def.request));
        const std::span<double> out = values.subspan(offset, count);
        offset += count;
        std::visit(Overloaded{
                           [&](const ApexLog& r) {
                               whole_run = true;
                               if (!valid(r.body) || r.bounces < 0) return;
                               ws.apexes_.watch(r, world, restitution(r.body),
                                                valid(r.floor) ? restitution(r.floor) : 0.0, out);
                           },
                           [&](const FirstContactLog& r) {
                               if (valid(r.body) && valid(r.with) && r.body != r.with)
                                   ws.contacts_.watch(r.body, r.with, out);
                               else
                                   out[FirstContactLog::hit] = 0;
                           },
                           [&](const AtRestLog& r) {
                               whole_run = true;
                               if (valid(r.body)) ws.rests_.watch(r.body, out);
                           },
                           [&](const TriggerLog& r) {
                               whole_run = true;
                               if (!valid(r.body) || !valid(r.volume) || r.body == r.volume) return;
                               const auto swept = [&](int index) {
                                   return scenario.world.detection == Detection::swept ||
                                          scenario.bodies[static_cast<std::size_t>(index)].ccd;
                               };
                               // Exact times need the engine's exact pieces of motion; else sampled frames.
                               ws.triggers_.watch(world, r.body, r.volume,
                                                  world.exact_moves() && (swept(r.body) || swept(r.volume)), out);
                           },
                           [&](const TunnelLog& r) {
                               whole_run = true;
                               if (valid(r.body) && valid(r.wall) && r.body != r.wall)
                                   ws.tunnels_.watch(world, r.body, r.wall, out);
                           },
                           [&](const EnergyLog&) {
                               whole_run = true;
                               ws.energies_.watch(scenario.bodies, world, out);
                           },
                           [&](const FinalLog&) { whole_run = true; },
                           [&](const CharacterLog&) { whole_run = true; },
                           [&](const MaxOverlapLog&) { whole_run = true; },
                           [&](const AxisOverlapsLog& r) {
                               if (valid(r.a) && valid(r.b))
                                   measure_axis_overlaps(world.bounds(r.a), world.bounds(r.b), out);
                           },
                           [&](const ContactLog& r) {
                               if (valid(r.a) && valid(r.b)) measure_contact(world.placed(r.a), world.placed(r.b), out);
                           },
                           [&](const PushOutLog& r) {
                               if (valid(r.a) && valid(r.b))
                                   measure_push_out(world.placed(r.a), world.placed(r.b),
                                                    r.has_from ? r.from : world.state(r.b).position, r.skin, out);
                           },
                           [&](const SplitLog& r) { measure_split(r.velocity, r.normal, out); },
                           [&](const RespondLog& r) {
                               measure_respond(r.velocity, r.normal, r.restitution, r.friction, out);
                           },
                           [&](const SlopeLog& r) { measure_slope(r.normal, r.limit, world.up(), out); },
                           [&](const SeparatingAxisLog& r) {
                               if (valid(r.a) && valid(r.b))
                                   measure_separating_axis(world.placed(r.a), world.placed(r.b), out);
                           },
                           [&](const RaycastLog& r) {
                               ws.targets_.clear();
                               for (const BodyIndex t : r.targets) {
                                   if (!valid(t)) return;
                                   ws.targets_.push_back(world.placed(t));
                               }
                               measure_raycast(r.origin, r.direction, r.max_distance, ws.targets_, r.targets, out);
                           },
                   },
                   def.request);
    }

    TraceObserver tracer(trace);
    if (!ws.contacts_.empty()) world.add_observer(ws.contacts_, kOnContact);
    if (!ws.apexes_.empty()) world.add_observer(ws.apexes_, kOnMove | kOnResponse);
    if (!ws.rests_.empty()) world.add_observer(ws.rests_, kOnFrame);
    if (!ws.triggers_.empty()) world.add_observer(ws.triggers_, ws.triggers_.events());
    if (!ws.tunnels_.empty()) world.add_observer(ws.tunnels_, kOnFrame);
    if (!ws.energies_.empty()) world.add_observer(ws.energies_, kOnFrame);
    if (trace) world.add_observer(tracer, trace->wants_contacts() ? kOnFrame | kOnContact : kOnFrame);

    if (!trace && !whole_run && ws.contacts_.open() == 0) return; // nothing needs stepping
    const int frames = scenario.world.frames;
    while (world.frames_stepped() < frames) {
        world.step_frame();
        if (trace || whole_run) continue;
        if (ws.contacts_.open() == 0 || world.no_pair_can_meet()) break;
    }

    ws.apexes_.finish();
    ws.rests_.finish(world);
    ws.tunnels_.finish(world);
    ws.energies_.finish(world);
    offset = 0;
    for (const LogDef& def : scenario.log) {
        const auto count = static_cast<std::size_t>(field_count(def.request));
        const std::span<double> out = values.subspan(offset, count);
        offset += count;
        if (const auto* f = std::get_if<FinalLog>(&def.request)) {
            if (valid(f->body)) measure_final(world, f->body, out);
        } else if (const auto* c = std::get_if<CharacterLog>(&def.request)) {
            if (valid(c->body)) measure_character(world, c->body, out);
        } else if (std::holds_alternative<MaxOverlapLog>(def.request)) {
            measure_max_overlap(world, out);
        }
    }
}

std::vector<double> simulate(const Scenario& scenario) {
    std::vector<double> values(static_cast<std::size_t>(layout_of(scenario).offset.back()));
    Workspace workspace;
    simulate(scenario, values, workspace);
    return values;
}

} // namespace collide
