# cmake -DEXPECT_EXIT=N [-DEXPECT_OUTPUT=regex] -DTIMEOUT=s -P expect.cmake -- command args...
# The strict "reverse test" runner: the command must exit with exactly EXPECT_EXIT (so a crash,
# an abort, a sanitizer report or a different failure does not count) and, if EXPECT_OUTPUT is
# set, its stdout+stderr must match it. A hang is killed after TIMEOUT seconds and fails.
# EXPECT_EXIT=abort wants death by SIGABRT (std::abort), which CMake reports as "Subprocess aborted".
set(cmd "")
set(seen_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
    if(seen_separator)
        list(APPEND cmd "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
        set(seen_separator TRUE)
    endif()
endforeach()
if(NOT cmd OR NOT DEFINED EXPECT_EXIT OR NOT DEFINED TIMEOUT)
    message(FATAL_ERROR "usage: cmake -DEXPECT_EXIT=N [-DEXPECT_OUTPUT=re] -DTIMEOUT=s -P expect.cmake -- cmd...")
endif()

string(JOIN " " shown ${cmd})
message("expect: running ${shown}")
message("expect: want exit ${EXPECT_EXIT}, output matching /${EXPECT_OUTPUT}/")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${TIMEOUT})
message("----- stdout -----\n${out}----- stderr -----\n${err}------------------")

set(want "${EXPECT_EXIT}")
if(EXPECT_EXIT STREQUAL "abort")
    set(want "Subprocess aborted")
endif()
if(NOT rc STREQUAL want)
    message(FATAL_ERROR "expect: wanted exit ${EXPECT_EXIT}, got '${rc}'")
endif()
if(NOT EXPECT_OUTPUT STREQUAL "" AND NOT "${out}${err}" MATCHES "${EXPECT_OUTPUT}")
    message(FATAL_ERROR "expect: exit ${rc} as wanted, but the output does not match /${EXPECT_OUTPUT}/")
endif()
message("expect: PASS (exit ${rc})")
