# ccache, where it is found: every compile goes through it, so that a preset, a fresh clone in
# another folder, or a scratch copy (the labs, the mutants) compiles again only what really
# differs. CCACHE_BASEDIR at this tree's root makes the paths in a command relative, and
# CCACHE_NOHASHDIR leaves the working directory out of the key: two clones share one cache
# (~/.cache/ccache, outside every tree). Without ccache the build is the same, only slower.
option(MINI_CCACHE "compile through ccache where it is found" ON)
if(MINI_CCACHE)
    find_program(MINI_CCACHE_PROGRAM ccache)
    if(MINI_CCACHE_PROGRAM)
        set(CMAKE_CXX_COMPILER_LAUNCHER
            ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
            ${MINI_CCACHE_PROGRAM})
    endif()
endif()
