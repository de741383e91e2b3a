# The comparison benchmark (apps/compare.cpp, chapter 6). Timings are never asserted: the smoke
# test only checks that every workload of every implementation built here computes the right result.
if(TARGET compare)
    mini_add_expect_test(NAME driver.compare.smoke LABELS driver TIMEOUT 120 BROKEN_BY NO_RECHECK BLOCK_WAIT
        COMMAND $<TARGET_FILE:compare> 2 1 --quick EXPECT_EXIT 0 EXPECT_OUTPUT "all results correct")
    # --runtimes without serial: the speedup rows have no baseline and stay empty (they used to
    # take the median of no samples and crash).
    mini_add_expect_test(NAME driver.compare.no_serial LABELS driver TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT
        COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows fib,sum --runtimes mini
        EXPECT_EXIT 0 EXPECT_OUTPUT "fib\\(27\\), cutoff 10 \\[ms\\] +[0-9.]+ \\[.*  speedup over serial.*all results correct")
    # The mini-pw column (the core built with the per-worker sleep, chapter 10), where the build
    # has that copy of the core: every row filled, row by row (label, mini's cell, mini-pw's
    # median [min–max] with its ratio to mini), and mini-pw's own counters under the table.
    if(TARGET mini_pw)
        set(cell "[0-9.]+ \\[[0-9.]+–[0-9.]+\\]")
        set(pair "+${cell} +${cell} ×[0-9.]+")  # mini, mini-pw
        set(per_b "+n/a +(${cell}|no B stolen) +(${cell}|no B stolen)")
        string(CONCAT re "busy 0 +serial +mini +mini-pw +rayon"
            ".*join, fib\\(20\\), 1 thread \\[ns/join\\] ${pair}"
            ".*join, fib\\(20\\), 2 threads \\[ns/join\\] ${pair}"
            ".*fib\\(27\\), cutoff 10 \\[ms\\] ${pair}"
            ".*  sleeps per stolen B ${per_b}.*  notifies per stolen B ${per_b}"
            ".*sum of 65536 u64 \\[ms\\] ${pair}"
            ".*wake-up round trip \\[us/trip\\] +n/a ${pair}"
            ".*  worker sleeps per round trip +n/a +${cell} +${cell}"
            ".*CPU in the 20 ms pause after a job \\[ms\\] +${cell} +${cell}"
            ".*mini's counters per run.*mini-pw's counters per run, median \\[min–max\\]:"
            ".*  join, fib\\(20\\), 2 threads: B stolen .*all results correct")
        mini_add_expect_test(NAME driver.compare.per_worker LABELS driver TIMEOUT 60
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --runtimes mini,mini-pw
            EXPECT_EXIT 0 EXPECT_OUTPUT "${re}")
        # --runtimes takes a name in any case and runs its column (it used to accept MINI-PW or
        # RAYON and leave the column empty): serial's n/a, mini's empty cell, then mini-pw's, then
        # a word, not a figure: the other columns' notes (OpenMP's n/a, or why rayon, oneTBB and
        # OpenMP are absent in this build: under TSan, or on a machine without them).
        mini_add_expect_test(NAME driver.compare.runtimes_case LABELS driver TIMEOUT 60
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows trip --runtimes MINI-PW
            EXPECT_EXIT 0 EXPECT_OUTPUT "wake-up round trip \\[us/trip\\] +n/a +${cell} +[a-z].*all results correct")
    endif()
    # Chapter 11's chains, which run only when --rows names them: every column's result checked,
    # and the limit rows filled in the serial column only.
    mini_add_expect_test(NAME driver.compare.iter LABELS driver TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT REDUCE_SWAPPED
        COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows par_iter,collect_vec,find_any
        EXPECT_EXIT 0 EXPECT_OUTPUT "par_iter: sum of squares of 65536 u64 \\[ms\\] .*\n  limit: serial read of the 512 KiB \\[ms\\] +[0-9.]+ \\[[0-9.]+–[0-9.]+\\]\n.*map, collect_vec of 16384 u64 .*find_any of the item at 3/4 of 65536 u64 .*all results correct")
    # Chapter 15's sorts, which run only when --rows names them: every column's result checked
    # (the sorted order's checksum), the strings row under each.
    mini_add_expect_test(NAME driver.compare.sort LABELS driver TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT MERGE_SPLIT_INCONSISTENT
        COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows par_sort,par_sort_unstable
        EXPECT_EXIT 0 EXPECT_OUTPUT "par_sort of 65536 random u64 \\[ms\\] .*\n  par_sort of 16384 strings \\[ms\\] .*par_sort_unstable of 65536 random u64 \\[ms\\] .*\n  par_sort_unstable of 16384 strings \\[ms\\] .*all results correct")
    # Chapter 13's indexed chains, which also run only when --rows names them: every column's
    # result checked (the dot product, the strip's escape counts, the item found at 1/4 and 3/4).
    set(ix_broken NO_RECHECK BLOCK_WAIT REDUCE_SWAPPED ZIP_UNEVEN_SPLIT FIND_FIRST_ANY CHUNK_SPLIT_UNALIGNED)
    mini_add_expect_test(NAME driver.compare.indexed LABELS driver TIMEOUT 60 BROKEN_BY ${ix_broken}
        COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows zip,par_chunks_mut,find_first
        EXPECT_EXIT 0 EXPECT_OUTPUT "zip: dot product of 2 x 65536 f64 \\[ms\\] .*par_chunks_mut: Mandelbrot strip, 64 rows of 128 \\[ms\\] .*find_first of the item at 1/4 of 65536 u64 \\[ms\\] .*\n  find_first of the item at 3/4 \\[ms\\] .*all results correct")
    # Chapter 14's unindexed chains, which run only when --rows names them: mini and serial
    # checked against the serial answer, the other columns n/a.
    mini_add_expect_test(NAME driver.compare.unindexed LABELS driver TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT FOLD_ONE_ACC
        COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows word_count,filter_map,try_for_each,par_bridge
        EXPECT_EXIT 0 EXPECT_OUTPUT "word_count: fold a hash map per leaf, 65536 u64 \\[ms\\] .*filter_map, collect_vec of 16384 u64 .*try_for_each, error at 3/4 of 65536 u64 .*par_bridge of 1..1024, map, sum .*all results correct")
    mini_add_expect_test(NAME driver.help.compare LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:compare> --help EXPECT_EXIT 0 EXPECT_OUTPUT "Exit codes")
    foreach(case "0" "abc" "2|0" "2|1|--producers|0" "2|1|--bogus" "2|1|--busy|-1" "2|1|--busy|many"
                 "2|1|--busy|257")
        string(REPLACE "|" ";" argv "${case}")
        string(MAKE_C_IDENTIFIER "compare|${case}" id)
        mini_add_expect_test(NAME driver.usage.${id} LABELS driver TIMEOUT 20
            COMMAND $<TARGET_FILE:compare> ${argv} EXPECT_EXIT 2)
    endforeach()

    # rayon's column is filled in every row that rayon has (all but the sleeps it does not count),
    # row by row: the label, serial's cell and mini's, then rayon's median [min–max] ×ratio.
    if(TARGET rayon_side)
        set(cell "[0-9.]+ \\[[0-9.]+–[0-9.]+\\]")
        # mini-pw's cell where the build has it (driver.compare.per_worker); elsewhere its column
        # says why it is empty ("not built with a sabotage (NO_STEAL_WAIT): ...", no figure).
        set(pw " +not built[^0-9]*")
        set(pw_plain "${pw}")
        if(TARGET mini_pw)
            set(pw " +${cell} ×[0-9.]+")
            set(pw_plain " +${cell}")
        endif()
        set(timed "+${cell} ×[0-9.]+ +${cell}${pw} +${cell} ×")  # serial, mini, mini-pw, rayon
        set(trips "+n/a +${cell}${pw} +${cell} ×")               # n/a, mini, mini-pw, rayon
        set(speedup "  speedup over serial +\\(baseline\\) +[0-9.]+x( +not built[^0-9]*)? +[0-9.]+x")
        string(CONCAT re "serial +mini +(mini-pw +)?rayon +oneTBB"
            ".*join, fib\\(20\\), 1 thread \\[ns/join\\] ${timed}"
            ".*join, fib\\(20\\), 2 threads \\[ns/join\\] ${timed}"
            ".*fib\\(27\\), cutoff 10 \\[ms\\] ${timed}.*${speedup}"
            ".*sum of 65536 u64 \\[ms\\] ${timed}.*${speedup}"
            ".*wake-up round trip \\[us/trip\\] ${trips}"
            ".*  CPU per round trip \\[us/trip\\] ${trips}"
            ".*  worker sleeps per round trip +n/a +${cell}${pw_plain} +not counted"
            ".*CPU in the 20 ms pause after a job \\[ms\\] +${cell} +${cell}${pw_plain} +${cell}"
            ".*all results correct")
        # The iterator rows: rayon's own par_iter beside mini in each (median [min–max] ×ratio).
        string(CONCAT iter_re "par_iter: sum of squares of 65536 u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*map, collect_vec of 16384 u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*find_any of the item at 3/4 of 65536 u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*all results correct")
        mini_add_expect_test(NAME rayon.compare.iter LABELS rayon TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT REDUCE_SWAPPED
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows par_iter,collect_vec,find_any
            EXPECT_EXIT 0 EXPECT_OUTPUT "${iter_re}")
        # The sort rows: rayon's own par_sort and par_sort_unstable beside mini in each.
        string(CONCAT sort_re "par_sort of 65536 random u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*  par_sort of 16384 strings \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*par_sort_unstable of 65536 random u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*  par_sort_unstable of 16384 strings \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*all results correct")
        mini_add_expect_test(NAME rayon.compare.sort LABELS rayon TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT MERGE_SPLIT_INCONSISTENT
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows par_sort,par_sort_unstable
            EXPECT_EXIT 0 EXPECT_OUTPUT "${sort_re}")
        # The indexed rows: rayon's own zip, par_chunks_mut and find_first beside mini in each.
        string(CONCAT ix_re "zip: dot product of 2 x 65536 f64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*par_chunks_mut: Mandelbrot strip, 64 rows of 128 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*find_first of the item at 1/4 of 65536 u64 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*  find_first of the item at 3/4 \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×"
            ".*all results correct")
        mini_add_expect_test(NAME rayon.compare.indexed LABELS rayon TIMEOUT 60 BROKEN_BY ${ix_broken}
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows zip,par_chunks_mut,find_first
            EXPECT_EXIT 0 EXPECT_OUTPUT "${ix_re}")
        # Chapter 14's chains: rayon's same chains beside mini's, every result checked.
        mini_add_expect_test(NAME rayon.compare.unindexed LABELS rayon TIMEOUT 60 BROKEN_BY NO_RECHECK BLOCK_WAIT FOLD_ONE_ACC
            COMMAND $<TARGET_FILE:compare> 2 1 --quick --rows word_count,filter_map,try_for_each,par_bridge
            EXPECT_EXIT 0 EXPECT_OUTPUT "par_bridge of 1..1024, map, sum \\[ms\\] +${cell} ×[0-9.]+ +${cell} +(n/a|not built[a-zA-Z_ ():=-]*) +${cell} ×.*all results correct")
        mini_add_expect_test(NAME rayon.compare.smoke LABELS rayon TIMEOUT 120 BROKEN_BY NO_RECHECK BLOCK_WAIT
            COMMAND $<TARGET_FILE:compare> 2 1 --quick EXPECT_EXIT 0 EXPECT_OUTPUT "${re}")
        # The diagnostics chapter 6 reads the fib row with: medians by the column measured just
        # before (--carryover), and where mini's and rayon's leaves ran (--placement), both
        # split by that column; --order rotate is the order they were compared with.
        string(CONCAT diag "after-effects: median of each column by the column measured just before it"
            ".*  fib\\(27\\), cutoff 10 \\[ms\\], mini; after [a-zA-Z]+ [0-9.]+ n [0-9]+"
            ".*placement \\(--placement\\), fib:"
            ".*  mini after [a-zA-Z]+: [0-9]+ runs; second thread after "
            ".*  rayon after [a-zA-Z]+: [0-9]+ runs; second thread after "
            ".*all results correct")
        mini_add_expect_test(NAME rayon.compare.diagnostics LABELS rayon TIMEOUT 120 BROKEN_BY NO_RECHECK BLOCK_WAIT
            COMMAND $<TARGET_FILE:compare> 2 3 --quick --rows fib --runtimes serial,mini,rayon
                    --order rotate --carryover --placement
            EXPECT_EXIT 0 EXPECT_OUTPUT "${diag}")
    endif()
endif()

# apps/compare_instructions.py (instructions per join and per round trip, under callgrind): its
# parsers' self-test always; the script itself needs valgrind and a minute, so it is run by hand.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
    mini_add_test(NAME compare_instructions.selftest LABELS tooling TIMEOUT 30
        COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/apps/compare_instructions.py --self-test)
endif()
