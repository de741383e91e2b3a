# rayon-demo's programs beside rayon (apps/demos.cpp, issue 50). Timings are never asserted: the
# tests check the command line, the list of programs and that a tiny run's results are equal in
# every column built here (serial, mini and, where it is built, rayon), program by program.
if(TARGET demos)
    mini_add_expect_test(NAME driver.help.demos LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:demos> --help EXPECT_EXIT 0 EXPECT_OUTPUT "Exit codes")
    mini_add_expect_test(NAME driver.demos.list LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:demos> --list EXPECT_EXIT 0
        EXPECT_OUTPUT "^quicksort\nmergesort\npythagoras\npythagoras_faux_serial\npythagoras_full\nlife\nnbody\nnbody_reduce\nsieve\n$")
    foreach(case "0" "abc" "2|0" "2|1|--only|bogus" "2|1|--only|life,bogus" "2|1|--size|huge"
                 "2|1|--busy|-1" "2|1|--busy|257" "2|1|--watchdog|0")
        string(REPLACE "|" ";" argv "${case}")
        string(MAKE_C_IDENTIFIER "demos|${case}" id)
        mini_add_expect_test(NAME driver.usage.${id} LABELS driver TIMEOUT 20
            COMMAND $<TARGET_FILE:demos> ${argv} EXPECT_EXIT 2)
    endforeach()

    # Every program's three rows, in order: its time in each column, the speedup, and the result
    # row that names the columns whose results were equal in every run.
    set(who "serial = mini")
    if(TARGET rayon_side)
        set(who "serial = mini = rayon")
    endif()
    set(re "")
    foreach(label "quicksort, 150000 u32" "mergesort, 150000 u32"
                  "pythagoras, c <= 90000, no length hint"
                  "pythagoras, c <= 90000, with_min_len\\(max\\) both"
                  "pythagoras, c <= 90000, with_max_len\\(1\\) both" "life, 40x40, 10 generations"
                  "nbody, tick_par, 100 bodies, 3 ticks" "nbody, tick_par_reduce, 100 bodies, 3 ticks"
                  "sieve, primes below 10\\^6")
        string(APPEND re "\n${label} \\[ms\\] +[0-9.]+ \\[[0-9.]+–[0-9.]+\\] ×[0-9.]+ +[0-9.]+ "
                         "[^\n]*\n  speedup over serial +\\(baseline\\) [^\n]*\n  result: ${who} +[0-9a-f]+ [^\n]*")
    endforeach()
    mini_add_expect_test(NAME driver.demos.small LABELS driver TIMEOUT 120
        BROKEN_BY NO_RECHECK BLOCK_WAIT TOUCH_AFTER_SET REDUCE_SWAPPED COLLECT_NO_RELEASE
        ZIP_UNEVEN_SPLIT CHUNK_SPLIT_UNALIGNED
        COMMAND $<TARGET_FILE:demos> 2 2 --size small
        EXPECT_EXIT 0 EXPECT_OUTPUT "${re}.*\nall results equal\n")
    # --only runs the programs it names, and only them, in the list's order.
    mini_add_expect_test(NAME driver.demos.only LABELS driver TIMEOUT 60
        BROKEN_BY NO_RECHECK BLOCK_WAIT TOUCH_AFTER_SET REDUCE_SWAPPED COLLECT_NO_RELEASE
        ZIP_UNEVEN_SPLIT CHUNK_SPLIT_UNALIGNED
        COMMAND $<TARGET_FILE:demos> 1 1 --size small --only life,quicksort
        EXPECT_EXIT 0
        EXPECT_OUTPUT "busy 0 +serial +mini +rayon\nquicksort, [^\n]*\n[^\n]*\n  result: ${who} [^\n]*\nlife, [^\n]*\n[^\n]*\n  result: ${who} [^\n]*\n\\[a–b\\].*all results equal\n")
endif()

# apps/sched_waits.py (where the kernel ran the threads of a traced run, chapter 16): its parser's
# self-test; the trace itself needs root and tracefs, so it is taken by hand.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
    mini_add_test(NAME sched_waits.selftest LABELS tooling TIMEOUT 30
        COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/apps/sched_waits.py --self-test)
endif()
