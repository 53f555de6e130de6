// Updating the contacts at the end of a step: the broadphase's candidate pairs get their
// manifolds at the new poses, a pair comes into or stays in contact by the rules of
// world/contacts.h, and the impulses its points carried are matched to the new points.
#include <algorithm>
#include <iterator>

#include "world/world.h"

namespace collide {

void World::update_reach(double h) {
    const double fall = 0.5 * length(def_.gravity) * h * h;
    for (int i = 0; i < body_count(); ++i) {
        const BodySim& s = sims_[static_cast<std::size_t>(i)];
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        double r = 0;
        if (b.kind == BodyKind::dynamic && !b.asleep)
            r = length(s.velocity) * h + fall + (b.round ? 0.0 : length(s.angular_velocity) * b.radius * h);
        else if (b.kind == BodyKind::kinematic || b.kind == BodyKind::character)
            r = length(s.velocity) * h + length(s.angular_velocity) * b.radius * h;
        reach_[static_cast<std::size_t>(i)] = r;
    }
}

PairContact* World::find_contact(int i, int j) {
    const PairKey key = pair_key(i, j);
    const auto at = std::lower_bound(contacts_.pairs.begin(), contacts_.pairs.end(), key,
                                     [](const PairContact& c, PairKey k) { return c.key() < k; });
    if (at != contacts_.pairs.end() && at->key() == key) return &*at;
    return find_impact_pair(i, j);
}

PairContact* World::find_impact_pair(int i, int j) {
    for (std::size_t k = impact_pairs_.size(); k-- > 0;) // the latest, for a pair that met twice
        if (impact_pairs_.pairs[k].i == i && impact_pairs_.pairs[k].j == j) return &impact_pairs_.pairs[k];
    return nullptr;
}

const PairContact* World::with_impact(const PairContact* before, int i, int j, const ContactSet*& set) {
    // A pair that met at a time of impact this step (new, or cast from a contact with a gap):
    // that contact's impulses.
    if (!before || before->cast)
        if (const PairContact* c = find_impact_pair(i, j)) {
            set = &impact_pairs_;
            return c;
        }
    return before;
}

void World::combine_pair_coefficients(PairContact& pc) const {
    const Body& a = bodies_[static_cast<std::size_t>(pc.i)];
    const Body& b = bodies_[static_cast<std::size_t>(pc.j)];
    pc.friction = combine_coefficients(def_.friction_combine, a.friction, b.friction);
    pc.restitution = combine_coefficients(def_.restitution_combine, a.restitution, b.restitution);
}

double World::update_margin(const StepContext& ctx, bool at_start, int i, int j, const PairContact* before,
                            bool& keeps) const {
    const bool speculative = pair_is_speculative(i, j);
    keeps = before || speculative || at_start;
    // A new pair of discrete or swept detection needs an overlap.
    if (!keeps && !bounds_overlap(bounds(i), bounds(j))) return -1;
    // At the start, pairs within the skin start in contact (a crate set on a ramp), and a
    // speculative pair within its reach of the first step too (a bullet whose first step
    // would cross the wall).
    const double reach = reach_[static_cast<std::size_t>(i)] + reach_[static_cast<std::size_t>(j)];
    const double margin =
            at_start ? ctx.skin + kGroundGap + (speculative ? reach : 0.0) : ctx.skin + (keeps ? reach : 0.0);
    if (!bounds_near(bounds(i), bounds(j), margin)) return -1;
    return margin;
}

void World::update_contacts(const StepContext& ctx, bool at_start) {
    const int n = body_count();
    // Which pairs can be in contact after the update (the rules below): a new pair of discrete
    // or swept detection needs its bounds to overlap, and a pair in contact stays while within
    // the skin plus the two bodies' reaches. So the broadphase files the bare bounds, and the
    // pairs in contact are added by their keys: falling bodies side by side are no candidates.
    // A speculative pair comes into contact within its reach, and at the start within the skin
    // or the reach: then every box is grown by its body's reach. Either way every pair the
    // rules can accept is a candidate (the grown boxes overlap whenever the bounds are within
    // the skin plus both reaches), in the same (i, j) order: the same contacts, bit for bit.
    const bool grow = at_start || any_speculative_;
    for (int k = 0; k < n; ++k) {
        const double r = grow ? reach_[static_cast<std::size_t>(k)] : 0.0;
        const Aabb b = bounds(k);
        boxes_[static_cast<std::size_t>(k)] = Aabb{b.min - Vec3{r, r, r}, b.max + Vec3{r, r, r}};
        active_[static_cast<std::size_t>(k)] = moves(k) ? 1 : 0; // awake, or a kinematic body or character moving
    }
    broad_.build(boxes_, active_, std::max(ctx.skin, 1e-7), kBroadFraction);
    broad_.pairs(keys_, threads_);
    const auto frozen = [&](const PairContact& c) {
        return !active_[static_cast<std::size_t>(c.i)] && !active_[static_cast<std::size_t>(c.j)];
    };
    if (!grow) {
        kept_keys_.clear();
        for (const PairContact& c : contacts_.pairs)
            if (!frozen(c)) kept_keys_.push_back(c.key()); // sorted, as contacts_ is
        if (!impact_pairs_.empty()) {
            for (const PairContact& c : impact_pairs_.pairs) kept_keys_.push_back(c.key());
            std::sort(kept_keys_.begin(), kept_keys_.end());
            // (a cast pair in contact that had its impact is in both, and a pair that met twice
            // in the step is twice among the impacts: one contact of each)
            kept_keys_.erase(std::unique(kept_keys_.begin(), kept_keys_.end()), kept_keys_.end());
        }
        merged_keys_.clear();
        std::set_union(keys_.begin(), keys_.end(), kept_keys_.begin(), kept_keys_.end(),
                       std::back_inserter(merged_keys_));
        keys_.swap(merged_keys_);
    }
    // On several threads (and with no mesh: one manifold a pair), the candidates' contacts are
    // found at once first, each into its own slot — its manifold, whether it stays, its old
    // contact — then a walk gives each its place and blocks write them (points, carried
    // impulses): the same pure functions of the same poses and old contacts as the one-thread
    // walk calls, so the same contacts, bit for bit. (Every
    // body's placed shape is cached first: placed() fills its cache on first use.)
    const bool tell = (wanted_ & kOnContact) && !at_start;
    const bool ahead = threads_.threads() > 1 && !any_mesh_ && keys_.size() >= 256;
    if (ahead) {
        threads_.for_blocks(n, kBodiesPerBlock, [&](int begin, int end) {
            for (int k = begin; k < end; ++k) (void)placed(k);
        });
        found_ahead_.resize(keys_.size());
        threads_.for_blocks(static_cast<int>(keys_.size()), 256, [&](int begin, int end) {
            Manifold found[1];
            for (int e = begin; e < end; ++e) {
                const PairKey key = keys_[static_cast<std::size_t>(e)];
                const int i = pair_first(key), j = pair_second(key);
                FoundAhead& slot = found_ahead_[static_cast<std::size_t>(e)];
                slot.kept = false;
                if (!pair_can_touch(i, j)) continue;
                const auto at = std::lower_bound(contacts_.pairs.begin(), contacts_.pairs.end(), key,
                                                 [](const PairContact& c, PairKey k) { return c.key() < k; });
                const PairContact* before = at != contacts_.pairs.end() && at->key() == key ? &*at : nullptr;
                const ContactSet* before_set = &contacts_;
                before = with_impact(before, i, j, before_set);
                bool keeps = false;
                const double margin = update_margin(ctx, at_start, i, j, before, keeps);
                if (margin < 0) continue;
                const ManifoldQuery q = manifolds(placed(i), placed(j), margin, found);
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
                combine_pair_coefficients(pc);
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
        for (; old < contacts_.size() && contacts_.pairs[old].key() < key; ++old)
            if (frozen(contacts_.pairs[old])) next_contacts_.add_copy(contacts_, contacts_.pairs[old]).told = false;
    };
    // Observers hear of a pair that overlaps, or that has come to touch (an exact arrival at
    // the step's end too: a pair resting touching is not news every frame), once a frame:
    // not again when the solve told of its arrival or its impact.
    const auto tell_news = [&](const PairContact& pc, bool before_touching, bool before_told,
                               std::span<const Manifold> found) {
        const bool news = pc.overlapping || (pc.touching && !before_touching);
        if (tell && news && !before_told) tell_contact(pc.i, pc.j, frame_time_, found);
    };
    if (ahead) {
        // Where every contact goes, in the walk's order (a kept candidate, or an old contact
        // that stays frozen), then each written into its place in blocks at once. (The set is
        // sized, not cleared: every place is written whole.)
        std::size_t pairs = 0, manifolds = 0, points = 0;
        frozen_at_.clear();
        const auto place_frozen_before = [&](PairKey key) {
            for (; old < contacts_.size() && contacts_.pairs[old].key() < key; ++old) {
                const PairContact& pc = contacts_.pairs[old];
                if (!frozen(pc)) continue;
                frozen_at_.push_back({static_cast<int>(old), static_cast<int>(pairs), static_cast<int>(manifolds),
                                      static_cast<int>(points)});
                ++pairs;
                for (const PairManifold& m : contacts_.manifolds_of(pc)) {
                    ++manifolds;
                    points += static_cast<std::size_t>(m.count);
                }
            }
        };
        for (std::size_t e = 0; e < keys_.size(); ++e) {
            place_frozen_before(keys_[e]);
            FoundAhead& slot = found_ahead_[e];
            if (!slot.kept) continue;
            slot.pair.first = static_cast<int>(manifolds);
            slot.point = static_cast<int>(points);
            slot.at = static_cast<int>(pairs++);
            if (slot.pair.count > 0) {
                ++manifolds;
                points += static_cast<std::size_t>(slot.found.count);
            }
        }
        place_frozen_before(~PairKey{0});
        next_contacts_.pairs.resize(pairs);
        next_contacts_.manifolds.resize(manifolds);
        next_contacts_.points.resize(points);
        threads_.for_blocks(static_cast<int>(keys_.size()), 1024, [&](int begin, int end) {
            for (int e = begin; e < end; ++e) {
                const FoundAhead& slot = found_ahead_[static_cast<std::size_t>(e)];
                if (!slot.kept) continue;
                next_contacts_.pairs[static_cast<std::size_t>(slot.at)] = slot.pair;
                if (slot.pair.count == 0) continue;
                const Manifold& m = slot.found;
                PairManifold& pm = next_contacts_.manifolds[static_cast<std::size_t>(slot.pair.first)];
                pm.normal = m.normal;
                pm.key = m.key;
                pm.first = slot.point;
                pm.count = m.count;
                const std::span<ContactPoint> points_now = next_contacts_.points_of(pm);
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
        for (const FrozenPlace& f : frozen_at_) {
            const PairContact& pc = contacts_.pairs[static_cast<std::size_t>(f.old)];
            PairContact& to = next_contacts_.pairs[static_cast<std::size_t>(f.pair)];
            to = pc;
            to.told = false;
            to.first = f.manifold;
            int point = f.point;
            for (int m = 0; m < pc.count; ++m) {
                const PairManifold& from = contacts_.manifolds[static_cast<std::size_t>(pc.first + m)];
                PairManifold& pm = next_contacts_.manifolds[static_cast<std::size_t>(f.manifold + m)];
                pm = from;
                pm.first = point;
                const std::span<const ContactPoint> p = contacts_.points_of(from);
                std::copy(p.begin(), p.end(), next_contacts_.points.begin() + point);
                point += from.count;
            }
        }
        if (tell)
            for (const FoundAhead& slot : found_ahead_)
                if (slot.kept)
                    tell_news(next_contacts_.pairs[static_cast<std::size_t>(slot.at)],
                              slot.before && slot.before->touching, slot.before && slot.before->told, {&slot.found, 1});
    } else {
        next_contacts_.clear();
    }
    for (std::size_t e = 0; !ahead && e < keys_.size(); ++e) {
        const PairKey key = keys_[e];
        keep_frozen_before(key);
        const int i = pair_first(key), j = pair_second(key);
        if (!pair_can_touch(i, j)) continue;
        const PairContact* before = nullptr;
        const ContactSet* before_set = &contacts_;
        if (old < contacts_.size() && contacts_.pairs[old].key() == key) before = &contacts_.pairs[old];
        before = with_impact(before, i, j, before_set);
        bool keeps = false;
        const double margin = update_margin(ctx, at_start, i, j, before, keeps);
        if (margin < 0) continue;
        manifolds_.resize(kMaxPairManifolds);
        const ManifoldQuery q = manifolds(placed(i), placed(j), margin, manifolds_);
        if (q.status != ContactStatus::overlapping || q.count == 0) continue;
        const std::span<const Manifold> found{manifolds_.data(), static_cast<std::size_t>(q.count)};
        PairContact& pc = next_contacts_.add(i, j, found);
        if (!keeps && !pc.overlapping) {
            next_contacts_.pop_back();
            continue;
        }
        combine_pair_coefficients(pc);
        if (before) carry_impulses(*before_set, *before, next_contacts_, pc, 1.0);
        tell_news(pc, before && before->touching, before && before->told, found);
    }
    if (!ahead) keep_frozen_before(~PairKey{0});
    contacts_.swap(next_contacts_);
}

} // namespace collide
