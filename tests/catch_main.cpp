// Catch2's main, compiled with the tests when Debian's prebuilt one (libCatch2WithMain.a, built
// for the host with libstdc++) cannot be linked: the aarch64 and clang-libcxx presets.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
