// The batched turned-box overlap test: the same answer as overlap_box_box on every pair (random,
// touching, parallel-edged and edge-separated pairs), hand-solved answers for the cases that
// exercise each rule, and the packing and length rules of both entry points.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "baselines/overlap_box_box_batch.h"
#include "detection/contact.h"
#include "detection/random_shapes.h"
#include "detection/sat_box_box.h"

using namespace collide;
using namespace collide::baseline;
using collide::test::random_obb;
using collide::test::random_rotation;

namespace {

const double kS = 1.0 / std::sqrt(2.0);

/// A stick 4 m long along x with a 0.2 m square section turned 45° about x (a diamond in the
/// y–z plane reaching 0.1·√2 above and below its centre).
Obb stick_along_x() { return Obb{{0, 0, 0}, Mat3{{{1, 0, 0}, {0, kS, kS}, {0, -kS, kS}}}, {2, 0.1, 0.1}}; }

/// A stick 4 m long along z with the same section turned 45° about z, centred `height` above
/// the origin: crossed over stick_along_x, the two only come apart along y, the direction of
/// x × z, which is an edge × edge axis.
Obb stick_along_z(double height) {
    return Obb{{0, height, 0}, Mat3{{{kS, kS, 0}, {0, 0, 1}, {kS, -kS, 0}}}, {0.1, 2, 0.1}};
}

/// A cube of half-size 1 at `centre`, turned by `angle` (radians) about z.
Obb cube_turned_about_z(Vec3 centre, double angle) {
    const double c = std::cos(angle), s = std::sin(angle);
    return Obb{centre, Mat3{{{c, s, 0}, {-s, c, 0}, {0, 0, 1}}}, {1, 1, 1}};
}

/// Every kernel this processor can run, the baseline first.
std::vector<BatchSimd> runnable_kernels() {
    std::vector<BatchSimd> out{BatchSimd::baseline};
    if (batch_simd_supported() >= BatchSimd::avx2) out.push_back(BatchSimd::avx2);
    if (batch_simd_supported() >= BatchSimd::avx512) out.push_back(BatchSimd::avx512);
    return out;
}

/// The batch's answers, packed form, with the given kernel.
std::vector<std::uint8_t> batch_packed(const std::vector<Obb>& a, const std::vector<Obb>& b, BatchSimd simd) {
    ObbBatch pa, pb;
    pack_boxes(a, pa);
    pack_boxes(b, pb);
    std::vector<std::uint8_t> out(a.size(), 7);
    overlap_box_box_batch(pa, pb, out, simd);
    return out;
}

/// The batch's answers, packed form, with the kernel it picks itself.
std::vector<std::uint8_t> batch_packed(const std::vector<Obb>& a, const std::vector<Obb>& b) {
    ObbBatch pa, pb;
    pack_boxes(a, pa);
    pack_boxes(b, pb);
    std::vector<std::uint8_t> out(a.size(), 7);
    overlap_box_box_batch(pa, pb, out);
    return out;
}

/// The batch's answers, plain-box form.
std::vector<std::uint8_t> batch_plain(const std::vector<Obb>& a, const std::vector<Obb>& b) {
    std::vector<std::uint8_t> out(a.size(), 7);
    overlap_box_box_batch(a, b, out);
    return out;
}

/// Checks both batch forms, and every kernel this processor runs, against overlap_box_box pair
/// by pair; returns how many overlap.
std::size_t require_same_as_scalar(const std::vector<Obb>& a, const std::vector<Obb>& b) {
    std::vector<std::uint8_t> expected(a.size());
    std::size_t hits = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        expected[k] = overlap_box_box(a[k], b[k]) ? 1 : 0;
        hits += expected[k];
    }
    auto require_equal = [&](const std::vector<std::uint8_t>& got) {
        for (std::size_t k = 0; k < a.size(); ++k) {
            INFO("pair " << k);
            REQUIRE(got[k] == expected[k]);
        }
    };
    require_equal(batch_packed(a, b));
    require_equal(batch_plain(a, b));
    for (BatchSimd simd : runnable_kernels()) {
        INFO("kernel " << static_cast<int>(simd));
        require_equal(batch_packed(a, b, simd));
    }
    return hits;
}

/// One pair's batch answer (both forms and every kernel must agree), as a bool.
bool batch_one(const Obb& a, const Obb& b) {
    const std::vector<Obb> as{a}, bs{b};
    const std::uint8_t packed = batch_packed(as, bs)[0];
    REQUIRE(packed <= 1);
    REQUIRE(batch_plain(as, bs)[0] == packed);
    for (BatchSimd simd : runnable_kernels()) REQUIRE(batch_packed(as, bs, simd)[0] == packed);
    return packed == 1;
}

} // namespace

