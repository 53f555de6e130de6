#pragma once
// The ODE tests' guard: skips the test case (exit 77, with its reason) in a build without ODE;
// else makes sure ODE is registered as an engine.
#include "support/skip.h"

#ifdef COLLIDE_WITH_ODE
#include "engines/ode/ode_engine.h"
#endif

namespace collide::test {

/// Skips the calling test case without ODE; registers ODE with it.
inline void need_ode() {
#ifdef COLLIDE_WITH_ODE
    register_ode_engine();
#else
    skip_test("this build has no ODE (configure with -DCOLLIDE_ENGINES=ON)");
#endif
}

} // namespace collide::test
