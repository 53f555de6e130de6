#pragma once
/// \file
/// Where a template's Op writes: a field of a Scenario named by a pointer to member of the
/// object that holds it (`&BodyDef::mass`, `&PushOutLog::skin`, `&WorldDef::gravity`), plus the
/// index of that object in Scenario::bodies / log / expect and, for a vector, the component.
/// The member pointer's class says which object it is (a body's shape and a log entry's request
/// are variant alternatives, reached with std::get), so no byte offsets and no casts are needed,
/// and the same Dest writes into any copy of the scenario. Internal to the scenario loader.

#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "model/scenario.h"

namespace collide::detail {

/// The whole Aabb shape of a body (written by a box given as centre and half-size, checked for
/// min ≤ max). A tag: it has no member.
struct AabbShape {};

/// A coordinate of a body's hull points (BodyDef::hull_data): component p·3 + k is coordinate k
/// of point p. A tag: it has no member. Writing one copies the points first when another copy
/// of the body shares them (copy on write), so each copy of a scenario keeps its own.
struct HullPoint {};

/// Every member an Op writes, by its holder and value type. The holder is one of: Scenario,
/// WorldDef (Scenario::world), BodyDef and its shape's alternative (bodies[index]), LogDef and
/// its request's alternative (log[index]), ExpectDef (expect[index]), FieldTolerance
/// (field_tolerances[index]).
using Member = std::variant<
        // the scenario and its world
        int Scenario::*, double Scenario::*, int WorldDef::*, double WorldDef::*, Vec3 WorldDef::*,
        // a body and its shape
        double BodyDef::*, bool BodyDef::*, Vec3 BodyDef::*, Quat BodyDef::*, double Sphere::*, Vec3 Sphere::*,
        Vec3 Aabb::*, AabbShape, Vec3 Obb::*, Mat3 Obb::*, double Capsule::*, Vec3 Capsule::*, Vec3 Triangle::*,
        HullPoint, double Plane::*, Vec3 Plane::*,
        // a log entry and its request
        int LogDef::*, double ApexLog::*, double PushOutLog::*, Vec3 PushOutLog::*, Vec3 SplitLog::*,
        double RespondLog::*, Vec3 RespondLog::*, double SlopeLog::*, Vec3 SlopeLog::*, double RaycastLog::*,
        Vec3 RaycastLog::*,
        // an expectation, a per-field tolerance
        double ExpectDef::*, double FieldTolerance::*>;

/// A field of a Scenario: `member` of the object at `index`, component `component` of it.
struct Dest {
    Member member = &Scenario::decimals; ///< the field, by its holder's member
    int index = 0;                       ///< the holder's index in bodies / log / expect; unused otherwise
    int component = -1; ///< a Vec3's coordinate 0…2 (hull: point·3 + coordinate); −1: the whole value
};

namespace dest_detail {

/// True when `T` is one of the alternatives of the std::variant `Variant`.
template <class T, class Variant> constexpr bool kIsAlternative = false;
template <class T, class... A> constexpr bool kIsAlternative<T, std::variant<A...>> = (std::is_same_v<T, A> || ...);

/// The holder class and the value type of a pointer to data member.
template <class> struct MemberOf;
/// `T Holder::*`: `holder` is Holder, `value` is T.
template <class T, class Holder> struct MemberOf<T Holder::*> {
    using holder = Holder;
    using value = T;
};

/// The object that holds a member of class `Holder` in scenario `s`.
template <class Holder> Holder& holder(Scenario& s, int index) {
    const auto i = static_cast<std::size_t>(index);
    if constexpr (std::is_same_v<Holder, Scenario>)
        return s;
    else if constexpr (std::is_same_v<Holder, WorldDef>)
        return s.world;
    else if constexpr (std::is_same_v<Holder, BodyDef>)
        return s.bodies[i];
    else if constexpr (std::is_same_v<Holder, LogDef>)
        return s.log[i];
    else if constexpr (std::is_same_v<Holder, ExpectDef>)
        return s.expect[i];
    else if constexpr (std::is_same_v<Holder, FieldTolerance>)
        return s.field_tolerances[i];
    else if constexpr (kIsAlternative<Holder, Shape>)
        return std::get<Holder>(s.bodies[i].shape);
    else {
        static_assert(kIsAlternative<Holder, LogRequest>, "a Dest's member belongs to no part of a Scenario");
        return std::get<Holder>(s.log[i].request);
    }
}

/// The value of type `T` that `value` with `component` denotes, or null when the types differ.
template <class T, class V> T* part(V& value, int component) {
    if constexpr (std::is_same_v<T, V>) {
        return component < 0 ? &value : nullptr;
    } else if constexpr (std::is_same_v<T, double> && std::is_same_v<V, Vec3>) {
        return component >= 0 ? &value[static_cast<std::size_t>(component)] : nullptr;
    } else {
        return nullptr;
    }
}

} // namespace dest_detail

/// The field `dest` names in `s`, as a `T`: a double, int, bool, Vec3, Quat, Mat3 or Aabb. Throws
/// std::logic_error when the field is not a `T` (a bug in the reader, never an input problem).
/// Allocates nothing, but for a hull's points shared with another copy of the body (HullPoint).
template <class T> T& field(Scenario& s, const Dest& dest) {
    T* out = std::visit(
            [&](auto member) -> T* {
                if constexpr (std::is_same_v<decltype(member), AabbShape>) {
                    if constexpr (std::is_same_v<T, Aabb>)
                        return &std::get<Aabb>(s.bodies[static_cast<std::size_t>(dest.index)].shape);
                    else
                        return nullptr;
                } else if constexpr (std::is_same_v<decltype(member), HullPoint>) {
                    if constexpr (std::is_same_v<T, double>) {
                        if (dest.component < 0 || dest.component >= 3 * kHullMaxPoints) return nullptr;
                        BodyDef& body = s.bodies[static_cast<std::size_t>(dest.index)];
                        auto& hull = std::get<Hull>(body.shape);
                        if (!body.hull_data || body.hull_data.use_count() > 1)
                            body.hull_data =
                                    std::make_shared<HullPoints>(body.hull_data ? *body.hull_data : HullPoints{});
                        hull.data = body.hull_data.get();
                        return &body.hull_data->points[static_cast<std::size_t>(dest.component / 3)]
                                                      [static_cast<std::size_t>(dest.component % 3)];
                    } else {
                        return nullptr;
                    }
                } else {
                    using Info = dest_detail::MemberOf<decltype(member)>;
                    auto& holder = dest_detail::holder<typename Info::holder>(s, dest.index);
                    return dest_detail::part<T>(holder.*member, dest.component);
                }
            },
            dest.member);
    if (!out) throw std::logic_error("scenario template: a field is written as the wrong type");
    return *out;
}

/// True when the field `dest` names is a `T` (so `field<T>` may be called).
template <class T> bool is_field_of_type(const Dest& dest) {
    return std::visit(
            [&](auto member) {
                if constexpr (std::is_same_v<decltype(member), AabbShape>) {
                    return std::is_same_v<T, Aabb>;
                } else if constexpr (std::is_same_v<decltype(member), HullPoint>) {
                    return std::is_same_v<T, double> && dest.component >= 0;
                } else {
                    using V = typename dest_detail::MemberOf<decltype(member)>::value;
                    if (dest.component < 0) return std::is_same_v<T, V>;
                    return std::is_same_v<T, double> && std::is_same_v<V, Vec3>;
                }
            },
            dest.member);
}

/// The same Dest for component `k` of a Vec3 member.
inline Dest component(Dest dest, int k) {
    dest.component = k;
    return dest;
}

} // namespace collide::detail