TEST_CASE("the batch answers exactly as overlap_box_box on 100003 random pairs") {
    // 100003 is not a multiple of the block size, so the last block is partial.
    std::mt19937_64 rng(20260726);
    std::vector<Obb> a, b;
    for (int k = 0; k < 100003; ++k) {
        a.push_back(random_obb(rng, 2.0));
        b.push_back(random_obb(rng, 2.0));
    }
    const std::size_t hits = require_same_as_scalar(a, b);
    // About half overlap at this spread: both answers are well exercised.
    CHECK(hits > 30000);
    CHECK(hits < 70000);
}

TEST_CASE("the batch answers exactly as overlap_box_box on pairs moved to within a few kTouchEpsilon of touching") {
    // Each random pair is slid along its SAT normal until it just touches on that axis, then
    // nudged by a few multiples of kTouchEpsilon either way: the touching rule decides these.
    std::mt19937_64 rng(99);
    const double nudges[] = {-3e-9, -1e-9, -5e-10, 0.0, 5e-10, 1e-9, 1.5e-9, 3e-9};
    std::vector<Obb> a, b;
    for (int k = 0; k < 20000; ++k) {
        const Obb pa = random_obb(rng, 2.0);
        const Obb pb = random_obb(rng, 2.0);
        const SatResult r = sat_box_box(pa, pb);
        const double to_touch = r.separated ? -r.gap : r.gap;
        for (double nudge : nudges) {
            Obb moved = pb;
            moved.centre = pb.centre + r.normal * (to_touch - nudge);
            a.push_back(pa);
            b.push_back(moved);
        }
    }
    const std::size_t hits = require_same_as_scalar(a, b);
    CHECK(hits > 0);
    CHECK(hits < a.size());
}

TEST_CASE("the batch answers exactly as overlap_box_box on pairs with parallel and nearly parallel edges") {
    // B shares A's w axis exactly (three edge pairs parallel), or is A turned by a tiny angle
    // about a random axis (every edge pair nearly parallel): the parallel-edge skip decides.
    std::mt19937_64 rng(4242);
    std::uniform_real_distribution<double> angle(0.0, 6.283185307179586), tiny(-1e-5, 1e-5);
    std::vector<Obb> a, b;
    for (int k = 0; k < 20000; ++k) {
        const Obb pa = random_obb(rng, 1.5);
        Obb pb = random_obb(rng, 1.5);
        const double t = k % 2 == 0 ? angle(rng) : tiny(rng);
        const double c = std::cos(t), s = std::sin(t);
        const Vec3 u = pa.axes.col[0], v = pa.axes.col[1];
        pb.axes = Mat3{{u * c + v * s, v * c - u * s, pa.axes.col[2]}};
        a.push_back(pa);
        b.push_back(pb);
        // The same pair with B's axes equal to A's (every edge pair exactly parallel).
        Obb same = pb;
        same.axes = pa.axes;
        a.push_back(pa);
        b.push_back(same);
        // And with a uniformly random B rotation for contrast.
        Obb turned = pb;
        turned.axes = random_rotation(rng);
        a.push_back(pa);
        b.push_back(turned);
    }
    const std::size_t hits = require_same_as_scalar(a, b);
    CHECK(hits > 0);
    CHECK(hits < a.size());
}

TEST_CASE("crossed sticks at a distance are apart only on an edge x edge axis, and the batch says so") {
    // Each diamond reaches 0.1·√2 from its stick's centre along y, so the sticks touch at a
    // height of 0.2·√2 ≈ 0.2828 m.
    const double contact_height = 0.2 * std::sqrt(2.0);
    const Obb a = stick_along_x();
    const SatResult apart = sat_box_box(a, stick_along_z(0.3));
    REQUIRE(apart.separated);
    REQUIRE(apart.axis.kind == SatAxis::Kind::edge_edge); // no face axis separates them
    CHECK_FALSE(batch_one(a, stick_along_z(0.3)));
    CHECK(batch_one(a, stick_along_z(0.25)));
    CHECK(batch_one(a, stick_along_z(contact_height - 1e-6)));
    // Overlapping by less than kTouchEpsilon along the edge axis counts as touching.
    CHECK_FALSE(batch_one(a, stick_along_z(contact_height - 0.5 * kTouchEpsilon)));
    CHECK_FALSE(batch_one(a, stick_along_z(contact_height)));
    CHECK_FALSE(batch_one(a, stick_along_z(-0.3)));
    CHECK(batch_one(a, stick_along_z(-0.25)));
}

TEST_CASE("face-to-face boxes within kTouchEpsilon are touching, not overlapping") {
    // Two unit cubes (half-size 1) side by side along x: centres 2 m apart touch exactly.
    const Obb a = cube_turned_about_z({0, 0, 0}, 0.0);
    CHECK_FALSE(batch_one(a, cube_turned_about_z({2.0, 0, 0}, 0.0)));
    CHECK_FALSE(batch_one(a, cube_turned_about_z({2.0 - 0.5 * kTouchEpsilon, 0, 0}, 0.0)));
    CHECK(batch_one(a, cube_turned_about_z({2.0 - 1e-6, 0, 0}, 0.0)));
    CHECK_FALSE(batch_one(a, cube_turned_about_z({2.1, 0.3, -0.2}, 0.0)));
    // Turned 45° about z, B's corner edge reaches √2 towards A: they touch at x = 1 + √2.
    const double corner = 1.0 + std::sqrt(2.0);
    CHECK(batch_one(a, cube_turned_about_z({corner - 1e-6, 0, 0}, 0.785398163397448)));
    CHECK_FALSE(batch_one(a, cube_turned_about_z({corner + 1e-6, 0, 0}, 0.785398163397448)));
}

