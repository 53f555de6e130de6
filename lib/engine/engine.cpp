#include "engine/engine.h"

namespace collide {

void CollideEngine::reset(const WorldDef& def, std::span<const BodyDef> bodies) { world_.reset(def, bodies); }

} // namespace collide
