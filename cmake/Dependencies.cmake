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

# Debian's two prebuilt pieces, libfmt.so and Catch2's libCatch2WithMain.a, are host binaries
# built against libstdc++: a cross build (aarch64) or a libc++ build (clang-libcxx) cannot link
# them. Such a build uses fmt header-only and compiles Catch2's main itself (tests/catch_main.cpp).
if(CMAKE_CROSSCOMPILING OR CMAKE_CXX_FLAGS MATCHES "-stdlib=libc\\+\\+")
    set(_header_only ON)
else()
    set(_header_only OFF)
endif()
option(MINI_HEADER_ONLY_DEPS "fmt header-only and Catch2's main compiled here" ${_header_only})
if(MINI_HEADER_ONLY_DEPS)
    set(MINI_FMT fmt::fmt-header-only)
else()
    set(MINI_FMT fmt::fmt)
endif()
