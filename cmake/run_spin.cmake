# run_spin.cmake -- run one SPIN model-checking variant and judge the verdict.
#
#   cmake -DMODEL=<path.pml> -DVARIANT=<none|NO_RECHECK|NO_FENCE|...>
#         -DEXPECT=<ok|error> -DWORKDIR=<dir> -P run_spin.cmake
#
# Steps: spin -a [-D<VARIANT>] model.pml ; cc -O2 -w -o pan pan.c ; ./pan
# pan's default (safety) mode checks assertions and invalid end states, which
# is where a deadlock shows up. The verdict comes from the error count on
# pan's "State-vector ... errors: N" line, not from the words
# "invalid end states +" (that line is printed even when N is 0).
#   EXPECT=ok     N == 0 and the search was not cut short by the depth limit
#   EXPECT=error  N >= 1 and the error was "invalid end state (at depth ...)"
# Optional -DEXPECT_TRAIL=<text>: with EXPECT=error, the error may be any pan reports (an
# assertion, say), but the replayed trail (spin -t -p) must contain <text> literally.

cmake_minimum_required(VERSION 3.20)

foreach(var MODEL VARIANT EXPECT WORKDIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_spin: -D${var}=... is required "
      "(usage: cmake -DMODEL=m.pml -DVARIANT=none|NAME -DEXPECT=ok|error "
      "-DWORKDIR=dir -P run_spin.cmake)")
  endif()
endforeach()
if(NOT EXPECT MATCHES "^(ok|error)$")
  message(FATAL_ERROR "run_spin: EXPECT must be 'ok' or 'error', got '${EXPECT}'")
endif()
if(VARIANT STREQUAL "none")
  set(define "")
elseif(VARIANT MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
  set(define "-D${VARIANT}")
else()
  message(FATAL_ERROR "run_spin: VARIANT must be 'none' or a macro name, got '${VARIANT}'")
endif()
if(NOT EXISTS "${MODEL}")
  message(FATAL_ERROR "run_spin: model file not found: ${MODEL}")
endif()

find_program(SPIN_EXE spin)
if(NOT SPIN_EXE)
  message(FATAL_ERROR "run_spin: 'spin' not found on PATH; install it with "
    "'apt-get install -y spin' (Debian/Ubuntu package 'spin')")
endif()
find_program(CC_EXE NAMES cc gcc clang)
if(NOT CC_EXE)
  message(FATAL_ERROR "run_spin: no C compiler (cc) found to build pan.c; install "
    "one with 'apt-get install -y gcc'")
endif()

# Fresh work directory; the model is copied in so that pan.c, pan and the
# .trail file all land here and never in the source tree.
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
get_filename_component(model_name "${MODEL}" NAME)
file(COPY "${MODEL}" DESTINATION "${WORKDIR}")

# run(<label> <cmd>...): run in WORKDIR, print output, stop on non-zero exit. Each step takes a
# second on an idle machine; the generous timeout is for a loaded one (cc pan.c took over 30 s).
function(run label)
  execute_process(COMMAND ${ARGN}
    WORKING_DIRECTORY "${WORKDIR}" TIMEOUT 150
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(run_out "${out}${err}" PARENT_SCOPE)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "run_spin: ${label} failed (exit ${rc}): ${ARGN}\n${out}${err}")
  endif()
endfunction()

message(STATUS "run_spin: ${model_name} variant=${VARIANT} expect=${EXPECT} in ${WORKDIR}")
run("spin -a" "${SPIN_EXE}" -a ${define} "${model_name}")
run("cc pan.c" "${CC_EXE}" -O2 -w -o pan pan.c)
# pan exits 0 whether or not it found an error; the output is what counts.
run("./pan" ./pan -m100000)
set(pan_out "${run_out}")
message(STATUS "pan output:\n${pan_out}")

if(NOT pan_out MATCHES "State-vector [^\n]*errors: ([0-9]+)")
  message(FATAL_ERROR "run_spin: no 'State-vector ... errors: N' line in pan's output "
    "(pan did not finish?)")
endif()
set(errors "${CMAKE_MATCH_1}")

if(EXPECT STREQUAL "ok")
  if(NOT errors EQUAL 0)
    # Show the counterexample to make the failure readable.
    execute_process(COMMAND "${SPIN_EXE}" -t -p ${define} "${model_name}"
      WORKING_DIRECTORY "${WORKDIR}" TIMEOUT 150 OUTPUT_VARIABLE trail ERROR_VARIABLE trail)
    message(STATUS "counterexample (spin -t -p ${define} ${model_name}):\n${trail}")
    message(FATAL_ERROR "run_spin: FAIL: expected no errors for variant ${VARIANT}, "
      "pan reported errors: ${errors}")
  endif()
  if(pan_out MATCHES "max search depth too small")
    message(FATAL_ERROR "run_spin: FAIL: errors: 0 but the search hit the depth "
      "limit (-m), so the state space was not fully explored")
  endif()
  message(STATUS "run_spin: PASS: variant ${VARIANT}: errors: 0 as expected")
else()
  if(errors EQUAL 0)
    message(FATAL_ERROR "run_spin: FAIL: expected pan to find an error for variant "
      "${VARIANT}, but it reported errors: 0")
  endif()
  if(NOT DEFINED EXPECT_TRAIL AND NOT pan_out MATCHES "invalid end state \\(at depth")
    message(FATAL_ERROR "run_spin: FAIL: pan reported errors: ${errors} for variant "
      "${VARIANT}, but not an invalid end state (deadlock); see output above")
  endif()
  execute_process(COMMAND "${SPIN_EXE}" -t -p ${define} "${model_name}"
    WORKING_DIRECTORY "${WORKDIR}" TIMEOUT 150 OUTPUT_VARIABLE trail ERROR_VARIABLE trail)
  message(STATUS "counterexample (spin -t -p ${define} ${model_name}):\n${trail}")
  if(DEFINED EXPECT_TRAIL)
    string(FIND "${trail}" "${EXPECT_TRAIL}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "run_spin: FAIL: the trail of variant ${VARIANT} does not contain "
        "'${EXPECT_TRAIL}'; see the counterexample above")
    endif()
  endif()
  if(DEFINED EXPECT_TRAIL)
    message(STATUS "run_spin: PASS: variant ${VARIANT}: errors: ${errors}, the trail says "
      "'${EXPECT_TRAIL}' as expected")
  else()
    message(STATUS "run_spin: PASS: variant ${VARIANT}: invalid end state found "
      "(errors: ${errors}) as expected")
  endif()
endif()
