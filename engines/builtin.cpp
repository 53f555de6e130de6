#include "engines/builtin.h"

#ifdef COLLIDE_WITH_BULLET
#include "engines/bullet/bullet_engine.h"
#endif
#ifdef COLLIDE_WITH_ODE
#include "engines/ode/ode_engine.h"
#endif
#ifdef COLLIDE_WITH_BOX3D
#include "engines/box3d/box3d_engine.h"
#endif

namespace collide {

void register_builtin_engines() {
#ifdef COLLIDE_WITH_BULLET
    register_bullet_engine();
#endif
#ifdef COLLIDE_WITH_ODE
    register_ode_engine();
#endif
#ifdef COLLIDE_WITH_BOX3D
    register_box3d_engine();
#endif
}

} // namespace collide
