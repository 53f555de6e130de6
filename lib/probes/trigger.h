#pragma once
/// \file
/// The trigger probe: when a body enters and leaves a trigger volume (TriggerLog's fields).
///
/// Overlap means the contact convention's overlap (detection/contact.h): depth above
/// kTouchEpsilon; touching is not being inside. Either body of a watched pair may be a trigger
/// (`trigger: true`) or neither; the world never responds to a trigger (world/world.h), so the
/// shapes move through each other and the probe only watches. Two triggers overlapping are
/// reported like any other pair, and neither responds.
///
/// - **Discrete pairs** (neither body swept): at every sampled frame the shapes are tested as
///   the frame leaves them. An entry is a frame at which they overlap after a frame (or t = 0)
///   at which they did not; an exit the reverse. Times are the frames' sample times.
/// - **Swept pairs** (the world's detection is swept, or either body has `ccd: true`): the
///   probe follows both bodies through each step from the world's moves (on_move: each piece
///   of motion under constant acceleration, split wherever the world splits the step at another
///   pair's impact) and finds the exact times: an entry is the time of impact of the two
///   motions (queries/time_of_impact.h), an exit the time of impact of the motions run
///   backwards from the piece's end (p(t1 − s) = p1 − v1·s + ½·a·s²). Frames are those whose
///   steps (t_{k−1}, t_k] contain them. Overlapping at t = 0 is an entry at t = 0, frame 0. A
///   jump the world makes after the moves (a push-out at the end of a step) is an entry or exit
///   at the frame's time. Within one piece of motion at most one entry and one exit are found
///   (exact for straight relative motion; a parabola that leaves and re-enters a shape within
///   one piece is seen as staying inside). A touch that never overlaps (a graze) is no entry.

#include <span>
#include <vector>

#include "engine/engine.h"

namespace collide {

/// Watches pairs (body, volume) for entries and exits and writes TriggerLog's fields: entered,
/// enter_frame, enter_time (s) of the first entry; exited, exit_frame, exit_time (s) of the first
/// exit after it; events, the number of entries. Not measured: flag 0, frame and time NaN.
class TriggerProbes final : public EngineObserver {
public:
    /// Forgets every pair (keeps storage).
    void clear();
    /// Watches `body` against `volume` in `world` (reset, not yet stepped) and writes into `out`
    /// (TriggerLog's fields); `swept`: exact times (see the file's doc), else sampled frames.
    void watch(const EngineView& world, int body, int volume, bool swept, std::span<double> out);
    /// True when there is nothing to watch.
    bool empty() const { return watched_.empty(); }
    /// The WorldEvent bits these probes need.
    unsigned events() const;

    void on_move(const EngineView& world, int body, double tau, const Vec3& accel) override;
    void on_contact(const EngineView& world, const ContactEvent& e) override;
    void on_frame(const EngineView& world, int frame, double time) override;

private:
    /// A piece of one body's motion: from `start` (s) for `tau` s under constant acceleration.
    struct Segment {
        double start = 0; ///< s
        double tau = 0;   ///< s
        Vec3 position;    ///< at `start` (m)
        Vec3 velocity;    ///< at `start` (m/s)
        Vec3 accel;       ///< m/s²
    };
    /// A followed body's motion through the current step.
    struct Track {
        int body = 0;
        Aabb local;                    ///< bounds of its shape about its local origin (m)
        double clock = 0;              ///< when its next move starts (s)
        Vec3 start;                    ///< its position at the step's start (m)
        std::vector<Segment> segments; ///< its moves this step, in time order
    };
    /// A body's position, velocity and acceleration at one time.
    struct Kinematics {
        Vec3 position; ///< m
        Vec3 velocity; ///< m/s
        Vec3 accel;    ///< m/s²
        /// The state `dt` s later under the same acceleration.
        Kinematics after(double dt) const {
            return {position + velocity * dt + accel * (0.5 * dt * dt), velocity + accel * dt, accel};
        }
        /// Bounds of everywhere `local` (bounds about the origin) goes over the next `span` s (m).
        Aabb reach(const Aabb& local, double span) const;
    };
    struct Watched {
        int body = 0;
        int volume = 0;
        int track_body = -1;   ///< index into tracks_ (swept only)
        int track_volume = -1; ///< index into tracks_ (swept only)
        bool swept = false;
        bool inside = false; ///< overlapping (or entering, touching) as last seen
        std::span<double> out;
    };

    std::vector<Watched> watched_;
    std::vector<Track> tracks_; ///< [0, track_count_) in use; kept for their storage
    int track_count_ = 0;
    std::vector<int> track_of_; ///< per body: its track, or −1
    std::vector<double> cuts_;  ///< scratch: the step's piece boundaries
    double step_start_ = 0;     ///< when the current step started (s)
    bool any_swept_ = false;

    int track(const EngineView& world, int body);
    static Kinematics at(const Track& t, double time);
    static bool overlap(const EngineView& world, const Watched& w, const Kinematics& a, const Kinematics& v);
    void enter(Watched& w, int frame, double time);
    void leave(Watched& w, int frame, double time);
    void follow_step(const EngineView& world, Watched& w, int frame, double end);
    void follow_piece(const EngineView& world, Watched& w, int frame, double s, double e, const Kinematics& a,
                      const Kinematics& v);
};

} // namespace collide
