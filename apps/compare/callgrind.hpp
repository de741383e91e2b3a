// Instruction counts for compare's workloads (apps/compare_instructions.py prints them per join
// and per round trip). Run under `valgrind --tool=callgrind`, every measurement zeroes the costs
// of all threads before it starts and dumps them, labelled, when it ends, so that each dump file
// holds one workload of one runtime and nothing else (not the setup, the pauses, the table).
// Outside valgrind, or without Debian's valgrind headers, a Counted does nothing: the client
// requests are a few instructions that valgrind recognises and a real CPU runs as no-ops.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/core.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define MINI_HAVE_CALLGRIND 1
#else
#define MINI_HAVE_CALLGRIND 0
#endif

namespace cmp {

// One labelled measurement: "compare ROW RUNTIME run RUN per N", N the joins, trips or calls the
// workload made, by which compare_instructions.py divides the dump's instruction count.
class Counted {
public:
    Counted(const char* row, const char* runtime, const std::string& run, std::uint64_t per)
        : label_(fmt::format("compare {} {} run {} per {}", row, runtime, run, per)) {
#if MINI_HAVE_CALLGRIND
        if (RUNNING_ON_VALGRIND) CALLGRIND_ZERO_STATS;
#endif
    }
    Counted(const Counted&) = delete;
    Counted& operator=(const Counted&) = delete;
    ~Counted() {
#if MINI_HAVE_CALLGRIND
        if (RUNNING_ON_VALGRIND) CALLGRIND_DUMP_STATS_AT(label_.c_str());
#endif
    }

private:
    std::string label_;
};

} // namespace cmp
