// The sabotage switches, as constexpr bools.
//
// Each switch is a CMake option (see cmake/Sabotage.cmake) that reaches the code as a public
// compile definition of the `mini` library. Mechanism code tests it with `if constexpr`, so the
// broken line stands next to the right one and a normal build contains no trace of it.
#pragma once

#ifndef MINI_NO_RECHECK
#error "mini/sabotage.hpp: build through the mini library target, which defines the switches"
#endif
#ifndef MINI_SLEEP_PER_WORKER // not a sabotage: which sleep the pool uses (-DSLEEP, chapter 10)
#error "mini/sabotage.hpp: build through the mini library target, which defines MINI_SLEEP_PER_WORKER"
#endif

namespace mini::sabotage {

inline constexpr bool no_recheck = MINI_NO_RECHECK;           // chapter 2: sleep.hpp
inline constexpr bool block_wait = MINI_BLOCK_WAIT;           // chapter 3: join.hpp
inline constexpr bool no_steal_wait = MINI_NO_STEAL_WAIT;     // chapter 3: join.hpp
inline constexpr bool ignore_migrated = MINI_IGNORE_MIGRATED; // chapter 4: splitter.hpp
inline constexpr bool touch_after_set = MINI_TOUCH_AFTER_SET; // chapter 3: latch.hpp
inline constexpr bool block_cross = MINI_BLOCK_CROSS;         // chapter 9: pool.hpp
inline constexpr bool count_after_push = MINI_COUNT_AFTER_PUSH; // chapter 8: scope.hpp
inline constexpr bool rethrow_early = MINI_RETHROW_EARLY;     // chapter 7: unwind.hpp
inline constexpr bool skip_latch_sleepy = MINI_SKIP_LATCH_SLEEPY; // chapter 10: worker_sleep.hpp
inline constexpr bool skip_jec_check = MINI_SKIP_JEC_CHECK;   // chapter 10: worker_sleep.hpp
inline constexpr bool ignore_full = MINI_IGNORE_FULL;         // chapter 11: iter/plumbing.hpp
inline constexpr bool reduce_swapped = MINI_REDUCE_SWAPPED;   // chapter 11: iter/plumbing.hpp
inline constexpr bool collect_no_release = MINI_COLLECT_NO_RELEASE; // chapter 11: iter/collect.hpp
inline constexpr bool broadcast_via_injector = MINI_BROADCAST_VIA_INJECTOR; // chapter 12: pool.cpp
inline constexpr bool no_broadcast_wake = MINI_NO_BROADCAST_WAKE; // chapter 12: pool.cpp
inline constexpr bool zip_uneven_split = MINI_ZIP_UNEVEN_SPLIT; // chapter 13: iter/zip.hpp
inline constexpr bool find_first_any = MINI_FIND_FIRST_ANY;   // chapter 13: iter/find_first_last.hpp
inline constexpr bool chunk_split_unaligned = MINI_CHUNK_SPLIT_UNALIGNED; // chapter 13: iter/chunks.hpp

// Both change how join's owner waits for B: BLOCK_WAIT waits at once, skipping the pop-back loop
// that holds NO_STEAL_WAIT's line, so with both on NO_STEAL_WAIT would never run.
static_assert(!(block_wait && no_steal_wait), "BLOCK_WAIT and NO_STEAL_WAIT: at most one");

// Not a sabotage: which sleep the pool uses (-DSLEEP=per-worker, chapter 10; latch.hpp picks it).
inline constexpr bool per_worker_sleep = MINI_SLEEP_PER_WORKER;

// "none", or the names of the active switches, for the first line every driver prints.
inline constexpr const char* active = MINI_SABOTAGE_ACTIVE;

} // namespace mini::sabotage
