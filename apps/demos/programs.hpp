// The programs of `demos` (apps/demos.cpp): their names, the labels of their rows, their sizes,
// and how each column runs each one: serial and mini from the headers beside this one, rayon
// through the C ABI of apps/rayon/ (src/demos/), when it is built.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/core.h>

#include <mini/pool.hpp>

#include "compare/table.hpp"
#include "demos/life.hpp"
#include "demos/mergesort.hpp"
#include "demos/nbody.hpp"
#include "demos/outcome.hpp"
#include "demos/pythagoras.hpp"
#include "demos/quicksort.hpp"
#include "demos/sieve.hpp"
#if MINI_HAVE_RAYON
#include "rayon/rayon.h"
#endif

namespace demos {

// rayon-demo's bench sizes (its `cargo bench`; life's CLI has the same), or small ones for the
// driver's tests (--size small).
struct Sizes {
    std::size_t sort_n = 250'000'000 / 512; // 488,281 u32
    pythagoras::Bounds py{};                // m < 2000, c <= 4,000,000
    life::Size life{};                      // 200 x 200, 100 generations
    nbody::Size nbody{};                    // 1000 bodies, 10 ticks
    unsigned sieve_magnitude = 7;           // the primes below 10^7
};

inline Sizes sizes_for(const std::string& size) {
    if (size != "small") return {};
    return {150'000, {300, 90'000}, {40, 40, 10}, {100, 3}, 6};
}

// Where the parallel columns run: mini's pool and rayon's (null when rayon is not built).
struct Where {
    mini::ThreadPool& pool;
    const void* rayon;
};

struct Program {
    const char* name;
    std::string (*label)(const Sizes&);
    bool numeric; // the result is a number (else a fingerprint, printed in hex)
    Outcome (*run)(int column, const Sizes&, const Where&);
};

#if MINI_HAVE_RAYON
inline const rayon_side_pool* rayon_pool(const Where& w) {
    return static_cast<const rayon_side_pool*>(w.rayon);
}
inline Outcome from_rust(rayon_side_demo_outcome o) {
    return {o.secs, o.result, o.ok};
}
#define DEMOS_RAYON(call) from_rust(call)
#else
#define DEMOS_RAYON(call) (Outcome{}) // the column is not built: never run
#endif

inline Outcome run_quicksort(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return quicksort::serial(s.sort_n);
    if (column == cmp::workbook) return quicksort::on_mini(w.pool, s.sort_n);
    return DEMOS_RAYON(rayon_side_demo_quicksort(rayon_pool(w), s.sort_n));
}

inline Outcome run_mergesort(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return mergesort::serial(s.sort_n);
    if (column == cmp::workbook) return mergesort::on_mini(w.pool, s.sort_n);
    return DEMOS_RAYON(rayon_side_demo_mergesort(rayon_pool(w), s.sort_n));
}

template <pythagoras::Hint H>
Outcome run_pythagoras(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return pythagoras::serial(s.py);
    if (column == cmp::workbook) return pythagoras::on_mini(w.pool, s.py, H);
    return DEMOS_RAYON(
        rayon_side_demo_pythagoras(rayon_pool(w), s.py.m_end, s.py.c_max, std::uint32_t(H)));
}

inline Outcome run_life(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return life::serial(s.life);
    if (column == cmp::workbook) return life::on_mini(w.pool, s.life);
    return DEMOS_RAYON(rayon_side_demo_life(rayon_pool(w), s.life.rows, s.life.cols, s.life.gens));
}

template <nbody::Mode M>
Outcome run_nbody(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return nbody::serial(s.nbody, M);
    if (column == cmp::workbook) return nbody::on_mini(w.pool, s.nbody, M);
    return DEMOS_RAYON(rayon_side_demo_nbody(rayon_pool(w), s.nbody.bodies, s.nbody.ticks,
                                             M == nbody::Mode::par_reduce));
}

inline Outcome run_sieve(int column, const Sizes& s, const Where& w) {
    if (column == cmp::serial) return sieve::serial(s.sieve_magnitude);
    if (column == cmp::workbook) return sieve::on_mini(w.pool, s.sieve_magnitude);
    return DEMOS_RAYON(rayon_side_demo_sieve(rayon_pool(w), s.sieve_magnitude));
}
#undef DEMOS_RAYON

inline std::string pythagoras_label(const Sizes& s, const char* hint) {
    return fmt::format("pythagoras, c <= {}, {} [ms]", s.py.c_max, hint);
}

inline const std::array<Program, 9> programs{{
    {"quicksort", [](const Sizes& s) { return fmt::format("quicksort, {} u32 [ms]", s.sort_n); },
     false, run_quicksort},
    {"mergesort", [](const Sizes& s) { return fmt::format("mergesort, {} u32 [ms]", s.sort_n); },
     false, run_mergesort},
    {"pythagoras", [](const Sizes& s) { return pythagoras_label(s, "no length hint"); }, true,
     run_pythagoras<pythagoras::Hint::none>},
    {"pythagoras_faux_serial",
     [](const Sizes& s) { return pythagoras_label(s, "with_min_len(max) both"); }, true,
     run_pythagoras<pythagoras::Hint::faux_serial>},
    {"pythagoras_full", [](const Sizes& s) { return pythagoras_label(s, "with_max_len(1) both"); },
     true, run_pythagoras<pythagoras::Hint::full>},
    {"life",
     [](const Sizes& s) {
         return fmt::format("life, {}x{}, {} generations [ms]", s.life.rows, s.life.cols,
                            s.life.gens);
     },
     false, run_life},
    {"nbody",
     [](const Sizes& s) {
         return fmt::format("nbody, tick_par, {} bodies, {} ticks [ms]", s.nbody.bodies,
                            s.nbody.ticks);
     },
     false, run_nbody<nbody::Mode::par>},
    {"nbody_reduce",
     [](const Sizes& s) {
         return fmt::format("nbody, tick_par_reduce, {} bodies, {} ticks [ms]", s.nbody.bodies,
                            s.nbody.ticks);
     },
     true, run_nbody<nbody::Mode::par_reduce>},
    {"sieve",
     [](const Sizes& s) {
         return fmt::format("sieve, primes below 10^{} [ms]", s.sieve_magnitude);
     },
     true, run_sieve},
}};

} // namespace demos
