// Updating the contacts at the end of a step: the broadphase's candidate pairs get their
// manifolds at the new poses, a pair comes into or stays in contact by the rules of
// world/contacts.h, and the impulses its points carried are matched to the new points.
#include <algorithm>
#include <iterator>

#include "world/contacts_update.h"

namespace collide {

void update_reach(WorldState& w, double h) {
    const double fall = 0.5 * length(w.def.gravity) * h * h;
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            const BodySim& s = w.sims[static_cast<std::size_t>(i)];
            const Body& b = w.bodies[static_cast<std::size_t>(i)];
            double r = 0;
            if (b.kind == BodyKind::dynamic && !b.asleep)
                r = length(s.velocity) * h + fall + (b.round ? 0.0 : length(s.angular_velocity) * b.radius * h);
            else if (b.kind == BodyKind::kinematic || b.kind == BodyKind::character)
                r = length(s.velocity) * h + length(s.angular_velocity) * b.radius * h;
            w.reach[static_cast<std::size_t>(i)] = r;
        }
    });
}

PairContact* find_contact(WorldState& w, int i, int j) {
    const PairKey key = pair_key(i, j);
    const auto at = std::lower_bound(w.contacts.pairs.begin(), w.contacts.pairs.end(), key,
                                     [](const PairContact& c, PairKey k) { return c.key() < k; });
    if (at != w.contacts.pairs.end() && at->key() == key) return &*at;
    return find_impact_pair(w, i, j);
}

PairContact* find_impact_pair(WorldState& w, int i, int j) {
    for (std::size_t k = w.impact_pairs.size(); k-- > 0;) // the latest, for a pair that met twice
        if (w.impact_pairs.pairs[k].i == i && w.impact_pairs.pairs[k].j == j) return &w.impact_pairs.pairs[k];
    return nullptr;
}

namespace {

/// `before`, pair (i, j)'s old contact in w.contacts (or null), or instead the contact it came
/// into at a time of impact this step when it had none or was cast (then `set` is set to
/// w.impact_pairs).
const PairContact* with_impact(WorldState& w, const PairContact* before, int i, int j, const ContactSet*& set) {
    // A pair that met at a time of impact this step (new, or cast from a contact with a gap):
    // that contact's impulses.
    if (!before || before->cast)
        if (const PairContact* c = find_impact_pair(w, i, j)) {
            set = &w.impact_pairs;
            return c;
        }
    return before;
}

/// Sets pair `pc`'s friction and restitution, its bodies' combined by the world's rules.
void combine_pair_coefficients(const WorldState& w, PairContact& pc) {
    const Body& a = w.bodies[static_cast<std::size_t>(pc.i)];
    const Body& b = w.bodies[static_cast<std::size_t>(pc.j)];
    pc.friction = combine_coefficients(w.def.friction_combine, a.friction, b.friction);
    pc.restitution = combine_coefficients(w.def.restitution_combine, a.restitution, b.restitution);
}

/// The margin within which candidate pair (i, j) is looked at by update_contacts(), or a
/// negative value when it cannot come into contact (the rules of world/contacts.h); `keeps` is
/// set when it may stay without an overlap. `before` is its contact before the update.
double update_margin(const StepContext& ctx, const WorldState& w, bool at_start, int i, int j,
                     const PairContact* before, bool& keeps) {
    const bool speculative = w.pair_is_speculative(i, j);
    keeps = before || speculative || at_start;
    // A new pair of discrete or swept detection needs an overlap.
    if (!keeps && !bounds_overlap(w.bounds(i), w.bounds(j))) return -1;
    // At the start, pairs within the skin start in contact (a crate set on a ramp), and a
    // speculative pair within its reach of the first step too (a bullet whose first step
    // would cross the wall).
    const double reach = w.reach[static_cast<std::size_t>(i)] + w.reach[static_cast<std::size_t>(j)];
    const double margin =
            at_start ? ctx.skin + kGroundGap + (speculative ? reach : 0.0) : ctx.skin + (keeps ? reach : 0.0);
    if (!bounds_near(w.bounds(i), w.bounds(j), margin)) return -1;
    return margin;
}

} // namespace

