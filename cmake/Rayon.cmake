# rayon itself, side by side with the workbook in the same process: the Rust crate apps/rayon/
# (a staticlib with a C ABI, apps/rayon/rayon.h) gives `splits count` rayon's leaf counts and
# `compare` its rayon column. mini_link_rayon(target) links it into a driver; never into `mini`.
#
# Optional, like oneTBB: without Debian's cargo or its rayon crates, configure says what to
# install and the drivers print `rayon: not built (apt-get install cargo librust-rayon-dev)`.
#
#   Toolchain: Debian's /usr/bin/cargo and /usr/bin/rustc only (MINI_CARGO, MINI_RUSTC). A rustup
#     cargo on PATH is never used, and RUSTC is set so Debian's cargo does not pick up rustup's
#     rustc from PATH either. Crates: Debian's librust-rayon-dev under /usr/share/cargo/registry
#     (apps/rayon/.cargo/config.toml); --offline --locked, nothing is downloaded.
#   One compilation for all build trees: every preset shares MINI_CARGO_TARGET_DIR (build/
#     cargo-target under the source tree); cargo's lock on it makes sequential reuse safe, so the
#     first preset compiles the crate (about 40 s) and the others find it up to date. The library
#     is always built with cargo's release profile, whatever CMAKE_BUILD_TYPE is.
#   TSan: off. rayon, crossbeam and Rust's std are not instrumented, so TSan cannot see their
#     synchronisation and would report races on data they hand between threads (as for libtbb).
#   ASan: on. ASan needs no instrumentation of other code to be sound: the Rust side allocates
#     through the same (intercepted) malloc, its threads are started through the intercepted
#     pthread_create, and its own memory accesses are simply not checked, so it can only miss
#     errors inside rayon, never report false ones. The C++ side, fib_leaf called from rayon's
#     workers and the vector read by rayon_side_sum, stays checked.
#   Cross-compiling (the aarch64 preset): off. Debian's rustc here has only the host's standard
#     library; building for aarch64 would need rust-std for that target.
set(MINI_RAYON_CRATE ${PROJECT_SOURCE_DIR}/apps/rayon)
set(MINI_RAYON_REGISTRY /usr/share/cargo/registry) # as in apps/rayon/.cargo/config.toml
find_program(MINI_CARGO cargo PATHS /usr/bin NO_DEFAULT_PATH DOC "Debian's cargo (apt-get install cargo)")
find_program(MINI_RUSTC rustc PATHS /usr/bin NO_DEFAULT_PATH DOC "Debian's rustc (apt-get install cargo)")
set(MINI_CARGO_TARGET_DIR ${PROJECT_SOURCE_DIR}/build/cargo-target CACHE PATH
    "cargo's target directory, shared by every build tree so that rayon compiles once")

set(MINI_HAVE_RAYON 0)
set(_apt "apt-get install cargo librust-rayon-dev")
set(MINI_RAYON_ABSENT "not built (${_apt})")
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
    set(MINI_RAYON_ABSENT "not built (off under TSan: rayon is not instrumented)")
    message(STATUS "rayon: off in this ThreadSanitizer build: rayon is not instrumented, so TSan "
                   "would report false races; the drivers say so where its numbers would be")
elseif(CMAKE_CROSSCOMPILING)
    set(MINI_RAYON_ABSENT "not built (cross-compiling: no Rust std for ${CMAKE_SYSTEM_PROCESSOR})")
    message(STATUS "rayon: off when cross-compiling (for ${CMAKE_SYSTEM_PROCESSOR}): Debian's "
                   "rustc has only the host's standard library; the drivers say so")
elseif(MINI_HIDE_OPTIONAL)
    set(MINI_RAYON_ABSENT "not built (hidden: MINI_HIDE_OPTIONAL)")
    message(STATUS "rayon: not looked for (MINI_HIDE_OPTIONAL)")
