// par_chunks_mut's workload in compare (compare/indexed.hpp): a Mandelbrot strip, `width` pixels
// a row, each pixel its escape count. Rows through the set cost more than rows around it, so the
// load is uneven, as an image's rows are. rayon's side (apps/rayon/src/lib.rs `escape`) does the
// very same floating-point operations in the same order, so both count every pixel alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "common.hpp"
#include "compare/iter.hpp"

namespace cmp::indexed {

using Pixels = std::span<std::uint32_t>;

// The strip: rows of `width` pixels over re in [-2, 1], im in [-1, 1]; at most 255 steps a pixel.
struct Strip {
    std::size_t width, height;
};
inline constexpr std::uint32_t max_steps = 255;

inline std::uint32_t escape(double cr, double ci) {
    double zr = 0, zi = 0;
    std::uint32_t k = 0;
    for (; k < max_steps; ++k) {
        const double zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0) break;
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
    }
    return k;
}
inline void fill_row(Pixels row, std::size_t y, Strip s) {
    const double ci = -1.0 + double(y) * (2.0 / double(s.height));
    for (std::size_t x = 0; x < row.size(); ++x)
        row[x] = escape(-2.0 + double(x) * (3.0 / double(s.width)), ci);
}

// Makes the image, times fill(image) alone, then checks the image off the clock.
template <class Fill>
iter::Timing timed_fill(Strip s, Fill fill) {
    std::vector<std::uint32_t> img(s.width * s.height);
    const double t0 = app::now();
    fill(Pixels(img));
    const double secs = app::now() - t0;
    return {secs, std::accumulate(img.begin(), img.end(), std::uint64_t{0})};
}

} // namespace cmp::indexed
