// cpu_relax: the hint a spin loop gives the core between two reads of the flag it waits on.
//
// It changes no ordering and no result, only how hard the loop hammers the core and the cache line:
// without it the core speculates ahead through many loads of the flag, then pays a memory-order
// mis-speculation when the flag's line changes, and its sibling hyper-thread gets fewer cycles.
// This is the one spot of the library that is not standard C++; each branch says where it holds.
#pragma once

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <immintrin.h>
#endif

namespace mini {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
    _mm_pause(); // x86 `pause` (GCC, clang and MSVC all provide the intrinsic)
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    // `isb sy`, not `yield`, as Rust's core::hint::spin_loop does (library/core/src/hint.rs:
    // `__isb(SY)` on aarch64), which crossbeam-utils' Backoff spins on. On today's cores (Neoverse,
    // Apple M1) `yield` retires like a nop, so a yield loop still re-reads the line back to back;
    // `isb` drains the pipeline, a pause of some tens of cycles: the nearest thing to x86 `pause`.
    __asm__ __volatile__("isb sy" ::: "memory");
#else
    // Elsewhere: no hint. The loop stays correct (the flag is an atomic), it only spins harder.
#endif
}

} // namespace mini
