#pragma once
/// \file
/// collide's umbrella header: `#include <collide/collide.h>` gives the public library: the
/// maths, the shapes, contact and distance between any two shapes, ray and shape casts, the
/// collision responses, the world, and scenarios (load, simulate, render their logs).
/// Each header can also be included on its own, by its folder: `#include "detection/dispatch.h"`.

#include "math/mat3.h"
#include "math/quat.h"
#include "math/vec3.h"

#include "shapes/mesh.h"
#include "shapes/shapes.h"

#include "detection/contact.h"
#include "detection/dispatch.h"

#include "queries/cast.h"
#include "queries/raycast.h"
#include "queries/time_of_impact.h"

#include "response/response.h"

#include "model/scenario.h"

#include "world/world.h"

#include "probes/simulate.h"

#include "scenario/load.h"

#include "report/render.h"