TEST_CASE("boxes sharing an axis direction overlap: their parallel edge pairs give no axis") {
    // With both w axes along z, A_w × B_w is the zero vector; its scaled overlap is exactly 0,
    // which would read as "touching" if the pair were not skipped.
    const Obb a = cube_turned_about_z({0, 0, 0}, 0.0);
    CHECK(batch_one(a, cube_turned_about_z({0.5, 0.5, 0}, 0.5)));
    CHECK(batch_one(a, cube_turned_about_z({0, 0, 0}, 0.0)));      // identical boxes: all 9 parallel
    CHECK(batch_one(a, cube_turned_about_z({1.5, 0, 1.9}, 1e-7))); // nearly parallel everywhere
    CHECK_FALSE(batch_one(a, cube_turned_about_z({2.5, 0, 0}, 1e-7)));
    CHECK_FALSE(batch_one(a, cube_turned_about_z({0, 0, 2.5}, 0.5)));
}

TEST_CASE("the batch processes only the shortest of its three lengths") {
    std::mt19937_64 rng(7);
    std::vector<Obb> a, b;
    for (int k = 0; k < 21; ++k) {
        a.push_back(random_obb(rng, 1.0));
        b.push_back(random_obb(rng, 1.0));
    }
    b.pop_back(); // 20 pairs
    std::vector<std::uint8_t> plain(30, 7);
    overlap_box_box_batch(std::span<const Obb>(a), std::span<const Obb>(b), std::span<std::uint8_t>(plain));
    ObbBatch pa, pb;
    pack_boxes(a, pa);
    pack_boxes(b, pb);
    std::vector<std::uint8_t> packed(30, 7);
    overlap_box_box_batch(pa, pb, std::span<std::uint8_t>(packed).first(13)); // out is the shortest
    for (std::size_t k = 0; k < 30; ++k) {
        const int expected = k < 20 ? (overlap_box_box(a[k], b[k]) ? 1 : 0) : 7;
        CHECK(plain[k] == expected);
        CHECK(packed[k] == (k < 13 ? expected : 7));
    }
}

TEST_CASE("packing puts box k in lane k mod 8 of block k / 8 and reuses the batch") {
    std::vector<Obb> boxes;
    for (int k = 0; k < 11; ++k) {
        const double x = k;
        boxes.push_back(Obb{{x, x + 0.25, x + 0.5}, identity3(), {0.1 * x, 0.2 * x, 0.3 * x}});
    }
    ObbBatch batch;
    pack_boxes(boxes, batch);
    REQUIRE(batch.count == 11);
    REQUIRE(batch.blocks.size() == 2);
    CHECK(batch.blocks[1].cx[2] == 10.0);
    CHECK(batch.blocks[1].cy[2] == 10.25);
    CHECK(batch.blocks[1].cz[2] == 10.5);
    CHECK(batch.blocks[0].hz[3] == 0.3 * 3.0);
    CHECK(batch.blocks[0].ux[5] == 1.0);
    CHECK(batch.blocks[0].vy[5] == 1.0);
    CHECK(batch.blocks[0].wz[5] == 1.0);
    CHECK(batch.blocks[0].uy[5] == 0.0);
    // Packing fewer boxes into the same batch shrinks it.
    pack_boxes(std::span<const Obb>(boxes).first(3), batch);
    CHECK(batch.count == 3);
    CHECK(batch.blocks.size() == 1);
    pack_boxes({}, batch);
    CHECK(batch.count == 0);
    CHECK(batch.blocks.empty());
}

TEST_CASE("an empty batch writes nothing") {
    ObbBatch empty;
    std::vector<std::uint8_t> out(4, 7);
    overlap_box_box_batch(empty, empty, out);
    overlap_box_box_batch(std::span<const Obb>{}, std::span<const Obb>{}, out);
    CHECK(out == std::vector<std::uint8_t>(4, 7));
}

TEST_CASE("a kernel above the processor's is lowered to the best it runs") {
    std::mt19937_64 rng(11);
    std::vector<Obb> a, b;
    for (int k = 0; k < 64; ++k) {
        a.push_back(random_obb(rng, 1.0));
        b.push_back(random_obb(rng, 1.0));
    }
    // Asking for AVX-512 never fails: on a processor without it a lower kernel answers.
    const std::vector<std::uint8_t> best = batch_packed(a, b, BatchSimd::avx512);
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(best[k] == (overlap_box_box(a[k], b[k]) ? 1 : 0));
}
