# The comparison benchmark (apps/compare.cpp, chapter 5). Timings are never asserted: the smoke
# test only checks that every workload of every implementation built here computes the right result.
if(TARGET compare)
    mini_add_expect_test(NAME driver.compare.smoke LABELS driver TIMEOUT 120 BROKEN_BY NO_RECHECK BLOCK_WAIT
        COMMAND $<TARGET_FILE:compare> 2 1 --quick EXPECT_EXIT 0 EXPECT_OUTPUT "all results correct")
    mini_add_expect_test(NAME driver.help.compare LABELS driver TIMEOUT 20
        COMMAND $<TARGET_FILE:compare> --help EXPECT_EXIT 0 EXPECT_OUTPUT "Exit codes")
    foreach(case "0" "abc" "2|0" "2|1|--producers|0" "2|1|--bogus")
        string(REPLACE "|" ";" argv "${case}")
        string(MAKE_C_IDENTIFIER "compare|${case}" id)
        mini_add_expect_test(NAME driver.usage.${id} LABELS driver TIMEOUT 20
            COMMAND $<TARGET_FILE:compare> ${argv} EXPECT_EXIT 2)
    endforeach()
endif()
