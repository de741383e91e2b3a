// What one run of a demo program gives the driver (apps/demos.cpp): its time, its result (a
// number, or a fingerprint of the data it produced: rng.hpp) and its own check of that result.
// The serial and mini versions of each program (the other headers here) return one; the rayon
// version returns the same struct through the C ABI (apps/rayon/rayon.h).
#pragma once

#include <cstdint>

#include "common.hpp"

namespace demos {

struct Outcome {
    double secs = 0;
    std::uint64_t result = 0;
    bool ok = false; // the program's own check: sorted, the right prime count, ...
};

// The seconds that f() takes.
template <class F>
double seconds_of(F&& f) {
    const double t0 = app::now();
    f();
    return app::now() - t0;
}

} // namespace demos
