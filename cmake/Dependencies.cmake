# Every dependency comes from Debian; a missing one stops configure and names the package.
find_package(Threads REQUIRED)

macro(mini_require package version apt)
    find_package(${package} ${version} QUIET)
    if(NOT ${package}_FOUND)
        message(FATAL_ERROR
            "${package} ${version} not found. Install it with:\n"
            "    sudo apt-get install -y ${apt}\n"
            "(all prerequisites: apt-get install -y ninja-build catch2 libfmt-dev libcli11-dev spin)")
    endif()
endmacro()

mini_require(Catch2 2 catch2)
mini_require(fmt 9 libfmt-dev)
mini_require(CLI11 2 libcli11-dev)
include(Catch)   # catch_discover_tests, shipped with Debian's catch2
