#pragma once
/// \file
/// Where the 3D view (plot/view3d.js) first looks at a run from: across the plane the bodies'
/// motion spans, so that a slope seen in x–y or a pyramid built along x shows its face, not its
/// edge, with up on the screen as up in the world.
///
/// The plane comes from the principal axes of the moving bodies' positions over the run
/// (Jolliffe, *Principal Component Analysis*, 2nd ed., §1.1): first of their *motion* (each
/// position less its body's mean over the run), then — when nothing moves — of their layout
/// (the bodies' mean positions). The view looks along the axis of least spread:
///
///     spread σ₁ ≥ σ₂ ≥ σ₃ along axes e₁, e₂, e₃ (standard deviations, m)
///     a plane  (σ₂ ≥ 0.15·σ₁):  normal n = e₃
///     a line   (σ₂ < 0.15·σ₁):  n = e₁ × up, the horizontal normal of the line (a vertical
///                               line: the layout decides, then the thinnest horizontal extent)
///     nothing  (σ₁ ≈ 0):        the layout, then the thinnest horizontal extent
///
/// A plane that stands (n mostly horizontal) is seen from the side of n, turned 20° about up
/// and raised 20°; a plane that lies (|n·up| > 0.64) is seen from above, raised 55°, looking
/// across e₁. Of the two sides, the one where the screen's right runs along its world axis's
/// positive sense (a plane in x–y is seen from +z, x to the right); the other when a static
/// body stands between the scene and that eye.

#include <array>
#include <span>

#include "math/vec3.h"
#include "model/scenario.h"
#include "probes/record.h"
#include "shapes/shapes.h"

namespace collide {

/// The spread of a cloud of points about its mean.
struct PrincipalAxes {
    Vec3 centre;                  ///< the mean (m)
    std::array<Vec3, 3> axes;     ///< unit axes, orthogonal, by decreasing spread
    std::array<double, 3> spread; ///< the standard deviation along each (m), decreasing
};

/// The principal axes of `points` (Jacobi's method on their 3×3 covariance, to double
/// precision); an empty cloud has spread 0 about the origin along x, y, z.
PrincipalAxes principal_axes(std::span<const Vec3> points);

/// How the 3D view first looks at a run: from `target` along `eye` (unit, from the target
/// towards the eye), `up` upwards on the screen; the page puts the eye as far along `eye` as
/// it must to see all of `frame`.
struct ViewChoice {
    Vec3 eye{0, 0, 1};    ///< unit direction from the target towards the eye
    Vec3 up{0, 1, 0};     ///< the world's up (against gravity; +y without gravity)
    Vec3 normal{0, 0, 1}; ///< the normal of the plane the motion spans (unit; its sign is the eye's side)
    Aabb frame;           ///< what must be in view: the moving bodies over the run and each static body's centre
    Vec3 target;          ///< the centre of `frame`
};

/// The first view of a run (see the file comment). `frame` holds every moving body's shape at
/// each recorded frame and the centre of each static body of finite size; with no moving body,
/// the static bodies' finite bounds.
ViewChoice choose_view(const Scenario& scenario, const Recording& recording);

} // namespace collide
