// compare's table (apps/compare.cpp): the implementations, one row of samples per workload, and
// the printing of medians, min–max and ratios to mini, and of the notes under them.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "common.hpp"

namespace cmp {

// workbook_pw, mini-pw: the core built with the per-worker sleep (compare/pw.hpp), next to mini.
// stdpar, std-par: libstdc++'s parallel algorithms (std::execution::par), which run on oneTBB;
// the rows it has are on_stdpar.hpp's, and the table shows it only beside them.
enum Impl { serial, workbook, workbook_pw, rayon, onetbb, openmp, stdpar, num_impls };
constexpr std::array<const char*, num_impls> impl_names{"serial", "mini",   "mini-pw", "rayon",
                                                        "oneTBB", "OpenMP", "std-par"};
constexpr std::array<bool, num_impls> built{true,          true,          MINI_HAVE_PW,
                                            MINI_HAVE_RAYON, MINI_HAVE_TBB, MINI_HAVE_OPENMP,
                                            MINI_HAVE_TBB};
constexpr std::array<const char*, num_impls> absent{
    "",  "", MINI_PW_ABSENT, MINI_RAYON_ABSENT, MINI_TBB_ABSENT, MINI_OPENMP_ABSENT,
    "not built (libstdc++'s parallel algorithms need oneTBB)"};

// Column names in any case (--runtimes RAYON) spelled as impl_names spells them.
inline void spell_as_table(std::vector<std::string>& names) {
    auto same = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
    };
    for (std::string& name : names)
        for (const std::string_view n : impl_names)
            if (std::equal(name.begin(), name.end(), n.begin(), n.end(), same)) name = n;
}

struct Row {
    std::string label;
    enum Kind { measured, speedup, plain } kind = measured;
    std::array<std::vector<double>, num_impls> samples{};
    std::array<std::string, num_impls> note{}; // instead of numbers: n/a, missing
    // For each sample: the column measured just before it (-1: none), for --carryover.
    std::array<std::vector<int>, num_impls> before{};
};

inline std::string num(double v) {
    return v >= 100  ? fmt::format("{:.0f}", v)
           : v >= 10 ? fmt::format("{:.1f}", v)
                     : fmt::format("{:.2f}", v);
}

inline std::size_t width(const std::string& s) { // display width of UTF-8 text
    std::size_t w = 0;
    for (unsigned char c : s) w += (c & 0xC0) != 0x80;
    return w;
}

inline std::string pad(const std::string& s, std::size_t w) {
    return s + std::string(w - std::min(w, width(s)), ' ');
}

inline std::string cell(const std::vector<Row>& rows, const Row& row, int impl) {
    if (!row.note[impl].empty()) return row.note[impl];
    if (row.kind == Row::speedup) {
        const Row& base = rows[&row - rows.data() - 1];
        if (impl == serial) return base.samples[serial].empty() ? "" : "(baseline)";
        if (base.samples[serial].empty() || base.samples[impl].empty())
            return ""; // --runtimes left out serial or this column: no ratio to take
        return fmt::format("{:.2f}x",
                           app::median(base.samples[serial]) / app::median(base.samples[impl]));
    }
    const auto& s = row.samples[impl];
    if (s.empty()) return "";
    const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
    std::string c = fmt::format("{} [{}–{}]", num(app::median(s)), num(*lo), num(*hi));
    if (row.kind == Row::measured && impl != workbook && !row.samples[workbook].empty())
        c += fmt::format(" ×{:.2f}", app::median(s) / app::median(row.samples[workbook]));
    return c;
}

// `heading` heads the first column (the workload's name and unit); a column not `shown` is left
// out.
inline void print_table(const std::vector<Row>& rows, const std::string& heading,
                        const std::array<bool, num_impls>& shown) {
    std::vector<std::array<std::string, num_impls + 1>> text(1, {heading});
    for (int i = 0; i < num_impls; ++i) text[0][i + 1] = impl_names[i];
    for (const Row& r : rows) {
        if (r.label.empty()) continue;
        auto& line = text.emplace_back();
        line[0] = r.label;
        for (int i = 0; i < num_impls; ++i) line[i + 1] = cell(rows, r, i);
    }
    std::array<std::size_t, num_impls + 1> w{};
    for (const auto& line : text)
        for (std::size_t c = 0; c < line.size(); ++c) w[c] = std::max(w[c], width(line[c]));
    for (const auto& line : text) {
        std::string out;
        for (std::size_t c = 0; c < line.size(); ++c)
            if (c == 0 || shown[c - 1]) out += pad(line[c], w[c] + 2);
        while (!out.empty() && out.back() == ' ') out.pop_back();
        fmt::print("{}\n", out);
    }
}

// The notes under the table: what each cell and row means.
inline void print_notes(std::size_t runs, std::size_t producers) {
    fmt::print(
        "[a–b]: min–max over {} runs; ×r: median / mini's median (above 1: slower than mini, "
        "or more CPU); speedup: serial median / median; serial: the faster CPU of each run.\n"
        "join, serial column: the same recursion without join, per call that would join.\n"
        "sleeps, notifies per stolen B: a run's counts over its stolen Bs, for each run that "
        "stole one; a sleep is a worker's wait on a condition variable that ended (one futex "
        "wait, and the futex wake that ended it), a notify one call of notify_one or notify_all "
        "(one futex wake; one notify_all may end several sleeps); futex calls of the mutexes are "
        "not counted. The counters' wake-ups are these notifies.\n"
        "CPU in the pause: user + system time of the process while it sleeps 20 ms after a "
        "job of this column, before the next one (its threads spinning before they sleep).\n"
        "page faults in the call: the process's minor faults while the call ran, each a first "
        "touch of a fresh page (serial: each of its calls, one per CPU).\n"
        "wake-up: {} outside threads each submit one tiny job and wait for it; us/trip = wall "
        "time / all trips; one trip's wait: from submit to return, median and p90 over the "
        "run's trips; CPU = user + system time of the whole process / all trips.\n"
        "busy N: N threads of this process spin from before the first run until after the "
        "last; every CPU figure above leaves their CPU out.\n"
        "[1] OpenMP has no way for a thread outside a parallel region to hand a task to a "
        "running team: there is no equivalent of install or enqueue.\n",
        runs, producers);
}

// --carryover: each column's median in a timed row, split by the column measured just before it,
// to show whether one implementation's run slows the next one's (compare/order.hpp says why the
// order is balanced). "after X n" is the median of the n samples that came right after X.
inline void print_carryover(const std::vector<Row>& rows) {
    fmt::print("after-effects: median of each column by the column measured just before it\n");
    for (const Row& r : rows) {
        if (r.label.empty() || r.kind != Row::measured || r.label.starts_with("  ")) continue;
        for (int i = 0; i < num_impls; ++i) {
            std::string line;
            for (int b = -1; b < num_impls; ++b) {
                std::vector<double> v;
                for (std::size_t k = 0; k < r.before[i].size(); ++k)
                    if (r.before[i][k] == b) v.push_back(r.samples[i][k]);
                if (v.empty()) continue;
                line += fmt::format("; after {} {} n {}", b < 0 ? "nothing" : impl_names[b],
                                    num(app::median(v)), v.size());
            }
            if (!line.empty()) fmt::print("  {}, {}{}\n", r.label, impl_names[i], line);
        }
    }
}

} // namespace cmp
