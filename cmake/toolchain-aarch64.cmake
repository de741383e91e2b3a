# Cross-compiling for 64-bit ARM Linux on a Debian host (the `aarch64` preset): Debian's
# g++-aarch64-linux-gnu compiles, and qemu-user runs every test binary
# (CMAKE_CROSSCOMPILING_EMULATOR, which ctest, catch_discover_tests and cmake/MiniTests.cmake put
# in front of each test command).
#
# What it proves: the library, the drivers and the tests build for ARM with nothing x86 left in
# them, and the logic holds there: the unit, driver and docs tests pass on an aarch64 binary.
# What it does not prove: that the orderings are right on ARM. QEMU's user mode runs the guest's
# threads on the host's cores, so an x86 host executes every load and store with x86's strong
# ordering (TSO); a missing acquire or release that a real ARM core would reorder is never
# reordered here. The evidence for the fences is the SPIN model of the sleep protocol
# (tests/model, chapter 2) and the store-buffering litmus test of chapter 2, not this preset.
#
# Libraries: no arm64 packages are needed. CLI11 and Catch2 2.13 are header-only (the tests
# compile Catch2's main themselves, tests/catch_main.cpp) and fmt is used header-only
# (MINI_HEADER_ONLY_DEPS in cmake/Dependencies.cmake), so the host's Debian packages serve: their
# headers are the same for every architecture, and Debian's cross compiler searches /usr/include.
# Only fmt's CMake package sits under the host's multiarch directory; fmt_DIR points there.
# oneTBB, OpenMP and the rayon crate are host binaries: off in this build (cmake/Compare.cmake).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

find_program(MINI_QEMU_AARCH64 qemu-aarch64)
if(NOT MINI_QEMU_AARCH64)
    message(FATAL_ERROR "qemu-aarch64 not found. Install it with:\n"
                        "    sudo apt-get install -y qemu-user g++-aarch64-linux-gnu")
endif()
# The target's dynamic loader and libraries (libc, libstdc++) come with the cross compiler, under
# /usr/aarch64-linux-gnu. QEMU_LD_PREFIX says so; it is qemu's -L, but an option in the command
# would be taken by `cmake -P`, which starts the programs of the expect tests (cmake/expect.cmake).
set(CMAKE_CROSSCOMPILING_EMULATOR env QEMU_LD_PREFIX=/usr/aarch64-linux-gnu ${MINI_QEMU_AARCH64})

set(fmt_DIR /usr/lib/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux-gnu/cmake/fmt)
