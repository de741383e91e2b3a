// The drivers' only Linux-specific code: pinning a thread to one CPU (sched_getaffinity,
// pthread_setaffinity_np), used by compare and litmus, and the whole machine's busy time
// (/proc/stat), the CPU a thread runs on (sched_getcpu) and another thread's CPU time
// (pthread_getcpuclockid), used by compare.
// Elsewhere both degrade: no CPU is listed, so threads run unpinned, and the machine's load is
// unknown; `missing` says so. The mini library itself uses only the standard library.
#pragma once

#include <ctime>
#include <vector>

#ifdef __linux__
#include <cstdio>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#endif

namespace app::platform {

#ifdef __linux__
inline constexpr const char* missing = nullptr;

// The CPUs this process may run on, or none if the kernel would not say.
inline std::vector<int> allowed_cpus() {
    cpu_set_t set;
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
}

// Pins the calling thread to one CPU for its lifetime. Threads created meanwhile would inherit
// the pin: create none.
class Pin {
public:
    explicit Pin(int cpu) {
        pthread_getaffinity_np(pthread_self(), sizeof old_, &old_);
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    }
    ~Pin() { pthread_setaffinity_np(pthread_self(), sizeof old_, &old_); }
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;

private:
    cpu_set_t old_;
};

// Busy CPU seconds of the whole machine so far, or a negative value if unknown.
inline double machine_busy_seconds() {
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f) return -1;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
    const int n = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
                              &system, &idle, &iowait, &irq, &softirq, &steal);
    std::fclose(f);
    if (n != 8) return -1;
    return double(user + nice + system + irq + softirq + steal) / double(sysconf(_SC_CLK_TCK));
}

// The CPU the calling thread runs on now (it may move right after).
inline int current_cpu() { return sched_getcpu(); }

// CPU seconds another thread of this process has used so far (its per-thread CPU clock), or a
// negative value if unknown.
inline double thread_cpu_seconds(pthread_t thread) {
    clockid_t clock;
    timespec t{};
    if (pthread_getcpuclockid(thread, &clock) != 0 || clock_gettime(clock, &t) != 0) return -1;
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// CPU seconds of the whole process so far (CLOCK_PROCESS_CPUTIME_ID: the scheduler's runtime of
// every thread, with no user/system split to adjust).
inline double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}
#else
inline constexpr const char* missing =
    "not Linux: threads run unpinned (compare's serial code runs once), the machine's load is "
    "not measured, and --busy threads' CPU is not taken out of the CPU rows";

inline std::vector<int> allowed_cpus() { return {}; }

class Pin {
public:
    explicit Pin(int) {}
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;
};

inline double machine_busy_seconds() { return -1; }
inline int current_cpu() { return -1; }
template <class Thread>
inline double thread_cpu_seconds(Thread) { return -1; }
inline double process_cpu_seconds() { return double(std::clock()) / CLOCKS_PER_SEC; }
#endif

} // namespace app::platform
