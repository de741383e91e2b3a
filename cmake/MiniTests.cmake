# How tests are registered, per preset.
#
# A correctness test names the sabotage switches that break it (BROKEN_BY); in a build with one
# of them ON it is not registered at all. A reverse test names the one switch it demonstrates and
# is registered only in that build; it passes on the exact documented symptom and nothing else
# (see cmake/expect.cmake). Every test carries its own TIMEOUT.

set(MINI_EXPECT_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

function(_mini_broken out)
    set(broken FALSE)
    foreach(s IN LISTS ARGN)
        if(${s})
            set(broken TRUE)
        endif()
    endforeach()
    set(${out} ${broken} PARENT_SCOPE)
endfunction()

# In a cross build (cmake/toolchain-aarch64.cmake) a command that starts with one of our
# programs, $<TARGET_FILE:...>, runs under the emulator: ctest adds it only in front of a bare
# target name, and the expect runner below starts the program itself. A host tool named by an
# imported target (Python3::Interpreter) must not: ctest would add the emulator to it too.
function(_mini_emulated cmd_var)
    if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
        return()
    endif()
    set(cmd ${${cmd_var}})
    list(GET cmd 0 program)
    if(TARGET ${program})
        get_target_property(imported ${program} IMPORTED)
        if(imported)
            list(POP_FRONT cmd)
            set(${cmd_var} "$<TARGET_FILE:${program}>" ${cmd} PARENT_SCOPE)
        endif()
    elseif(program MATCHES "^\\$<TARGET_FILE:")
        set(${cmd_var} ${CMAKE_CROSSCOMPILING_EMULATOR} ${cmd} PARENT_SCOPE)
    endif()
endfunction()

# The test presets run two tests at a time (CMakePresets.json: jobs 2), but a test that starts a
# program of ours runs alone (RUN_SERIAL), as on an idle machine: no forced hand-off, watchdog or
# timeout of ours races a neighbour for the two cores. Only tests that run none of our programs
# share the cores: the models (label model: spin, GenMC), the tools' self-tests (tooling) and the
# docs checks that read files only (PARALLEL below).
function(_mini_serial name labels parallel)
    if(NOT parallel AND NOT labels MATCHES "^(model|tooling)$")
        set_tests_properties(${name} PROPERTIES RUN_SERIAL TRUE)
    endif()
endfunction()

# mini_add_test(NAME n COMMAND cmd... TIMEOUT s LABELS l... [BROKEN_BY switch...] [PARALLEL])
# PARALLEL: the command runs no program of ours, so it may share the cores (see above).
function(mini_add_test)
    cmake_parse_arguments(T "PARALLEL" "NAME;TIMEOUT" "COMMAND;LABELS;BROKEN_BY" ${ARGN})
    _mini_broken(broken ${T_BROKEN_BY})
    if(broken)
        return()
    endif()
    _mini_emulated(T_COMMAND)
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}")
    _mini_serial(${T_NAME} "${T_LABELS}" ${T_PARALLEL})
endfunction()

# mini_add_expect_test(NAME n COMMAND cmd... TIMEOUT s LABELS l... EXPECT_EXIT code
#                      [EXPECT_OUTPUT regex] [BROKEN_BY switch...])
# Passes only if the command exits with exactly EXPECT_EXIT and (if given) its output matches
# EXPECT_OUTPUT. A crash, another exit code or a hang (killed 5 s before the ctest timeout) fails.
function(mini_add_expect_test)
    cmake_parse_arguments(T "" "NAME;TIMEOUT;EXPECT_EXIT;EXPECT_OUTPUT" "COMMAND;LABELS;BROKEN_BY" ${ARGN})
    _mini_broken(broken ${T_BROKEN_BY})
    if(broken)
        return()
    endif()
    math(EXPR inner "${T_TIMEOUT} - 5")
    _mini_emulated(T_COMMAND)
    add_test(NAME ${T_NAME}
        COMMAND ${CMAKE_COMMAND} -DEXPECT_EXIT=${T_EXPECT_EXIT} "-DEXPECT_OUTPUT=${T_EXPECT_OUTPUT}"
                -DTIMEOUT=${inner} -P ${MINI_EXPECT_SCRIPT} -- ${T_COMMAND})
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}")
    _mini_serial(${T_NAME} "${T_LABELS}" FALSE)
endfunction()

# mini_add_reverse_test(NAME n SABOTAGE switch COMMAND cmd... TIMEOUT s
#                       EXPECT_EXIT code [EXPECT_OUTPUT regex])
# A mini_add_expect_test registered only in the build where `switch` is ON, labelled `reverse`.
function(mini_add_reverse_test)
    cmake_parse_arguments(T "" "NAME;SABOTAGE" "" ${ARGN})
    if(${T_SABOTAGE})
        mini_add_expect_test(NAME ${T_NAME} LABELS reverse ${T_UNPARSED_ARGUMENTS})
    endif()
endfunction()

# mini_catch_tests(target TIMEOUT s LABELS l... [BROKEN_BY switch...] [EXCLUDE switch tag ...])
# Registers each Catch2 test case of `target` as its own ctest. Cases tagged [reverse] are never
# discovered here (they are registered one by one with mini_add_reverse_test); a case whose tag is
# paired with an active switch in EXCLUDE is left out of that build.
function(mini_catch_tests target)
    cmake_parse_arguments(T "" "TIMEOUT" "LABELS;BROKEN_BY;EXCLUDE" ${ARGN})
    _mini_broken(broken ${T_BROKEN_BY})
    if(broken)
        return()
    endif()
    set(spec "~[reverse]")
    while(T_EXCLUDE)
        list(POP_FRONT T_EXCLUDE switch tag)
        if(${switch})
            string(APPEND spec "~${tag}")
        endif()
    endwhile()
    catch_discover_tests(${target} TEST_SPEC "${spec}" TEST_PREFIX "${target}."
        PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}" RUN_SERIAL TRUE)
endfunction()

# mini_add_compile_fail_test(NAME n SOURCE file EXPECT_OUTPUT regex [DEFINITIONS d...])
# A rule that Rust's types enforce and C++ enforces by a static_assert: the source must not
# compile, and the compiler must stop at the static_assert whose message matches EXPECT_OUTPUT
# (so that a typo failing the compile does not pass). The source is an object library outside
# `all`; the test builds it (-Wfatal-errors: the first error is the assert's, in g++'s words or
# clang's). Label `compile`: the headers' asserts are the same in every build, so they run in
# release only (the `compiled` test presets exclude the label).
function(mini_add_compile_fail_test)
    cmake_parse_arguments(T "" "NAME;SOURCE;EXPECT_OUTPUT" "DEFINITIONS" ${ARGN})
    add_library(${T_NAME}_source OBJECT EXCLUDE_FROM_ALL ${T_SOURCE})
    target_link_libraries(${T_NAME}_source PRIVATE mini)
    target_compile_definitions(${T_NAME}_source PRIVATE ${T_DEFINITIONS})
    target_compile_options(${T_NAME}_source PRIVATE -Wfatal-errors)
    set(failed 1) # a failed build's exit code: ninja's; make's is 2
    if(CMAKE_GENERATOR MATCHES "Makefiles")
        set(failed 2)
    endif()
    mini_add_expect_test(NAME ${T_NAME} TIMEOUT 300 LABELS compile
        COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target ${T_NAME}_source
        EXPECT_EXIT ${failed} EXPECT_OUTPUT "static.assert(ion)? failed[^\n]*${T_EXPECT_OUTPUT}")
endfunction()
