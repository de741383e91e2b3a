// rayon's side of `hurts small` (apps/rayon/src/hurts.rs), behind the crate's C ABI; linked when
// cmake/Rayon.cmake builds it (MINI_HAVE_RAYON). The pool is rayon.h's.
#pragma once

#include "rayon/rayon.h"

extern "C" {
// reps calls of v.par_iter().with_min_len(min_len).map(x * x).sum() inside one install: the
// seconds per call; *result: the last sum.
double rayon_side_hurts_sum_squares(const rayon_side_pool* pool, const uint64_t* values,
                                    size_t len, size_t min_len, size_t reps, uint64_t* result);
}
