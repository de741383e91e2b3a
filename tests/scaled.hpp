// Sizes that only add repetitions, cut under ThreadSanitizer.
//
// Under TSan every memory access costs some ten times more. A test whose size only repeats what
// it checks (a stress's item count, a sort's length far above its parallel thresholds) runs an
// eighth of it there. The interleavings TSan must see still happen: every size stays above the
// thresholds at which the code under test goes parallel.
#pragma once

#include <algorithm>
#include <cstddef>

namespace test {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool under_tsan = true;
#else
inline constexpr bool under_tsan = false;
#endif

inline constexpr std::size_t scaled(std::size_t n) {
    return under_tsan ? std::max<std::size_t>(n / 8, 1) : n;
}

} // namespace test
