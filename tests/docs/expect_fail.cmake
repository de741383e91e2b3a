# expect_fail.cmake -- run snippets.cmake on a fixture and require that it
# FAILS for the expected reason.
#
#   cmake -DSNIPPETS=<cmake/snippets.cmake> -DMODE=check|update
#         (-DROOT=<dir> | -DFIXTURE_DIR=<dir> -DFIXTURES=a,b -DWORK=<dir>)
#         -DEXPECT_1=<regex> [-DEXPECT_2=<regex> ... -DEXPECT_9=<regex>]
#         [-DNO_SUMMARY=ON] -P expect_fail.cmake
#
# Passes only if the exit code is non-zero, every EXPECT_n regex matches the
# combined stdout+stderr and (unless NO_SUMMARY) the summary line reports at
# least one problem -- so a crash or an unrelated error does not pass.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/fixture_root.cmake")

if(NOT DEFINED SNIPPETS)
  message(FATAL_ERROR "pass -DSNIPPETS=<path to cmake/snippets.cmake>")
endif()
if(NOT DEFINED MODE)
  set(MODE check)
endif()
if(NOT DEFINED EXPECT_1)
  message(FATAL_ERROR "pass at least -DEXPECT_1=<regex>")
endif()

snippets_fixture_root(root)
snippets_run("${MODE}" "${root}" rc out)

set(bad "")
if(rc EQUAL 0)
  string(APPEND bad "  expected a non-zero exit code, got 0\n")
endif()
if(NOT NO_SUMMARY AND
   NOT out MATCHES "snippets: [0-9]+ blocks checked in [0-9]+ chapters, [^\n]*[1-9][0-9]* problems\n")
  string(APPEND bad "  no summary line reporting problems (did the script crash?)\n")
endif()
foreach(i RANGE 1 9)
  if(DEFINED EXPECT_${i} AND NOT out MATCHES "${EXPECT_${i}}")
    string(APPEND bad "  output does not match EXPECT_${i}: ${EXPECT_${i}}\n")
  endif()
endforeach()
if(NOT bad STREQUAL "")
  message(FATAL_ERROR "expect_fail: FAILED\n${bad}")
endif()
message("expect_fail: ok (failed as expected)")
