#pragma once
// The Bullet tests' guard: skips the test case (exit 77, with its reason) in a build without
// Bullet; else makes sure Bullet is registered as an engine.
#include "support/skip.h"

#ifdef COLLIDE_WITH_BULLET
#include "engines/bullet/bullet_engine.h"
#endif

namespace collide::test {

/// Skips the calling test case without Bullet; registers Bullet with it.
inline void need_bullet() {
#ifdef COLLIDE_WITH_BULLET
    register_bullet_engine();
#else
    skip_test("this build has no Bullet (configure with -DCOLLIDE_ENGINES=ON)");
#endif
}

} // namespace collide::test
