# Included by expect_fail.cmake and roundtrip.cmake.
#
# snippets_fixture_root(<out-var>)
#   ROOT given            -> use it as is (check mode never writes)
#   FIXTURES=a,b,...      -> copy FIXTURE_DIR/a, then FIXTURE_DIR/b, ... over
#                            each other into WORK (a fresh directory) and use
#                            that; later fixtures overwrite earlier files, so
#                            "good,stale" is the good tree with stale chapters.
function(snippets_fixture_root out)
  if(DEFINED ROOT)
    set(${out} "${ROOT}" PARENT_SCOPE)
    return()
  endif()
  foreach(v FIXTURES FIXTURE_DIR WORK)
    if(NOT DEFINED ${v})
      message(FATAL_ERROR "pass -D${v}=... (or -DROOT=...)")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  string(REPLACE "," ";" fixtures "${FIXTURES}")
  foreach(f IN LISTS fixtures)
    if(NOT IS_DIRECTORY "${FIXTURE_DIR}/${f}")
      message(FATAL_ERROR "no fixture '${FIXTURE_DIR}/${f}'")
    endif()
    # Not file(COPY): it skips a file whose destination has the same mtime,
    # and a fresh git clone gives good/x.md and stale/x.md the same mtime.
    file(GLOB_RECURSE files RELATIVE "${FIXTURE_DIR}/${f}" "${FIXTURE_DIR}/${f}/*")
    foreach(rel IN LISTS files)
      get_filename_component(dir "${WORK}/${rel}" DIRECTORY)
      file(MAKE_DIRECTORY "${dir}")
      file(COPY_FILE "${FIXTURE_DIR}/${f}/${rel}" "${WORK}/${rel}")
    endforeach()
  endforeach()
  set(${out} "${WORK}" PARENT_SCOPE)
endfunction()

# snippets_run(<mode> <root> <rc-var> <output-var>): run the script, echo output.
function(snippets_run mode root rc_var out_var)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" "-DROOT=${root}" "-DMODE=${mode}" -P "${SNIPPETS}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
  message("---- snippets.cmake MODE=${mode} ROOT=${root} (exit ${rc})\n${out}----")
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
