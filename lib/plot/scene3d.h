#pragma once
/// \file
/// The data of the 3D view of a run (plot/view3d.js draws it with three.js): every body's shape
/// in its own frame, its kind and colour, and the moving bodies' tracks — position, velocity,
/// rotation and angular velocity at each kept frame — plus contacts, first contacts and apexes,
/// the scene's bounds and its up direction. The result is JSON that is safe inside a
/// `<script type="application/json">` element.
///
/// **Tracks are packed, not listed.** Each channel (x, y, z of position, velocity and angular
/// velocity; w, x, y, z of the rotation) of each moving body is quantised to integers of a
/// power-of-two quantum (positions to 2⁻¹⁷ m ≈ 7.6 µm unless the scene is larger than about
/// 8 km, velocities to 2⁻¹⁷ m/s, angular velocities to 2⁻¹⁷ rad/s, quaternion components to
/// 2⁻²⁰), predicted from the three frames before (x̂ₖ = 3·xₖ₋₁ − 3·xₖ₋₂ + xₖ₋₃, the parabola
/// through them; the line through two at k = 2, the last value at k = 1: exact for a body that
/// stands, moves at a constant velocity or falls at a constant acceleration), and each residual
/// written as a zig-zag varint, runs of zero residuals as one varint; the bytes are base64. A
/// sphere falling under gravity costs about a byte per moving channel per frame: 10,000 bodies
/// over 60 frames fit in a few MB where float32 positions alone would take 7.2 MB. When the packed tracks would
/// pass Scene3dOptions::track_budget bytes, frames are kept evenly (every 2nd, 3rd, …) and the
/// view says so.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "plot/script_json.h"
#include "probes/record.h"

namespace collide {

/// Limits of the 3D view's data.
struct Scene3dOptions {
    std::size_t track_budget = 6'000'000;  ///< most packed track bytes (before base64)
    std::size_t frame_budget = 20'000;     ///< most frames kept
    std::size_t contact_budget = 4'000;    ///< most contacts drawn (one per pair and cell of 1/100 of the scene)
    std::size_t mark_budget = 600;         ///< most first-contact and apex marks
    std::size_t label_budget = 30;         ///< most of those marks labelled
    std::size_t triangle_budget = 400'000; ///< most triangles of all meshes and hulls (every k-th beyond)
    /// Bodies from this index on that move are ghosts: another run of the same bodies, drawn
    /// translucent in the colours of the first run's (plot/divergence.h's scene_of_runs).
    std::size_t ghosts_from = SIZE_MAX;
    std::string ghost_note; ///< what the ghosts are, for the legend ("translucent: the golden run")
};

/// The quantum exponents of the packed tracks: a channel value v is stored as round(v / 2^e).
struct TrackQuanta {
    int position = -17;         ///< positions (m)
    int velocity = -17;         ///< velocities (m/s)
    int angular_velocity = -17; ///< angular velocities (rad/s)
    int rotation = -20;         ///< quaternion components
};

/// Channels per moving body and kept frame, in this order: position x, y, z (m); velocity
/// x, y, z (m/s); rotation w, x, y, z (unit quaternion, sign kept continuous between frames);
/// angular velocity x, y, z (rad/s, world frame).
inline constexpr int kTrackChannels = 13;

/// Packs `values` (frames × bodies × kTrackChannels, frame-major) as the tracks encoding says:
/// body by body, channel by channel, the residuals of round(v / 2^e) after the prediction, zig-zag varints, a run of
/// zero residuals as one varint 2·(run − 1) + 1 and a residual r as 2·zigzag(r).
std::vector<std::uint8_t> pack_tracks(std::span<const double> values, std::size_t frames, std::size_t bodies,
                                      const TrackQuanta& quanta);

/// Unpacks what pack_tracks wrote into the same layout (values are multiples of the quanta).
/// The page's decoder (view3d.js) is the same loop; tests use this one.
std::vector<double> unpack_tracks(std::span<const std::uint8_t> bytes, std::size_t frames, std::size_t bodies,
                                  const TrackQuanta& quanta);

/// Standard base64 (RFC 4648, with padding).
std::string base64(std::span<const std::uint8_t> bytes);

/// The angular velocity of a body at a recorded state (rad/s, world frame): the state's own when
/// BodyState has one, else a kinematic body's constant `angular_velocity`, else zero.
template <class State> Vec3 angular_velocity_of(const BodyDef& body, const State& state) {
    if constexpr (requires { state.angular_velocity; })
        return state.angular_velocity;
    else
        return body.kinematic ? body.angular_velocity : Vec3{};
}

/// The whole 3D view's data of one run, as JSON (plot/script_json.h). Besides the shapes and
/// the tracks, the run carries the first view (plot/camera3d.h): `view` (`eye`, the unit
/// direction from `target` towards the eye; `up`), `bounds` (what the view must show) and
/// `ground` (the lowest reach of the moving bodies along up, m: where the grid lies).
std::string render_scene3d_json(const Scenario& scenario, const Recording& recording,
                                const Scene3dOptions& options = {});

/// The same, in two parts for pages that show many runs of one scenario (a sweep): the scene
/// (shapes, kinds, static bodies, up: JSON) and the run (frames, tracks, bounds, contacts,
/// marks: JSON); render_scene3d_json is {"scene": scene, "run": run}.
std::string render_scene3d_scene(const Scenario& scenario, const Scene3dOptions& options = {});
/// The run part (see render_scene3d_scene).
std::string render_scene3d_run(const Scenario& scenario, const Recording& recording,
                               const Scene3dOptions& options = {});

/// Many runs of one scenario for one page (a sweep's rows): each run's data, its scene shared
/// with the runs before that have the same one. JSON: {"scenes": [scene...], "runs":
/// [{"s": scene index, "run": run}...]}.
class Scene3dRuns {
public:
    /// `options` for each run (a sweep divides its budget among its rows).
    explicit Scene3dRuns(const Scene3dOptions& options) : options_(options) {}
    /// Adds one run.
    void add(const Scenario& scenario, const Recording& recording);
    /// The JSON of every run added, in order.
    std::string json() const;

private:
    Scene3dOptions options_;
    std::vector<PageJson> scenes_; ///< each distinct scene
    std::vector<PageJson> runs_;   ///< each run, with the index of its scene
};

} // namespace collide