elseif(NOT EXISTS "${MINI_CARGO}" OR NOT EXISTS "${MINI_RUSTC}")
    message(STATUS "rayon: not built: no cargo/rustc at ${MINI_CARGO} / ${MINI_RUSTC}. It is "
                   "optional; to build it: sudo ${_apt}")
else()
    # Resolves every crate of Cargo.lock from the registry, offline, without compiling anything.
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E env CARGO_HOME=${MINI_CARGO_TARGET_DIR}/home
                RUSTC=${MINI_RUSTC} ${MINI_CARGO} metadata --offline --locked --format-version 1
        WORKING_DIRECTORY ${MINI_RAYON_CRATE}
        RESULT_VARIABLE _resolved OUTPUT_QUIET ERROR_VARIABLE _why)
    if(_resolved EQUAL 0)
        set(MINI_HAVE_RAYON 1)
        execute_process(COMMAND ${MINI_CARGO} --version OUTPUT_VARIABLE _version
                        OUTPUT_STRIP_TRAILING_WHITESPACE)
        message(STATUS "rayon: built by ${MINI_CARGO} (${_version}) from ${MINI_RAYON_REGISTRY}, "
                       "into ${MINI_CARGO_TARGET_DIR}")
    else()
        string(STRIP "${_why}" _why)
        message(STATUS "rayon: not built: ${MINI_CARGO} cannot resolve the crates of "
                       "apps/rayon/Cargo.lock from ${MINI_RAYON_REGISTRY}:\n${_why}\n"
                       "   It is optional; to build it: sudo ${_apt}")
    endif()
endif()

if(MINI_HAVE_RAYON)
    set_property(GLOBAL APPEND PROPERTY MINI_OPTIONAL_BUILT rayon)
    set(_lib ${CMAKE_CURRENT_BINARY_DIR}/librayon_side.a)
    # src/lib.rs and its modules (src/demos/: the demo programs of `demos`)
    file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${MINI_RAYON_CRATE}/src/*.rs)
    add_custom_command(OUTPUT ${_lib}
        COMMAND ${CMAKE_COMMAND} -E env --unset=RUSTFLAGS --unset=CARGO_BUILD_TARGET
                CARGO_HOME=${MINI_CARGO_TARGET_DIR}/home RUSTC=${MINI_RUSTC}
                ${MINI_CARGO} build --release --offline --locked
                --target-dir ${MINI_CARGO_TARGET_DIR}
        COMMAND ${CMAKE_COMMAND} -E copy ${MINI_CARGO_TARGET_DIR}/release/librayon_side.a ${_lib}
        WORKING_DIRECTORY ${MINI_RAYON_CRATE} # where cargo finds .cargo/config.toml
        DEPENDS ${MINI_RAYON_CRATE}/Cargo.toml ${MINI_RAYON_CRATE}/Cargo.lock
                ${_sources} ${MINI_RAYON_CRATE}/.cargo/config.toml
        COMMENT "rayon: cargo build --release --offline (compiles once for every build tree)"
        VERBATIM)
    add_custom_target(rayon_side_build DEPENDS ${_lib})
    add_library(rayon_side INTERFACE)
    # What `rustc --print native-static-libs` names for this staticlib: Rust's std needs libgcc_s
    # (unwind tables for backtraces), pthread and dl; not libstdc++, so libc++ builds link too.
    target_link_libraries(rayon_side INTERFACE ${_lib} gcc_s util rt Threads::Threads m
                                               ${CMAKE_DL_LIBS})
    add_dependencies(rayon_side rayon_side_build)
endif()

# Links rayon into `target` if it is built, and tells the code through MINI_HAVE_RAYON (0 or 1)
# and MINI_RAYON_ABSENT (why it is not built).
function(mini_link_rayon target)
    target_compile_definitions(${target} PRIVATE MINI_HAVE_RAYON=${MINI_HAVE_RAYON}
                                                 "MINI_RAYON_ABSENT=\"${MINI_RAYON_ABSENT}\"")
    if(MINI_HAVE_RAYON)
        target_link_libraries(${target} PRIVATE rayon_side)
    endif()
endfunction()
