// fib's leaf alone, without the core: a copy of the core with its namespace renamed (mini_pw,
// sleep_work.cpp) includes it without getting a second definition of app::fib (fib.hpp).
#pragma once

#include <cstdint>

namespace app {

// The leaf, out of line so that the parallel and the serial versions run the very same code.
[[gnu::noinline]] inline std::uint64_t fib_leaf(unsigned n) {
    return n < 2 ? n : fib_leaf(n - 1) + fib_leaf(n - 2);
}

} // namespace app
