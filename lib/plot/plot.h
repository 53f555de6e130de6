#pragma once
/// \file
/// Pictures of a run: each body's outline at sampled frames (faded rings), its path, static
/// bodies filled, contacts with their normals, first contacts and apexes marked and labelled,
/// axes in metres and a legend — as a standalone SVG, or as a self-contained HTML page (inline
/// SVG and script, no network) with a frame slider, a play button and hover read-outs.
///
/// Each outline is drawn turned as the body is at that frame (BodyState::rotation): a turning
/// kinematic door, a tumbling crate. Frames are decimated so that any run stays small: at most kRingBudget rings
/// and kPathBudget path points per view, whatever the number of bodies and frames.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"
#include "probes/record.h"

namespace collide {

/// A view: the world axis drawn across (first letter) and the one drawn upwards (second).
enum class PlotView : std::uint8_t { xy, xz, zy };

/// Most outline rings drawn per view (frames are skipped evenly beyond it).
inline constexpr std::size_t kRingBudget = 6000;
/// Most path points drawn per view.
inline constexpr std::size_t kPathBudget = 40000;

/// "xy", "xz" or "zy".
const char* plot_view_name(PlotView view);
/// Parses "xy", "xz" or "zy"; empty when it is none of them.
std::optional<PlotView> parse_plot_view(std::string_view text);

/// What to draw.
struct PlotOptions {
    std::optional<PlotView> view; ///< one view; empty: side and top views chosen by the motion
    std::string id = "p";         ///< prefix of the picture's element ids (unique per page with several)
    bool flat = true;             ///< the 2D views (false: an HTML page with the 3D view alone)
    bool view3d = true;           ///< HTML pages: the 3D view (plot/view3d.h) beside the 2D views
    std::string preface;          ///< HTML pages: markup put above the views (a chart, a note); trusted
    /// Bodies from this index on that move are ghosts: another run of the same bodies (plot/
    /// divergence.h's scene_of_runs), drawn under the others, faint and dashed in the 2D views
    /// and translucent in the 3D view, each in the colour of the body it stands for.
    std::size_t ghosts_from = SIZE_MAX;
    std::string ghost_note; ///< the legend's word for the ghosts ("faint: the golden run")
};

/// The options `--view` asks for: "" side and top views chosen by the motion and (in a page) the
/// 3D view; "xy", "xz" or "zy" that one 2D view alone; "3d" the 3D view alone (HTML only).
/// Empty when `view` is none of them.
std::optional<PlotOptions> plot_options_for_view(std::string_view view);

/// How one view maps world metres to picture pixels.
struct ViewMap {
    std::string id = "p";         ///< prefix of element ids (PlotOptions::id)
    PlotView view = PlotView::xy; ///< which view
    int h = 0;                    ///< world axis drawn across (0 x, 1 y, 2 z)
    int v = 1;                    ///< world axis drawn upwards
    double umin = 0, umax = 1;    ///< world range across (m)
    double vmin = 0, vmax = 1;    ///< world range upwards (m)
    double ox = 0, oy = 0;        ///< top-left corner of the plot area (px)
    double scale = 1;             ///< px per m (the same on both axes)
    /// Pixel column of world coordinate `u` (m).
    double px(double u) const { return ox + (u - umin) * scale; }
    /// Pixel row of world coordinate `v` (m).
    double py(double w) const { return oy + (vmax - w) * scale; }
    /// Plot area width (px).
    double width() const { return (umax - umin) * scale; }
    /// Plot area height (px).
    double height() const { return (vmax - vmin) * scale; }
};

/// The views chosen for a run (side view of the largest motion, plus a top view when the
/// bodies spread across it), or `options.view` alone; laid out side by side.
std::vector<ViewMap> plan_views(const Scenario& scenario, const Recording& recording, const PlotOptions& options);

/// A standalone SVG picture of the run (UTF-8 text).
std::string render_plot_svg(const Scenario& scenario, const Recording& recording, const PlotOptions& options = {});

/// A self-contained HTML page: the picture and (options.view3d) the 3D view of the run beside
/// it, one frame slider and play button for both, hover read-outs (frame, time, position,
/// velocity; the 3D view adds angular velocity) and `log` (the run's text log) beside them.
/// `#frame=N` in the page's address opens it at frame N.
std::string render_plot_html(const Scenario& scenario, const Recording& recording, const PlotOptions& options,
                             std::string_view log);

/// The picture as render_plot_svg draws it for `maps` (with `options`' ghosts), plus a `g.now`
/// marker for each of the first `markers` moving bodies (its outline at the first frame, moved
/// by the HTML page's script).
std::string render_plot_svg_interactive(const Scenario& scenario, const Recording& recording,
                                        const std::vector<ViewMap>& maps, std::size_t markers = SIZE_MAX,
                                        const PlotOptions& options = {});

/// Moving bodies the 2D views of a page move when the page also has the 3D view (which moves
/// them all): the rest keep their rings and paths, and the page stays small (10,000 bodies over
/// 60 frames: under 10 MB).
inline constexpr std::size_t kMarkerBudgetWith3d = 2000;

/// `text` as a JSON string literal that is also safe inside a <script> element (`<`, `>` and
/// `&` escaped as \u00XX, control characters escaped).
std::string script_string(std::string_view text);

/// A <script> element that writes every uncaught error of a page into its `#errors` element
/// (and shows it), so a browser test reads a page's errors from its DOM.
extern const char* const kPageErrorScript;

/// One body's outline in a view, relative to the body's position (px at `scale` px per m, y
/// downwards), at its true size however small: a circle (radius > 0) or a polygon. Planes
/// have no outline (empty, radius 0).
struct Outline {
    double cx = 0, cy = 0, radius = 0;           ///< a circle's centre and radius (px)
    std::vector<std::pair<double, double>> poly; ///< a polygon's corners (px), when not a circle
};

/// The outline of `body` in `map`'s view, relative to its position, turned by its starting
/// rotation (BodyDef::rotation).
Outline outline_of(const BodyDef& body, const ViewMap& map);

/// The outline of `body` turned by `rotation` (its orientation at some frame: BodyState::rotation).
Outline outline_of(const BodyDef& body, const ViewMap& map, const Quat& rotation);

/// True when the body's rotation at some recorded frame differs from its rotation at the first.
bool turns_in(const Recording& recording, std::size_t body);

/// The recorded frames (indices into `recording`) at which `body` is at an apex: the highest
/// point between a real bounce or launch and the next fall. It rose faster than the apex
/// probe's bounce speed, max(rest_speed, |g|·dt) (probes/apex.h), and its velocity along up
/// turns from rising to falling there; a resting body's jitter (1e-17 m/s) is no bounce.
/// Empty without gravity or with fewer than three frames.
std::vector<std::size_t> apex_frames(const Scenario& scenario, const Recording& recording, std::size_t body);

/// Outlines smaller than this across (px) are drawn at their size and marked by a cross on
/// their centre (8 px wide): a 5 cm bullet at the wall is a dot with a cross, never a disc
/// that reaches into the wall.
inline constexpr double kTinyOutline = 4;

/// The outline's width or height, whichever is larger (px); 0 for none.
double outline_size(const Outline& outline);

/// Whether the outline is smaller than kTinyOutline across (and not empty).
bool is_tiny(const Outline& outline);

/// Most moving bodies a view marks with a cross when they are tiny (on their last ring and
/// their moving marker; static ones always): a crowd of 10,000 specks stays a few MB.
inline constexpr std::size_t kTinyBudget = 600;

/// SVG markup of an outline placed at pixel (x, y), with the given extra attributes: the
/// circle or polygon at its true size, then (is_tiny, and `mark_tiny`) a `path.tiny` cross on
/// its centre.
std::string outline_svg(const Outline& outline, double x, double y, std::string_view attributes, bool mark_tiny = true);

} // namespace collide
