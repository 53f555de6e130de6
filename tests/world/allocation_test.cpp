// Stepping allocates nothing once warm: a world reset to the same scene and stepped again,
// broadphase and all, makes no heap allocation (every allocation in this program is counted).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "rain.h"
#include "scenario/load.h"
#include "world/world.h"

namespace {
std::atomic<long> g_allocations{0};
} // namespace

// The whole unaligned family is replaced (plain, array, nothrow), so that every allocation
// and its release go through malloc and free alike (AddressSanitizer checks they match).
namespace {
void* counted(std::size_t size) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
} // namespace

void* operator new(std::size_t size) {
    if (void* p = counted(size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    if (void* p = counted(size)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace collide;

namespace {

long allocations_while_stepping(World& w, const Scenario& s) {
    w.reset(s.world, s.bodies);
    const long before = g_allocations.load();
    while (w.frames_stepped() < s.world.frames) w.step_frame();
    return g_allocations.load() - before;
}

Scenario rain(int n, Detection detection) {
    const ScenarioTemplate t = parse_scenario_template(collide::bench::rain_yaml(n, 60), "rain.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, {}), ev, s);
    s.world.detection = detection;
    return s;
}

} // namespace

TEST_CASE("a warm world steps the rain without allocating, in every detection mode", "[world][rain]") {
    for (const Detection d : {Detection::discrete, Detection::swept, Detection::speculative}) {
        const Scenario s = rain(400, d);
        World w;
        CHECK(allocations_while_stepping(w, s) > 0); // cold: the broadphase's storage grows (the counter counts)
        CHECK(allocations_while_stepping(w, s) == 0);
    }
}
