// Whether another thread of this process is blocked in the kernel, read from Linux's /proc: a
// forced test's way to know that a thread waits (on a mutex, a condition variable), with no sleep
// and no hook in the code under test.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

#include <sys/types.h>
#include <unistd.h>

namespace test {

// The calling thread's id, as /proc/self/task names it.
inline pid_t thread_id() { return gettid(); }

// The scheduler's state of thread `tid` of this process: 'R' running or runnable (a thread that
// spins or yields), 'S' blocked (a futex wait: std::mutex, std::condition_variable), '?' if it
// cannot be read. The state is the first field after the parenthesised name, which may itself
// hold a ')'.
inline char thread_state(pid_t tid) {
    std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/stat");
    const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const auto paren = s.rfind(')');
    return paren != std::string::npos && paren + 2 < s.size() ? s[paren + 2] : '?';
}

} // namespace test
