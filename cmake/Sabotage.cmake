# The sabotage switches. Each one changes one spot of the mechanism, an `if constexpr` beside the
# right code (it skips, replaces or adds a line or a short block); src/mini/sabotage.hpp turns
# them into constexpr bools.
option(NO_RECHECK      "pool: a worker going to sleep skips the re-check for work"  OFF)
option(BLOCK_WAIT      "join: block on B's latch instead of popping B back"          OFF)
option(NO_STEAL_WAIT   "join: pop B back, but wait for a stolen B without working"   OFF)
option(IGNORE_MIGRATED "splitter: try_split ignores the migrated flag"               OFF)
option(TOUCH_AFTER_SET "latch: SpinLatch::set reads the latch after setting it"     OFF)
option(BLOCK_CROSS     "pools: a worker calling into another pool blocks its thread" OFF)
option(COUNT_AFTER_PUSH "scope: spawn counts a job after publishing it"              OFF)
option(RETHROW_EARLY   "join: A's exception leaves at once, without waiting for B"    OFF)
option(SKIP_LATCH_SLEEPY "per-worker sleep: fall asleep although the latch was set while sleepy" OFF)
option(SKIP_JEC_CHECK  "per-worker sleep: fall asleep without comparing the jobs event counter" OFF)
option(IGNORE_FULL     "par_iter: the bridge and the leaves never ask the consumer full()" OFF)
option(REDUCE_SWAPPED  "par_iter: the bridge reduces right before left"               OFF)
option(COLLECT_NO_RELEASE "par_iter: collect's result keeps ownership after the vector takes it" OFF)
option(BROADCAST_VIA_INJECTOR "broadcast: the N copies go into the shared injector, not one per worker" OFF)
option(NO_BROADCAST_WAKE "broadcast: push the copies into the workers' queues but wake nobody" OFF)
option(ZIP_UNEVEN_SPLIT "zip: the second producer is cut one item after the first"  OFF)
option(FIND_FIRST_ANY  "find_first: any match anywhere stops a leaf, left of it or not" OFF)
option(CHUNK_SPLIT_UNALIGNED "par_chunks: the slice is cut half a chunk before a chunk boundary" OFF)

set(MINI_SABOTAGES NO_RECHECK BLOCK_WAIT NO_STEAL_WAIT IGNORE_MIGRATED TOUCH_AFTER_SET
    BLOCK_CROSS COUNT_AFTER_PUSH RETHROW_EARLY SKIP_LATCH_SLEEPY SKIP_JEC_CHECK
    IGNORE_FULL REDUCE_SWAPPED COLLECT_NO_RELEASE BROADCAST_VIA_INJECTOR NO_BROADCAST_WAKE
    ZIP_UNEVEN_SPLIT FIND_FIRST_ANY CHUNK_SPLIT_UNALIGNED)

if(BLOCK_WAIT AND NO_STEAL_WAIT)
    message(FATAL_ERROR
        "BLOCK_WAIT and NO_STEAL_WAIT both change how join's owner waits for B: BLOCK_WAIT waits "
        "at once and skips the pop-back loop that holds NO_STEAL_WAIT's line, so NO_STEAL_WAIT "
        "would never run; turn on at most one of them.")
endif()

# Which sleep the pool uses: not a sabotage. `pool`, the seed's one mutex and condition variable
# (sleep.hpp, chapter 2); `per-worker`, rayon's since 1.8 (worker_sleep.hpp, chapter 10).
set(SLEEP "pool" CACHE STRING "the pool's sleep: pool (one mutex and condvar) or per-worker (rayon's)")
set_property(CACHE SLEEP PROPERTY STRINGS pool per-worker)
if(NOT SLEEP MATCHES "^(pool|per-worker)$")
    message(FATAL_ERROR "SLEEP must be pool or per-worker, got '${SLEEP}'")
endif()
if((SKIP_LATCH_SLEEPY OR SKIP_JEC_CHECK) AND NOT SLEEP STREQUAL "per-worker")
    message(FATAL_ERROR
        "SKIP_LATCH_SLEEPY and SKIP_JEC_CHECK break lines of the per-worker sleep: configure "
        "them with -DSLEEP=per-worker (the pool's sleep has neither line).")
endif()
message(STATUS "mini-rayon: sleep: ${SLEEP}")

set(MINI_ACTIVE_SABOTAGE "")
foreach(s IN LISTS MINI_SABOTAGES)
    if(${s})
        list(APPEND MINI_ACTIVE_SABOTAGE ${s})
    endif()
endforeach()
if(MINI_ACTIVE_SABOTAGE)
    message(STATUS "mini-rayon: SABOTAGE ACTIVE: ${MINI_ACTIVE_SABOTAGE} (this build is broken on purpose)")
else()
    message(STATUS "mini-rayon: no sabotage active")
endif()
