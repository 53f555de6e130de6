#pragma once
/// \file
/// The one contact convention every test in collide follows.
///
/// A contact between shape A and shape B carries a unit `normal` that points **from A to B**
/// (world frame) and a `depth` (m) that is **positive when the shapes overlap**: moving B by
/// normal·depth (or A by −normal·depth) leaves them touching. "No contact" is an empty
/// std::optional; "no algorithm for this pair" is ContactStatus::unsupported, never silence.
/// Touching exactly (depth within kTouchEpsilon of zero) is not a contact.

#include <optional>

#include "math/vec3.h"

namespace collide {

/// Overlaps no deeper than this (m) count as touching, not as contact: SAT on floats would
/// otherwise report "touching" constantly.
inline constexpr double kTouchEpsilon = 1e-9;

/// Where two overlapping shapes meet: normal from A to B (unit, world frame), depth > 0 (m).
struct Contact {
    Vec3 normal;      ///< unit vector from A to B, world frame
    double depth = 0; ///< penetration depth (m), > 0 when overlapping
};

/// What asking a pair of shapes for a contact can answer.
enum class ContactStatus {
    separated,   ///< apart or exactly touching: no contact
    overlapping, ///< overlapping: `contact` is valid
    unsupported, ///< no algorithm for this pair (e.g. plane against plane): cannot answer
};

/// The answer of the contact dispatcher.
struct ContactQuery {
    ContactStatus status = ContactStatus::separated; ///< separated, overlapping or unsupported
    Contact contact;                                 ///< valid only when status is overlapping
};

} // namespace collide
