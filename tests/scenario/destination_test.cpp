// Typed destinations of a template's Ops (scenario/destination.h): every field a param can
// write lands where the same number written as a constant lands, and a Dest reaches its field
// in any copy of a scenario.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "scenario/destination.h"
#include "scenario/load.h"

using namespace collide;

namespace {

/// A scenario that writes every number a param may write. `@K` is a real number (K + 0.25 as a
/// constant, `$a + K` with a = 0.25), `#K` a whole one (K + 1 as a constant, `$n + K` with n = 1).
constexpr const char* kEveryField = R"(
decimals: '#2'
tolerance: { absolute: '@0', relative: '@1' }
world: { rate: '@60', duration: '@2', gravity: ['@1', '@-9', '@3'], phase: '@0', skin: '@0',
         rest_speed: '@1', rest_time: '@2', character_iterations: '#3' }
bodies:
  s:  { sphere: { radius: '@1', centre: ['@1', '@2', '@3'] }, position: ['@4', '@5', '@6'],
        velocity: ['@7', '@8', '@9'], restitution: '@0', friction: '@0', mass: '@2', slope_limit: '@40',
        rotation: { quaternion: ['@1', '@2', '@3', '@4'] } }
  mm: { box: { min: ['@-1', '@-2', '@-3'], max: ['@1', '@2', '@3'] }, rotation: { euler: ['@10', '@20', '@30'] } }
  ch: { box: { centre: ['@1', '@2', '@3'], half: ['@1', '@2', '@3'] } }
  ob: { box: { centre: ['@4', '@5', '@6'], half: ['@1', '@2', '@3'],
               rotation: { axis: ['@1', '@2', '@3'], degrees: '@30' } } }
  c:  { capsule: { a: ['@1', '@2', '@3'], b: ['@4', '@5', '@6'], radius: '@1' } }
  t:  { triangle: { a: ['@1', '@2', '@3'], b: ['@4', '@5', '@6'], c: ['@7', '@8', '@10'] } }
  h:  { hull: { points: [['@1', '@2', '@3'], ['@4', '@5', '@6'], ['@7', '@8', '@10']] } }
  p:  { plane: { normal: ['@1', '@2', '@3'], offset: '@4' }, static: true }
log:
  - apex: { body: s, drop_height: '@3' }
  - push_out: { a: s, b: c, from: ['@1', '@2', '@3'], skin: '@0' }
  - push_out: { a: s, b: c }
  - split: { velocity: ['@1', '@2', '@3'], normal: ['@4', '@5', '@6'] }
  - respond: { velocity: ['@1', '@2', '@3'], surface_degrees: '@30', restitution: '@0', friction: '@0' }
  - slope: { normal: ['@1', '@2', '@3'], limit: '@40' }
  - raycast: { from: ['@1', '@2', '@3'], direction: ['@4', '@5', '@6'], targets: [s], max_distance: '@9' }
  - { final: { body: s }, decimals: '#4' }
expect:
  - { value: final.x, equals: '@1', tolerance: '@0' }
)";

/// kEveryField with each `@K` and `#K` written as a constant or as an expression of params.
std::string every_field(bool with_params) {
    std::string text = kEveryField;
    std::string out = with_params ? "params: { a: 0, n: 0 }\n" : "";
    const std::regex marker(R"(([@#])(-?[0-9]+))");
    std::size_t last = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), marker); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        out += text.substr(last, static_cast<std::size_t>(m.position(0)) - last);
        const int k = std::stoi(m[2].str());
        const bool real = m[1].str() == "@";
        if (with_params)
            out += std::string(real ? "$a + " : "$n + ") + "(" + std::to_string(k) + ")";
        else
            out += real ? std::to_string(k + 0.25) : std::to_string(k + 1);
        last = static_cast<std::size_t>(m.position(0) + m.length(0));
    }
    return out + text.substr(last);
}

void add(std::vector<double>& out, const Vec3& v) { out.insert(out.end(), {v.x, v.y, v.z}); }

