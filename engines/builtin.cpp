#include "engines/builtin.h"

#ifdef COLLIDE_WITH_BULLET
#include "engines/bullet/bullet_engine.h"
#endif

namespace collide {

void register_builtin_engines() {
#ifdef COLLIDE_WITH_BULLET
    register_bullet_engine();
#endif
}

} // namespace collide
