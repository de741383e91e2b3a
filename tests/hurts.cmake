# The driver hurts (apps/hurts.cpp, chapter 17): the programs rayon users report as bugs. Timings
# are never asserted: the tests check the command line, that `hurts lock` deadlocks on itself in
# every run (the watchdog's exit 3 and its exact message: the lock, the job that holds it, the
# job stolen while it waited), that its fix runs, and that tiny runs of the measured cases exit 0
# with their results checked.
if(TARGET hurts)
    mini_add_expect_test(NAME driver.help.hurts LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:hurts> --help EXPECT_EXIT 0 EXPECT_OUTPUT "Exit codes")
    mini_add_expect_test(NAME driver.hurts.list LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:hurts> --list EXPECT_EXIT 0
        EXPECT_OUTPUT "^lock\nsmall\nblocking\npanic\n$")
    foreach(case "bogus" "small|0" "small|2|0" "small|2|1|--up-to|3" "small|2|1|--min-len|0"
                 "blocking|2|1|--io-jobs|0" "blocking|0" "panic|2|1|--n|1" "lock|--watchdog|0"
                 "lock|extra")
        string(REPLACE "|" ";" argv "${case}")
        string(MAKE_C_IDENTIFIER "hurts|${case}" id)
        mini_add_expect_test(NAME driver.usage.${id} LABELS driver TIMEOUT 20
            COMMAND $<TARGET_FILE:hurts> ${argv} EXPECT_EXIT 2)
    endforeach()

    # rayon #592, forced by hand-offs: the worker that holds table_lock in update_table waits in
    # join for its stolen half, runs insert_row from the injector, and waits on itself. Without
    # the wait that runs other jobs (NO_STEAL_WAIT, BLOCK_WAIT) nobody runs insert_row at all.
    mini_add_expect_test(NAME driver.hurts.lock LABELS driver TIMEOUT 30
        BROKEN_BY NO_STEAL_WAIT BLOCK_WAIT
        COMMAND $<TARGET_FILE:hurts> lock --watchdog 1
        EXPECT_EXIT 3
        EXPECT_OUTPUT "WATCHDOG: no progress for 1.0 s while hurts lock: worker [0-9]+ holds `table_lock` \\(taken in `update_table`\\) and waits for it again in `insert_row`, a job it stole while it waited in join: it waits on itself\n")
    mini_add_expect_test(NAME driver.hurts.lock_fixed LABELS driver TIMEOUT 30
        BROKEN_BY NO_STEAL_WAIT BLOCK_WAIT
        COMMAND $<TARGET_FILE:hurts> lock --fixed --watchdog 10
        EXPECT_EXIT 0 EXPECT_OUTPUT "\ntable: 3 rows, both updates in\n$")

    set(broken NO_RECHECK BLOCK_WAIT TOUCH_AFTER_SET REDUCE_SWAPPED)
    set(crossover "")
    if(TARGET rayon_side)
        set(crossover "  rayon par_iter: [^\n]+\n  rayon with_min_len\\(64\\): [^\n]+\n")
    endif()
    mini_add_expect_test(NAME driver.hurts.small LABELS driver TIMEOUT 60 BROKEN_BY ${broken}
        COMMAND $<TARGET_FILE:hurts> small 2 1 --up-to 8 --min-len 64
        EXPECT_EXIT 0
        EXPECT_OUTPUT "\nn = 2\\^4, par_iter \\[ns\\] [^\n]+\n  speedup over serial [^\n]+\nn = 2\\^4, with_min_len\\(64\\) \\[ns\\] [^\n]+\n.*\nn = 2\\^8, with_min_len\\(64\\) [^\n]+\n  speedup[^\n]+\n\\[a–b\\][^\n]+\ncrossover:[^\n]+\n  mini par_iter: [^\n]+\n  mini with_min_len\\(64\\): [^\n]+\n${crossover}all sums equal\n$")
    mini_add_expect_test(NAME driver.hurts.blocking LABELS driver TIMEOUT 60 BROKEN_BY ${broken}
        COMMAND $<TARGET_FILE:hurts> blocking 2 1 --cpu-jobs 20 --io-jobs 2 --io-ms 5 --work 1000
        EXPECT_EXIT 0
        EXPECT_OUTPUT "\nCPU jobs alone +[0-9.]+ [^\n]+\nCPU jobs beside blocking jobs, one pool +[0-9.]+ [^\n]+\nblocking jobs on a pool of their own +[0-9.]+ [^\n]+\n[^\n]*Every CPU job ran in every run.\n$")
    mini_add_expect_test(NAME driver.hurts.panic LABELS driver TIMEOUT 60
        BROKEN_BY ${broken}
        COMMAND $<TARGET_FILE:hurts> panic 2 2 --n 4096 --work 10
        EXPECT_EXIT 0
        EXPECT_OUTPUT "\nplain +[0-9]+ [^\n]+\npanic_fuse\\(\\) +[0-9]+ [^\n]+\n[^\n]*The caller caught item 0's std::out_of_range in every run.\n$")
endif()
