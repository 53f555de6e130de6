#pragma once
// The Box3D tests' guard: skips the test case (exit 77, with its reason) in a build without
// Box3D (-DCOLLIDE_ENGINES=OFF); else makes sure Box3D is registered as an engine.
#include "support/skip.h"

#ifdef COLLIDE_WITH_BOX3D
#include "engines/box3d/box3d_engine.h"
#endif

namespace collide::test {

/// Skips the calling test case without Box3D; registers Box3D with it.
inline void need_box3d() {
#ifdef COLLIDE_WITH_BOX3D
    register_box3d_engine();
#else
    skip_test("this build has no Box3D (configure with -DCOLLIDE_ENGINES=ON or auto)");
#endif
}

} // namespace collide::test
