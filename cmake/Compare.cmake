# The two runtimes that `compare` (chapter 6) measures the workbook's pool against. Both are
# optional: a missing one is reported here, and its column of the table says why it is empty.
# Only the `compare` target links them (mini_compare_runtimes below), never the `mini` library.
#
#   oneTBB: Debian's libtbb-dev (2021.8), found through its CMake config: TBB::tbb.
#   OpenMP: the compiler's own (g++ -fopenmp, libgomp): OpenMP::OpenMP_CXX.
#
# Under ThreadSanitizer both are left out: Debian's libtbb and libgomp are not built with TSan, so
# TSan cannot see the synchronisation inside them and reports races on data they hand between
# threads (tried here: a race report in parallel_invoke.h on the first fib). Then `compare` runs
# only the serial and mini columns, which TSan does check.
#
# Cross-compiling (the aarch64 preset), both are left out: Debian's libtbb is the host's, and
# compare's figures under an emulator would mean nothing (its smoke test still checks the workbook's
# results; the cross compiler's libgomp would work, but adds only emulated time). With libc++ (clang-libcxx), oneTBB is left out: Debian's libtbb is
# built against libstdc++, and one process should not carry two C++ standard libraries.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
    set(_tsan TRUE)
else()
    set(_tsan FALSE)
endif()

set(MINI_TBB_ABSENT "missing (apt-get install -y libtbb-dev)")
set(MINI_HAVE_TBB 0)
if(_tsan)
    set(MINI_TBB_ABSENT "disabled under TSan (libtbb is not instrumented)")
    message(STATUS "compare: oneTBB disabled in this ThreadSanitizer build: libtbb is not "
                   "instrumented, so TSan would report false races; its column says so")
elseif(CMAKE_CROSSCOMPILING)
    set(MINI_TBB_ABSENT "not built when cross-compiling (Debian's libtbb is the host's)")
    message(STATUS "compare: oneTBB off when cross-compiling for ${CMAKE_SYSTEM_PROCESSOR}")
elseif(MINI_HIDE_OPTIONAL)
    set(MINI_TBB_ABSENT "hidden (MINI_HIDE_OPTIONAL)")
    message(STATUS "compare: oneTBB not looked for (MINI_HIDE_OPTIONAL)")
elseif(CMAKE_CXX_FLAGS MATCHES "-stdlib=libc\\+\\+")
    set(MINI_TBB_ABSENT "not built with libc++ (Debian's libtbb is built against libstdc++)")
    message(STATUS "compare: oneTBB off with libc++: Debian's libtbb uses libstdc++")
else()
    find_package(TBB CONFIG QUIET)
    if(TARGET TBB::tbb)
        set(MINI_HAVE_TBB 1)
        set_property(GLOBAL APPEND PROPERTY MINI_OPTIONAL_BUILT tbb)
        message(STATUS "compare: oneTBB ${TBB_VERSION} found (TBB::tbb)")
    else()
        message(STATUS "compare: oneTBB not found; its column says ${MINI_TBB_ABSENT}")
    endif()
endif()

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    string(REGEX MATCH "^[0-9]+" _gcc_major "${CMAKE_CXX_COMPILER_VERSION}")
    set(_omp_apt "libgcc-${_gcc_major}-dev") # ships g++'s omp.h and libgomp
else()
    set(_omp_apt "libomp-dev")
endif()
set(MINI_OPENMP_ABSENT "missing (apt-get install -y ${_omp_apt})")
set(MINI_HAVE_OPENMP 0)
if(_tsan)
    set(MINI_OPENMP_ABSENT "disabled under TSan (libgomp is not instrumented)")
    message(STATUS "compare: OpenMP disabled in this ThreadSanitizer build: libgomp is not "
                   "instrumented, so TSan would report false races; its column says so")
elseif(CMAKE_CROSSCOMPILING)
    set(MINI_OPENMP_ABSENT "not built when cross-compiling (timings under an emulator)")
    message(STATUS "compare: OpenMP off when cross-compiling for ${CMAKE_SYSTEM_PROCESSOR}")
elseif(MINI_HIDE_OPTIONAL)
    set(MINI_OPENMP_ABSENT "hidden (MINI_HIDE_OPTIONAL)")
    message(STATUS "compare: OpenMP not looked for (MINI_HIDE_OPTIONAL)")
else()
    find_package(OpenMP QUIET COMPONENTS CXX)
    if(TARGET OpenMP::OpenMP_CXX)
        set(MINI_HAVE_OPENMP 1)
        set_property(GLOBAL APPEND PROPERTY MINI_OPTIONAL_BUILT openmp)
        message(STATUS "compare: OpenMP ${OpenMP_CXX_VERSION} found (OpenMP::OpenMP_CXX)")
    else()
        message(STATUS "compare: OpenMP not found; its column says ${MINI_OPENMP_ABSENT}")
    endif()
endif()

# Links what was found into `target` and tells the code through MINI_HAVE_TBB / MINI_HAVE_OPENMP
# (0 or 1) and, for an empty column, MINI_TBB_ABSENT / MINI_OPENMP_ABSENT (the reason).
function(mini_compare_runtimes target)
    target_compile_definitions(${target} PRIVATE
        MINI_HAVE_TBB=${MINI_HAVE_TBB} "MINI_TBB_ABSENT=\"${MINI_TBB_ABSENT}\""
        MINI_HAVE_OPENMP=${MINI_HAVE_OPENMP} "MINI_OPENMP_ABSENT=\"${MINI_OPENMP_ABSENT}\"")
    if(MINI_HAVE_TBB)
        target_link_libraries(${target} PRIVATE TBB::tbb)
    endif()
    if(MINI_HAVE_OPENMP)
        target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
    endif()
endfunction()
