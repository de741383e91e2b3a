# roundtrip.cmake -- copy fixtures into WORK, run MODE=update, then require
#  * update succeeded and reported UPDATED blocks updated,
#  * a following check passes and a second update changes nothing,
#  * every file of the GOOD fixture is byte-identical in WORK.
#
#   cmake -DSNIPPETS=... -DFIXTURE_DIR=... -DFIXTURES=good,stale -DWORK=...
#         -DGOOD=good -DUPDATED=3 -P roundtrip.cmake
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/fixture_root.cmake")
foreach(v SNIPPETS GOOD UPDATED)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "pass -D${v}=...")
  endif()
endforeach()

snippets_fixture_root(root)

snippets_run(update "${root}" rc out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "roundtrip: update failed (exit ${rc})")
endif()
if(NOT out MATCHES ", ${UPDATED} blocks updated, 0 problems\n")
  message(FATAL_ERROR "roundtrip: expected ${UPDATED} blocks updated")
endif()

snippets_run(check "${root}" rc out)
if(NOT rc EQUAL 0 OR NOT out MATCHES ", 0 problems\n")
  message(FATAL_ERROR "roundtrip: check after update failed (exit ${rc})")
endif()

snippets_run(update "${root}" rc out)
if(NOT rc EQUAL 0 OR NOT out MATCHES ", 0 blocks updated, 0 problems\n")
  message(FATAL_ERROR "roundtrip: second update was not a no-op")
endif()

file(GLOB_RECURSE files RELATIVE "${FIXTURE_DIR}/${GOOD}" "${FIXTURE_DIR}/${GOOD}/*")
set(n 0)
foreach(f IN LISTS files)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
                          "${FIXTURE_DIR}/${GOOD}/${f}" "${root}/${f}"
                  RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "roundtrip: ${root}/${f} differs from fixture ${GOOD}/${f}")
  endif()
  math(EXPR n "${n} + 1")
endforeach()
if(n EQUAL 0)
  message(FATAL_ERROR "roundtrip: fixture ${GOOD} has no files")
endif()
message("roundtrip: ok (${n} files byte-identical to ${GOOD})")
