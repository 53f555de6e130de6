// Uses the installed library: the contact between a sphere resting 10 cm into a floor box.
#include <collide/collide.h>

#include <cstdio>

int main() {
    const collide::Shape floor = collide::Aabb{{-5, -1, -5}, {5, 0, 5}};
    const collide::Shape ball = collide::Sphere{{0, 0.4, 0}, 0.5};
    const collide::ContactQuery q = collide::contact(floor, ball);
    if (q.status != collide::ContactStatus::overlapping) {
        std::puts("no contact");
        return 1;
    }
    const collide::Vec3 n = q.contact.normal;
    std::printf("contact: normal (%g, %g, %g), depth %.3f m\n", n.x, n.y, n.z, q.contact.depth);
    return 0;
}
