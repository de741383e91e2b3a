// hurts small: small inputs are slower in parallel (rayon issue #648).
//
// One sum of squares over n u64, for n = 2^4, 2^6, ... up to 2^UP_TO: a serial loop, mini's
// par_iter and rayon's par_iter (when it is built), each also with with_min_len(K). Each column
// makes `reps` calls in a row and the cell is the time per call, in ns: the parallel columns make
// theirs inside one install, so that the time is the call's own (its splits, its jobs, the
// steals and the wait for the thief), not the trip into the pool. The crossover of a column is
// the largest n measured at which its median is still slower than the serial median.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mini/par.hpp>

#include "common.hpp"
#include "compare/order.hpp"
#include "compare/table.hpp"
#include "hurts/handoff.hpp"
#if MINI_HAVE_RAYON
#include "hurts/rayon_hurts.h"
#endif

namespace hurts {

struct SmallOptions {
    std::size_t threads = 2, runs = 5, up_to = 20, min_len = 4096;
    double watchdog_s = 60;
};

// Enough calls that a sample lasts long enough to read a clock around: about 2^20 items a sample.
inline std::size_t reps_for(std::size_t n) { return std::max<std::size_t>(4, (1u << 20) / n); }

// ANCHOR: sum_squares
inline std::uint64_t sum_squares_serial(const std::vector<std::uint64_t>& v) {
    std::uint64_t s = 0;
    for (std::uint64_t x : v) s += x * x;
    return s;
}
inline std::uint64_t sum_squares_mini(const std::vector<std::uint64_t>& v, std::size_t min_len) {
    return mini::par_iter(v).with_min_len(min_len).map([](std::uint64_t x) { return x * x; }).sum();
}
// ANCHOR_END: sum_squares

// One column's time per call for one n, and its last sum (checked against the serial one).
struct Sample {
    double secs;
    std::uint64_t sum;
};

inline Sample time_serial(const std::vector<std::uint64_t>& v, std::size_t reps) {
    std::uint64_t s = 0;
    const double t0 = app::now();
    for (std::size_t r = 0; r < reps; ++r) {
        s = sum_squares_serial(v);
        asm volatile("" : "+r"(s)); // each call's sum is used: no call is left out or merged
    }
    return {(app::now() - t0) / double(reps), s};
}

inline Sample time_mini(mini::ThreadPool& pool, const std::vector<std::uint64_t>& v,
                        std::size_t min_len, std::size_t reps) {
    return pool.install([&] {
        std::uint64_t s = 0;
        const double t0 = app::now();
        for (std::size_t r = 0; r < reps; ++r) s = sum_squares_mini(v, min_len);
        return Sample{(app::now() - t0) / double(reps), s};
    });
}

#if MINI_HAVE_RAYON
inline Sample time_rayon(const rayon_side_pool* pool, const std::vector<std::uint64_t>& v,
                         std::size_t min_len, std::size_t reps) {
    Sample out{};
    out.secs = rayon_side_hurts_sum_squares(pool, v.data(), v.size(), min_len, reps, &out.sum);
    return out;
}
#endif

// The crossover of one column: the largest n measured at which its median is still slower than
// the serial one; it beats serial at every larger n measured. Printed as 2^K whatever it is, so
// that runs compare by shape.
inline std::string crossover(const std::vector<cmp::Row>& rows, std::size_t first,
                             std::size_t stride, int column, const std::vector<std::size_t>& ns) {
    for (std::size_t k = ns.size(); k-- > 0;) {
        const cmp::Row& r = rows[first + k * stride];
        if (r.samples[column].empty()) return "not measured";
        if (app::median(r.samples[column]) >= app::median(r.samples[cmp::serial]))
            return fmt::format("slower than serial up to n = 2^{}", std::countr_zero(ns[k]));
    }
    return "faster than serial at every n measured";
}

inline int run_small(const SmallOptions& o) {
    using namespace cmp;
    app::banner("hurts small");
    fmt::print("{} threads, {} runs; a sum of squares over n u64; ns per call, each parallel "
               "call made inside the pool\n",
               o.threads, o.runs);
#if MINI_HAVE_RAYON
    fmt::print("{}\n", rayon_side_version());
    rayon_side::Pool rpool(o.threads);
    if (!rpool.get()) {
        fmt::print("rayon could not start the threads of its pool\n");
        return app::wrong_result;
    }
#else
    fmt::print("rayon: {}\n", MINI_RAYON_ABSENT);
#endif
    std::fflush(stdout);
    mini::ThreadPool pool(o.threads);
    std::vector<std::size_t> ns;
    for (std::size_t k = 4; k <= o.up_to; k += 2) ns.push_back(std::size_t(1) << k);

    // Per n: par_iter's row and its speedup, with_min_len's row and its speedup.
    constexpr std::size_t stride = 4;
    std::vector<Row> rows;
    for (std::size_t n : ns) {
        const int k = std::countr_zero(n);
        rows.push_back({fmt::format("n = 2^{}, par_iter [ns]", k), Row::measured});
        rows.push_back({"  speedup over serial", Row::speedup});
        rows.push_back({fmt::format("n = 2^{}, with_min_len({}) [ns]", k, o.min_len),
                        Row::measured});
        rows.push_back({"  speedup over serial", Row::speedup});
    }
    if (!built[rayon])
        for (Row& r : rows) r.note[rayon] = &r == rows.data() ? absent[rayon] : "not built";

    Steps steps;
    std::size_t at_n = 0;
    mini::Watchdog dog("hurts small", app::seconds(o.watchdog_s), [&] { return steps(); },
                       [&] { return fmt::format("n = {}, {} samples taken", ns[at_n], steps()); });
    bool all_equal = true;
    for (std::size_t run = 0; run < o.runs; ++run) {
        for (std::size_t i = 0; i < ns.size(); ++i) {
            at_n = i;
            std::vector<std::uint64_t> v(ns[i]);
            for (std::size_t j = 0; j < v.size(); ++j) v[j] = j * 2654435761u % 1000;
            const std::size_t reps = reps_for(ns[i]);
            Row& plain = rows[i * stride];
            Row& bounded = rows[i * stride + 2];
            const std::uint64_t expect = sum_squares_serial(v);
            // Five measurements, taking turns in compare's balanced order: serial, mini, mini
            // with_min_len, rayon, rayon with_min_len.
            for (const std::size_t m : app::balanced_order(5, run)) {
                Sample s{};
                if (m == 0) s = time_serial(v, reps);
                else if (m <= 2) s = time_mini(pool, v, m == 1 ? 1 : o.min_len, reps);
                else {
#if MINI_HAVE_RAYON
                    s = time_rayon(rpool.get(), v, m == 3 ? 1 : o.min_len, reps);
#else
                    continue;
#endif
                }
                if (s.sum != expect) {
                    fmt::print("WRONG: n = {}: a sum of {} where the serial loop gives {}\n",
                               ns[i], s.sum, expect);
                    all_equal = false;
                }
                const double ns = s.secs * 1e9;
                if (m == 0) plain.samples[serial].push_back(ns), bounded.samples[serial].push_back(ns);
                else (m % 2 == 1 ? plain : bounded).samples[m <= 2 ? workbook : rayon].push_back(ns);
                steps.step();
            }
        }
    }
    fmt::print("\n");
    std::array<bool, num_impls> shown{};
    shown[serial] = shown[workbook] = shown[rayon] = true;
    print_table(rows, fmt::format("sum of squares, {} threads", o.threads), shown);
    fmt::print("[a–b]: min–max over {} runs; ×r: median / mini's median; speedup: serial median "
               "/ median. Calls per sample: 2^20 / n (at least 4).\n",
               o.runs);
    fmt::print("crossover: the largest n at which the median is still slower than serial's; at "
               "every larger n measured it is faster\n");
    fmt::print("  mini par_iter: {}\n", crossover(rows, 0, stride, workbook, ns));
    fmt::print("  mini with_min_len({}): {}\n", o.min_len, crossover(rows, 2, stride, workbook, ns));
    if (built[rayon]) {
        fmt::print("  rayon par_iter: {}\n", crossover(rows, 0, stride, rayon, ns));
        fmt::print("  rayon with_min_len({}): {}\n", o.min_len,
                   crossover(rows, 2, stride, rayon, ns));
    }
    fmt::print("{}\n", all_equal ? "all sums equal" : "WRONG RESULT");
    return all_equal ? app::ok : app::wrong_result;
}

} // namespace hurts
