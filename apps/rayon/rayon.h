// rayon itself behind a C ABI: the functions of the Rust crate in this folder (src/lib.rs says
// what each one does). Linked into `splits`, `compare` and `demos` only, when cmake/Rayon.cmake
// builds it (MINI_HAVE_RAYON). A panic in Rust aborts the process; nothing unwinds into C++.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rayon_side_pool rayon_side_pool; // a rayon::ThreadPool
typedef uint64_t (*rayon_side_leaf)(unsigned n);  // fib's leaf, called from rayon's workers

const char* rayon_side_version(void);
bool rayon_side_init_global(size_t threads);
rayon_side_pool* rayon_side_pool_new(size_t threads);
void rayon_side_pool_free(rayon_side_pool* pool);
// Leaf counts; *threads: how many threads ran leaves (more than one: a steal happened).
size_t rayon_side_leaves_outside(size_t len, size_t work, size_t* threads);
size_t rayon_side_leaves_inside(const rayon_side_pool* pool, size_t len, size_t work,
                                size_t* threads);
uint64_t rayon_side_fib(const rayon_side_pool* pool, unsigned n, unsigned cutoff,
                        rayon_side_leaf leaf, uint64_t* joins);
uint64_t rayon_side_sum(const rayon_side_pool* pool, const uint64_t* values, size_t len);
uint64_t rayon_side_trip(const rayon_side_pool* pool);
// par_iter's leaves over `values` (the global pool if `pool` is null); *threads as above.
size_t rayon_side_par_iter_leaves(const rayon_side_pool* pool, const uint64_t* values, size_t len,
                                  size_t work, size_t* threads);
// compare's iterator rows (apps/compare/iter.hpp).
uint64_t rayon_side_sum_squares(const rayon_side_pool* pool, const uint64_t* values, size_t len);
uint64_t* rayon_side_collect_squares(const rayon_side_pool* pool, const uint64_t* values,
                                     size_t len, size_t* out_len, size_t* out_cap);
void rayon_side_vec_free(uint64_t* ptr, size_t len, size_t cap);
bool rayon_side_find_any(const rayon_side_pool* pool, const uint64_t* values, size_t len,
                         uint64_t target, uint64_t* found);
// compare's sort rows (apps/compare/sort.hpp): par_sort if `stable`, else par_sort_unstable.
void rayon_side_sort_u64(const rayon_side_pool* pool, uint64_t* values, size_t len, bool stable);
// Strings of the seeds' decimal digits, sorted; *secs: the sort's time; returns their checksum.
uint64_t rayon_side_sort_strings(const rayon_side_pool* pool, const uint64_t* seeds, size_t len,
                                 bool stable, double* secs);

// rayon-demo's programs (src/demos/, apps/demos/): each makes its input from the seeded
// generator, times its parallel part inside the pool's install, and returns the time in
// seconds, its result (a number or a fingerprint) and its own check, as demos::Outcome.
typedef struct rayon_side_demo_outcome {
    double secs;
    uint64_t result;
    bool ok;
} rayon_side_demo_outcome;
rayon_side_demo_outcome rayon_side_demo_quicksort(const rayon_side_pool* pool, size_t n);
rayon_side_demo_outcome rayon_side_demo_mergesort(const rayon_side_pool* pool, size_t n);
// hint: 0 none, 1 with_min_len(usize::MAX) on both ranges, 2 with_max_len(1) on both.
rayon_side_demo_outcome rayon_side_demo_pythagoras(const rayon_side_pool* pool, uint32_t m_end,
                                                   uint32_t c_max, uint32_t hint);
rayon_side_demo_outcome rayon_side_demo_life(const rayon_side_pool* pool, size_t rows,
                                             size_t cols, size_t gens);
// reduce: tick_par_reduce (its result: the bodies within 1e-9 of the serial ones), else tick_par.
rayon_side_demo_outcome rayon_side_demo_nbody(const rayon_side_pool* pool, size_t bodies,
                                              size_t ticks, bool reduce);
rayon_side_demo_outcome rayon_side_demo_sieve(const rayon_side_pool* pool, unsigned magnitude);
// compare's indexed rows (apps/compare/indexed.hpp).
double rayon_side_dot(const rayon_side_pool* pool, const double* a, const double* b, size_t len);
void rayon_side_mandelbrot(const rayon_side_pool* pool, uint32_t* img, size_t width,
                           size_t height);
bool rayon_side_find_first(const rayon_side_pool* pool, const uint64_t* values, size_t len,
                           uint64_t target, uint64_t* found);
// compare's unindexed rows (apps/compare/unindexed.hpp).
uint64_t rayon_side_word_count(const rayon_side_pool* pool, const uint64_t* values, size_t len);
uint64_t rayon_side_filter_map(const rayon_side_pool* pool, const uint64_t* values, size_t len);
uint64_t rayon_side_try_for_each(const rayon_side_pool* pool, const uint64_t* values, size_t len,
                                 uint64_t target);
uint64_t rayon_side_par_bridge(const rayon_side_pool* pool, uint64_t n);

#ifdef __cplusplus
}

#include <memory>

namespace rayon_side {
// Owns a rayon::ThreadPool of `threads` threads; get() is null if rayon could not start them.
struct Pool {
    explicit Pool(std::size_t threads) : p(rayon_side_pool_new(threads)) {}
    const rayon_side_pool* get() const { return p.get(); }

private:
    struct Free {
        void operator()(rayon_side_pool* q) const { rayon_side_pool_free(q); }
    };
    std::unique_ptr<rayon_side_pool, Free> p;
};
} // namespace rayon_side
#endif