/// Every number of a scenario that a param may write, in a fixed order.
std::vector<double> numbers_of(const Scenario& s) {
    std::vector<double> out{double(s.decimals), s.tolerance_abs, s.tolerance_rel};
    const WorldDef& w = s.world;
    out.insert(out.end(),
               {w.dt, double(w.frames), w.phase, w.skin, w.rest_speed, w.rest_time, double(w.character_iterations)});
    add(out, w.gravity);
    for (const BodyDef& b : s.bodies) {
        add(out, b.position);
        add(out, b.velocity);
        out.insert(out.end(), {b.rotation.w, b.rotation.x, b.rotation.y, b.rotation.z, b.restitution, b.friction,
                               b.mass, b.slope_limit});
        std::visit(
                [&](const auto& shape) {
                    using S = std::decay_t<decltype(shape)>;
                    if constexpr (std::is_same_v<S, Sphere>) {
                        add(out, shape.centre);
                        out.push_back(shape.radius);
                    } else if constexpr (std::is_same_v<S, Aabb>) {
                        add(out, shape.min);
                        add(out, shape.max);
                    } else if constexpr (std::is_same_v<S, Obb>) {
                        add(out, shape.centre);
                        add(out, shape.half);
                        for (const Vec3& col : shape.axes.col) add(out, col);
                    } else if constexpr (std::is_same_v<S, Capsule>) {
                        add(out, shape.a);
                        add(out, shape.b);
                        out.push_back(shape.radius);
                    } else if constexpr (std::is_same_v<S, Triangle>) {
                        add(out, shape.a);
                        add(out, shape.b);
                        add(out, shape.c);
                    } else if constexpr (std::is_same_v<S, Hull>) {
                        for (int i = 0; i < shape.count(); ++i) add(out, shape.point(i));
                    } else if constexpr (std::is_same_v<S, Plane>) {
                        add(out, shape.normal);
                        out.push_back(shape.offset);
                    } else { // a mesh: its placement (its triangles are shared, never written by params)
                        add(out, shape.position);
                        for (const Vec3& col : shape.rotation.col) add(out, col);
                    }
                },
                b.shape);
    }
    for (const LogDef& d : s.log) {
        out.push_back(d.decimals);
        std::visit(
                [&](const auto& r) {
                    using R = std::decay_t<decltype(r)>;
                    if constexpr (std::is_same_v<R, ApexLog>) out.push_back(r.drop_height);
                    if constexpr (std::is_same_v<R, PushOutLog>) {
                        add(out, r.from);
                        out.push_back(r.skin);
                    }
                    if constexpr (std::is_same_v<R, SplitLog>) {
                        add(out, r.velocity);
                        add(out, r.normal);
                    }
                    if constexpr (std::is_same_v<R, RespondLog>) {
                        add(out, r.velocity);
                        add(out, r.normal);
                        out.insert(out.end(), {r.restitution, r.friction});
                    }
                    if constexpr (std::is_same_v<R, SlopeLog>) {
                        add(out, r.normal);
                        out.push_back(r.limit);
                    }
                    if constexpr (std::is_same_v<R, RaycastLog>) {
                        add(out, r.origin);
                        add(out, r.direction);
                        out.push_back(r.max_distance);
                    }
                },
                d.request);
    }
    for (const ExpectDef& x : s.expect) out.insert(out.end(), {x.number, x.tolerance});
    return out;
}

} // namespace

TEST_CASE("every number written with params lands in the field its constant would", "[scenario][destination]") {
    const ScenarioTemplate constant = parse_scenario_template(every_field(false), "constant.yaml");
    const ScenarioTemplate with_params = parse_scenario_template(every_field(true), "params.yaml");
    REQUIRE_FALSE(constant.depends_on(0));
    REQUIRE(with_params.depends_on(0));
    REQUIRE(with_params.depends_on(1));

    auto ev = constant.make_evaluator();
    Scenario expected;
    constant.instantiate({}, ev, expected);

    auto pev = with_params.make_evaluator();
    Scenario got;
    const double values[] = {0.25, 1};
    with_params.instantiate(values, pev, got);

    const std::vector<double> want = numbers_of(expected);
    const std::vector<double> have = numbers_of(got);
    REQUIRE(have.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("number " << i);
        CHECK(have[i] == Approx(want[i]).margin(1e-12));
    }
    // The defaults (a = 0, n = 0) are a different scenario: the fields did move.
    CHECK(numbers_of(with_params.base()) != want);
}

TEST_CASE("a Dest reaches its field in any copy of a scenario", "[scenario][destination]") {
    Scenario s;
    s.bodies.resize(2);
    s.bodies[1].shape = Hull{};
    s.log.resize(1);
    s.log[0].request = PushOutLog{};
    s.expect.resize(1);

    detail::field<double>(s, {&WorldDef::gravity, 0, 1}) = -9.81;
    detail::field<double>(s, {&BodyDef::mass, 1}) = 3;
    detail::field<double>(s, {detail::HullPoint{}, 1, 3 * 2 + 2}) = 7;
    detail::field<Vec3>(s, {&PushOutLog::from, 0}) = {1, 2, 3};
    detail::field<int>(s, {&LogDef::decimals, 0}) = 5;
    detail::field<double>(s, {&ExpectDef::tolerance, 0}) = 0.5;
    CHECK(s.world.gravity.y == -9.81);
    CHECK(s.bodies[1].mass == 3);
    CHECK(std::get<Hull>(s.bodies[1].shape).data == s.bodies[1].hull_data.get());
    CHECK(s.bodies[1].hull_data->points[2].z == 7);
    // A copy shares the points until one of them is written: then it has its own.
    Scenario copy = s;
    CHECK(std::get<Hull>(copy.bodies[1].shape).data == s.bodies[1].hull_data.get());
    detail::field<double>(copy, {detail::HullPoint{}, 1, 3 * 2 + 2}) = 8;
    CHECK(copy.bodies[1].hull_data->points[2].z == 8);
    CHECK(std::get<Hull>(copy.bodies[1].shape).data == copy.bodies[1].hull_data.get());
    CHECK(s.bodies[1].hull_data->points[2].z == 7);
    CHECK(std::get<Hull>(s.bodies[1].shape).data == s.bodies[1].hull_data.get());
    CHECK(std::get<PushOutLog>(s.log[0].request).from.z == 3);
    CHECK(s.log[0].decimals == 5);
    CHECK(s.expect[0].tolerance == 0.5);

    CHECK(detail::is_field_of_type<int>({&LogDef::decimals, 0}));
    CHECK(detail::is_field_of_type<double>({&WorldDef::gravity, 0, 2}));
    CHECK_FALSE(detail::is_field_of_type<double>({&WorldDef::gravity}));
    CHECK(detail::is_field_of_type<Vec3>({&WorldDef::gravity}));
    CHECK_THROWS_AS(detail::field<int>(s, {&BodyDef::mass, 0}), std::logic_error);
}
