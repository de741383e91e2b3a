// Death cases for exception and exit safety, each run as its own process by cmake/expect.cmake
// (tests/CMakeLists.txt checks the exact exit and the message):
//   escape a         A throws on a worker: abort with its what(), before join's frame unwinds
//   escape b         B throws, popped back and run inline: the same
//   escape stolen-b  B throws on the thief that stole it: the same, on the thief
//   escape install-outside  install's closure throws, called from outside the pool: the same
//   escape install-inside   ... called from a worker of the pool: the same (the contract does
//                           not depend on the caller)
//   escape exit      a job of the global pool calls std::exit(7): the process exits with 7
// A FrameGuard lives in the frame that calls join. If any unwinding reaches it, its destructor
// says so and exits with 5: the wrong outcome, distinct from the abort the tests want.
#include <mini/join.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "helpers.hpp"

namespace {

struct FrameGuard {
    ~FrameGuard() {
        std::fputs("escape: a destructor of join's caller ran: the frame was unwound\n", stderr);
        std::_Exit(5);
    }
};

[[noreturn]] void boom(const char* what) { throw std::runtime_error(what); }

void a_throws(mini::ThreadPool& pool) {
    pool.install([] {
        FrameGuard guard;
        mini::join([] { boom("boom from A"); }, [] {});
    });
}

void b_throws(mini::ThreadPool& pool) { // one thread: nobody steals B, the owner runs it inline
    pool.install([] {
        FrameGuard guard;
        mini::join([] {}, [] { boom("boom from B"); });
    });
}

void stolen_b_throws(mini::ThreadPool& pool) { // two threads: A keeps the owner until B started
    std::atomic<bool> b_started{false};
    pool.install([&] {
        FrameGuard guard;
        mini::join(
            [&] {
                // Hand-off, not a sleep: each injection wakes a sleeper for certain (chapter 2),
                // and a woken worker steals before it looks at the injector.
                while (!b_started.load()) {
                    test::wake_a_worker(pool);
                    std::this_thread::yield();
                }
            },
            [&] {
                b_started = true;
                boom("boom from a stolen B");
            });
    });
}

void install_throws(mini::ThreadPool& pool) { pool.install([] { boom("boom from install"); }); }

void nested_install_throws(mini::ThreadPool& pool) {
    pool.install([&] {
        FrameGuard guard;
        pool.install([] { boom("boom from an inner install"); });
    });
}

} // namespace

int main(int argc, char** argv) {
    const char* what = argc == 2 ? argv[1] : "";
    if (std::strcmp(what, "exit") == 0) {
        mini::join([] {
            std::puts("escape: a job of the global pool calls std::exit(7)");
            std::fflush(stdout);
            std::exit(7);
        }, [] {});
    }
    const bool one = std::strcmp(what, "b") == 0;
    mini::ThreadPool pool(one ? 1 : 2);
    FrameGuard guard;
    if (std::strcmp(what, "a") == 0) a_throws(pool);
    if (one) b_throws(pool);
    if (std::strcmp(what, "stolen-b") == 0) stolen_b_throws(pool);
    if (std::strcmp(what, "install-outside") == 0) install_throws(pool);
    if (std::strcmp(what, "install-inside") == 0) nested_install_throws(pool);
    std::fputs("usage: escape a|b|stolen-b|install-outside|install-inside|exit\n", stderr);
    std::_Exit(2);
}