void update_contacts(const StepContext& ctx, WorldState& w, StepScratch& scratch, bool at_start) {
    const int n = w.body_count();
    // Which pairs can be in contact after the update (the rules below): a new pair of discrete
    // or swept detection needs its bounds to overlap, and a pair in contact stays while within
    // the skin plus the two bodies' reaches. So the broadphase files the bare bounds, and the
    // pairs in contact are added by their keys: falling bodies side by side are no candidates.
    // A speculative pair comes into contact within its reach, and at the start within the skin
    // or the reach: then every box is grown by its body's reach. Either way every pair the
    // rules can accept is a candidate (the grown boxes overlap whenever the bounds are within
    // the skin plus both reaches), in the same (i, j) order: the same contacts, bit for bit.
    const bool grow = at_start || w.any_speculative;
    w.threads.for_blocks(n, kBodiesPerBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const double r = grow ? w.reach[static_cast<std::size_t>(k)] : 0.0;
            const Aabb b = w.bounds(k);
            scratch.boxes[static_cast<std::size_t>(k)] = Aabb{b.min - Vec3{r, r, r}, b.max + Vec3{r, r, r}};
            scratch.active[static_cast<std::size_t>(k)] =
                    w.moves(k) ? 1 : 0; // awake, or a kinematic body or character moving
        }
    });
    w.broad.build(scratch.boxes, scratch.active, std::max(ctx.skin, 1e-7), kBroadFraction, w.threads);
    w.broad.pairs(scratch.keys, w.threads);
    const auto frozen = [&](const PairContact& c) {
        return !scratch.active[static_cast<std::size_t>(c.i)] && !scratch.active[static_cast<std::size_t>(c.j)];
    };
    if (!grow) {
        scratch.kept_keys.clear();
        for (const PairContact& c : w.contacts.pairs)
            if (!frozen(c)) scratch.kept_keys.push_back(c.key()); // sorted, as w.contacts is
        if (!w.impact_pairs.empty()) {
            for (const PairContact& c : w.impact_pairs.pairs) scratch.kept_keys.push_back(c.key());
            std::sort(scratch.kept_keys.begin(), scratch.kept_keys.end());
            // (a cast pair in contact that had its impact is in both, and a pair that met twice
            // in the step is twice among the impacts: one contact of each)
            scratch.kept_keys.erase(std::unique(scratch.kept_keys.begin(), scratch.kept_keys.end()),
                                    scratch.kept_keys.end());
        }
        scratch.merged_keys.clear();
        std::set_union(scratch.keys.begin(), scratch.keys.end(), scratch.kept_keys.begin(), scratch.kept_keys.end(),
                       std::back_inserter(scratch.merged_keys));
        scratch.keys.swap(scratch.merged_keys);
    }
    // On several threads (and with no mesh: one manifold a pair), the candidates' contacts are
    // found at once first, each into its own slot — its manifold, whether it stays, its old
    // contact — then a walk gives each its place and blocks write them (points, carried
    // impulses): the same pure functions of the same poses and old contacts as the one-thread
    // walk calls, so the same contacts, bit for bit. (Every
    // body's placed shape is cached first: w.placed() fills its cache on first use.)
    const bool tell = (w.wanted & kOnContact) && !at_start;
    const bool ahead = w.threads.threads() > 1 && !w.any_mesh && scratch.keys.size() >= 256;
    if (ahead) {
        w.threads.for_blocks(n, kBodiesPerBlock, [&](int begin, int end) {
            for (int k = begin; k < end; ++k) (void)w.placed(k);
        });
        scratch.found_ahead.clear(); // (sized for overwrite: each block writes its slots' kept first)
        resize_for_overwrite(scratch.found_ahead, scratch.keys.size());
        w.threads.for_blocks(static_cast<int>(scratch.keys.size()), 256, [&](int begin, int end) {
            Manifold found[1];
            // The old contacts from the block's first key on, walked beside its keys (both sorted).
            auto at = std::lower_bound(w.contacts.pairs.begin(), w.contacts.pairs.end(),
                                       scratch.keys[static_cast<std::size_t>(begin)],
                                       [](const PairContact& c, PairKey k) { return c.key() < k; });
            for (int e = begin; e < end; ++e) {
                const PairKey key = scratch.keys[static_cast<std::size_t>(e)];
                const int i = pair_first(key), j = pair_second(key);
                FoundAhead& slot = scratch.found_ahead[static_cast<std::size_t>(e)];
                slot.kept = false;
                while (at != w.contacts.pairs.end() && at->key() < key) ++at;
                if (!w.pair_can_touch(i, j)) continue;
                const PairContact* before = at != w.contacts.pairs.end() && at->key() == key ? &*at : nullptr;
                const ContactSet* before_set = &w.contacts;
                before = with_impact(w, before, i, j, before_set);
                bool keeps = false;
                const double margin = update_margin(ctx, w, at_start, i, j, before, keeps);
                if (margin < 0) continue;
                const ManifoldQuery q = manifolds(w.placed(i), w.placed(j), margin, found);
                if (q.status != ContactStatus::overlapping || q.count == 0) continue;
                // What ContactSet::add() makes of the one manifold.
                const Manifold& m = found[0];
                PairContact& pc = slot.pair;
                pc = PairContact{};
                pc.i = i;
                pc.j = j;
                pc.count = m.count > 0 ? 1 : 0;
                for (int p = 0; p < m.count; ++p) note_depth(pc, m.points[static_cast<std::size_t>(p)].depth);
                if (!keeps && !pc.overlapping) continue;
                slot.kept = true;
                combine_pair_coefficients(w, pc);
                slot.found = m;
                slot.before = before;
                slot.before_set = before_set;
            }
        });
    }
    // One walk over the candidates and the old contacts, both sorted by (i, j): a candidate is
    // found anew; an old contact of two bodies that do not move (asleep, static, still) stays
    // as it was.
    std::size_t old = 0;
    const auto keep_frozen_before = [&](PairKey key) {
        for (; old < w.contacts.size() && w.contacts.pairs[old].key() < key; ++old)
            if (frozen(w.contacts.pairs[old]))
                scratch.next_contacts.add_copy(w.contacts, w.contacts.pairs[old]).told = false;
    };
    // Observers hear of a pair that overlaps, or that has come to touch (an exact arrival at
    // the step's end too: a pair resting touching is not news every frame), once a frame:
    // not again when the solve told of its arrival or its impact.
    const auto tell_news = [&](const PairContact& pc, bool before_touching, bool before_told,
                               std::span<const Manifold> found) {
        const bool news = pc.overlapping || (pc.touching && !before_touching);
        if (tell && news && !before_told) tell_contact(w, pc.i, pc.j, w.frame_time, found);
    };
    if (ahead) {
        // Where every contact goes, in the walk's order (a kept candidate, or an old contact
        // that stays frozen), then each written into its place in blocks at once. The walk is
        // cut into blocks of candidates: a block takes its candidates and the old contacts the
        // walk places among them (an old one goes just before the first candidate after it),
        // counts what it places, then — after the blocks before it — places them.
        constexpr std::size_t kPlaceBlock = 1024;
        const std::size_t candidates = scratch.keys.size();
        const std::size_t blocks = (candidates - 1) / kPlaceBlock + 1; // (ahead: at least 256 candidates)
        // The old contacts of block b: from the first whose key is not below the last candidate
        // of block b − 1 (from the first, for block 0) to the first of block b + 1 (to the end).
        const auto first_old = [&](std::size_t b) -> std::size_t {
            if (b == 0) return 0;
            if (b == blocks) return w.contacts.size();
            const PairKey after = scratch.keys[b * kPlaceBlock - 1];
            return static_cast<std::size_t>(
                    std::lower_bound(w.contacts.pairs.begin(), w.contacts.pairs.end(), after,
                                     [](const PairContact& c, PairKey k) { return c.key() < k; }) -
                    w.contacts.pairs.begin());
        };
        scratch.place_blocks.resize(blocks + 1);
        // walk(b, place): block b's walk; counts only, or places too (from the counts before it).
        const auto walk = [&](std::size_t b, bool place) {
            PlaceCount at = place ? scratch.place_blocks[b] : PlaceCount{};
            std::size_t old = first_old(b);
            const std::size_t old_end = first_old(b + 1);
            const auto place_frozen_before = [&](PairKey key) {
                for (; old < old_end && w.contacts.pairs[old].key() < key; ++old) {
                    const PairContact& pc = w.contacts.pairs[old];
                    if (!frozen(pc)) continue;
                    if (place)
                        scratch.frozen_at[at.frozen] = {static_cast<int>(old), static_cast<int>(at.pairs),
                                                        static_cast<int>(at.manifolds), static_cast<int>(at.points)};
                    ++at.frozen;
                    ++at.pairs;
                    for (const PairManifold& m : w.contacts.manifolds_of(pc)) {
                        ++at.manifolds;
                        at.points += static_cast<std::size_t>(m.count);
                    }
                }
            };
            const std::size_t end = std::min(candidates, (b + 1) * kPlaceBlock);
            for (std::size_t e = b * kPlaceBlock; e < end; ++e) {
                place_frozen_before(scratch.keys[e]);
                FoundAhead& slot = scratch.found_ahead[e];
                if (!slot.kept) continue;
                if (place) {
                    slot.pair.first = static_cast<int>(at.manifolds);
                    slot.point = static_cast<int>(at.points);
                    slot.at = static_cast<int>(at.pairs);
                }
                ++at.pairs;
                if (slot.pair.count > 0) {
                    ++at.manifolds;
                    at.points += static_cast<std::size_t>(slot.found.count);
                }
            }
            place_frozen_before(~PairKey{0}); // (the rest of the block's old contacts)
            if (!place) scratch.place_blocks[b + 1] = at;
        };
        w.threads.for_blocks(static_cast<int>(blocks), 1, [&](int begin, int end) {
            for (int b = begin; b < end; ++b) walk(static_cast<std::size_t>(b), false);
        });
        scratch.place_blocks[0] = PlaceCount{};
        for (std::size_t b = 1; b <= blocks; ++b) { // (each block's counts, then its first places)
            PlaceCount& c = scratch.place_blocks[b];
            const PlaceCount& before = scratch.place_blocks[b - 1];
            c.pairs += before.pairs;
            c.manifolds += before.manifolds;
            c.points += before.points;
            c.frozen += before.frozen;
        }
        const PlaceCount total = scratch.place_blocks[blocks];
        scratch.frozen_at.resize(total.frozen);
        w.threads.for_blocks(static_cast<int>(blocks), 1, [&](int begin, int end) {
            for (int b = begin; b < end; ++b) walk(static_cast<std::size_t>(b), true);
        });
        const std::size_t pairs = total.pairs, manifolds = total.manifolds, points = total.points;
        scratch.next_contacts.clear(); // (sized for overwrite: every place is written whole below)
        resize_for_overwrite(scratch.next_contacts.pairs, pairs);
        resize_for_overwrite(scratch.next_contacts.manifolds, manifolds);
        resize_for_overwrite(scratch.next_contacts.points, points);
        w.threads.for_blocks(static_cast<int>(scratch.keys.size()), 1024, [&](int begin, int end) {
            for (int e = begin; e < end; ++e) {
                const FoundAhead& slot = scratch.found_ahead[static_cast<std::size_t>(e)];
                if (!slot.kept) continue;
                scratch.next_contacts.pairs[static_cast<std::size_t>(slot.at)] = slot.pair;
                if (slot.pair.count == 0) continue;
                const Manifold& m = slot.found;
                PairManifold& pm = scratch.next_contacts.manifolds[static_cast<std::size_t>(slot.pair.first)];
                pm.normal = m.normal;
                pm.key = m.key;
                pm.first = slot.point;
                pm.count = m.count;
                const std::span<ContactPoint> points_now = scratch.next_contacts.points_of(pm);
                for (int p = 0; p < m.count; ++p)
                    points_now[static_cast<std::size_t>(p)] =
                            ContactPoint{m.points[static_cast<std::size_t>(p)], 0, Vec3{}};
                if (slot.before)
                    for (const PairManifold& was : slot.before_set->manifolds_of(*slot.before))
                        if (was.key == pm.key) {
                            carry_point_impulses(slot.before_set->points_of(was), points_now, 1.0);
                            break;
                        }
            }
        });
        for (const FrozenPlace& f : scratch.frozen_at) {
            const PairContact& pc = w.contacts.pairs[static_cast<std::size_t>(f.old)];
            PairContact& to = scratch.next_contacts.pairs[static_cast<std::size_t>(f.pair)];
            to = pc;
            to.told = false;
            to.first = f.manifold;
            int point = f.point;
            for (int m = 0; m < pc.count; ++m) {
                const PairManifold& from = w.contacts.manifolds[static_cast<std::size_t>(pc.first + m)];
                PairManifold& pm = scratch.next_contacts.manifolds[static_cast<std::size_t>(f.manifold + m)];
                pm = from;
                pm.first = point;
                const std::span<const ContactPoint> p = w.contacts.points_of(from);
                std::copy(p.begin(), p.end(), scratch.next_contacts.points.begin() + point);
                point += from.count;
            }
        }
        if (tell)
            for (const FoundAhead& slot : scratch.found_ahead)
                if (slot.kept)
                    tell_news(scratch.next_contacts.pairs[static_cast<std::size_t>(slot.at)],
                              slot.before && slot.before->touching, slot.before && slot.before->told, {&slot.found, 1});
    } else {
        scratch.next_contacts.clear();
    }
    for (std::size_t e = 0; !ahead && e < scratch.keys.size(); ++e) {
        const PairKey key = scratch.keys[e];
        keep_frozen_before(key);
        const int i = pair_first(key), j = pair_second(key);
        if (!w.pair_can_touch(i, j)) continue;
        const PairContact* before = nullptr;
        const ContactSet* before_set = &w.contacts;
        if (old < w.contacts.size() && w.contacts.pairs[old].key() == key) before = &w.contacts.pairs[old];
        before = with_impact(w, before, i, j, before_set);
        bool keeps = false;
        const double margin = update_margin(ctx, w, at_start, i, j, before, keeps);
        if (margin < 0) continue;
        scratch.manifolds.resize(kMaxPairManifolds);
        const ManifoldQuery q = manifolds(w.placed(i), w.placed(j), margin, scratch.manifolds);
        if (q.status != ContactStatus::overlapping || q.count == 0) continue;
        const std::span<const Manifold> found{scratch.manifolds.data(), static_cast<std::size_t>(q.count)};
        PairContact& pc = scratch.next_contacts.add(i, j, found);
        if (!keeps && !pc.overlapping) {
            scratch.next_contacts.pop_back();
            continue;
        }
        combine_pair_coefficients(w, pc);
        if (before) carry_impulses(*before_set, *before, scratch.next_contacts, pc, 1.0);
        tell_news(pc, before && before->touching, before && before->told, found);
    }
    if (!ahead) keep_frozen_before(~PairKey{0});
    w.contacts.swap(scratch.next_contacts);
}

} // namespace collide
