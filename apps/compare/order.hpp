// The order in which compare's implementations take turns within a run: a Williams design
// (E. J. Williams, "Experimental designs balanced for the estimation of residual effects of
// treatments", 1949).
//
// Why not a plain rotation: one implementation's run leaves an after-effect on the next one's
// (measured with the serial column, which pins the calling thread to each CPU: the runtime
// measured right after it ran fib(36)/15 about 10% slower; chapter 6). With the implementations
// numbered 0..m-1 and run r taking r, r+1, ..., a rotation puts the same neighbour before each
// one in nearly every run: with all five columns, mini came right after serial in 4 runs of 5,
// rayon right after mini. The after-effect then lands on one column and not on another.
//
// The design: order j of m items is base[i] + j (mod m), with base = 0, 1, m-1, 2, m-2, 3, ...
// For an even m, the m orders put every item right before every other exactly once; for an odd
// m, those m orders and their m reverses do it exactly twice. So over a period of m (even) or
// 2m (odd) runs, every column follows every other equally often, and an after-effect is shared.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace app {

// The number of runs after which every item has followed every other equally often.
inline std::size_t balanced_period(std::size_t m) { return m % 2 == 0 ? m : 2 * m; }

// Run `run`'s order of the items 0..m-1.
inline std::vector<std::size_t> balanced_order(std::size_t m, std::size_t run) {
    std::vector<std::size_t> order(m);
    if (m == 0) return order;
    const std::size_t j = run % balanced_period(m);
    for (std::size_t i = 0; i < m; ++i) {
        const std::size_t base = i % 2 == 1 ? (i + 1) / 2 : (m - i / 2) % m; // 0, 1, m-1, 2, ...
        order[i] = (base + j) % m;
    }
    if (j >= m) std::reverse(order.begin(), order.end()); // odd m: the second half, mirrored
    return order;
}

} // namespace app
