// The runtimes that compare (apps/compare.cpp) measures, each built once with THREADS threads and
// once with one (the join_1 row): mini's pool, mini-pw's (compare/pw.hpp), rayon's
// (apps/rayon/), oneTBB's arenas; OpenMP's team needs no object. A runtime left out at configure
// time has no member here, and print_versions says why.
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>

#include <fmt/core.h>

#include <mini/join.hpp>

#if MINI_HAVE_TBB
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/version.h>
#endif

#include "compare/pw.hpp"
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace cmp {

struct Runtimes {
    explicit Runtimes(std::size_t t)
        : threads(t), pool(t)
#if MINI_HAVE_TBB
          // THREADS workers in TBB's market: an arena of THREADS keeps one slot for the thread that
          // calls execute() and gets THREADS - 1 workers; `outside` keeps none and gets THREADS.
          ,
          control(tbb::global_control::max_allowed_parallelism, t + 1), arena(int(t)),
          outside(int(t), 0)
#endif
    {
#if MINI_HAVE_TBB
        arena1.initialize();
        arena.initialize();
        outside.initialize();
#endif
    }

    std::size_t threads;
    mini::ThreadPool pool1{1}, pool;
#if MINI_HAVE_PW
    std::unique_ptr<app::ComparePool> pw1 = mini_pw::compare_pool(1),
                                      pw = mini_pw::compare_pool(threads);
#endif
#if MINI_HAVE_RAYON
    rayon_side::Pool rayon1{1}, rayon{threads}; // rayon::ThreadPool, apps/rayon/src/lib.rs
#endif
#if MINI_HAVE_TBB
    tbb::global_control control;
    tbb::task_arena arena1{1}, arena, outside;
#endif
};

// Whether rayon could start the threads of its pools (rayon_side::Pool::get() is null if not).
inline bool started([[maybe_unused]] const Runtimes& rt) {
#if MINI_HAVE_RAYON
    return rt.rayon1.get() && rt.rayon.get();
#else
    return true;
#endif
}

// The second line of the heading: each optional runtime's version, or why it is missing.
inline void print_versions() {
#if MINI_HAVE_TBB
    fmt::print("oneTBB {} (runtime {})", TBB_VERSION_STRING, TBB_runtime_version());
#else
    fmt::print("oneTBB {}", MINI_TBB_ABSENT);
#endif
#if MINI_HAVE_OPENMP
    fmt::print(", OpenMP {} ({})", _OPENMP, "libgomp, g++ " __VERSION__);
#else
    fmt::print(", OpenMP {}", MINI_OPENMP_ABSENT);
#endif
#if MINI_HAVE_RAYON
    fmt::print(", {}", rayon_side_version());
#else
    fmt::print(", rayon: {}", MINI_RAYON_ABSENT);
#endif
    fmt::print("\n");
    std::fflush(stdout);
}

} // namespace cmp
