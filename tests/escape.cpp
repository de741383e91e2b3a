// Death cases, each run as its own process by cmake/expect.cmake (tests/CMakeLists.txt checks the
// exact exit and the message):
//   escape unawaited  a job that nobody waits for throws: there is nobody to rethrow it to, so it
//                     aborts with its what() (join's and install's exceptions reach their caller
//                     instead: test_exceptions)
//   escape exit       a job of the global pool calls std::exit(7): the process exits with 7
#include <mini/join.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "helpers.hpp"

namespace {

// A job nobody waits for (rayon's spawn is one): its JobRef runs the closure through
// call_or_abort, the way such a job must, since a JobRef may not throw.
void unawaited_throws(mini::ThreadPool& pool) {
    static auto body = [] { throw std::runtime_error("boom from a job nobody waits for"); };
    pool.inject({nullptr, [](void*) noexcept { mini::call_or_abort("a job nobody waits for", body); }});
    mini::LockLatch never;
    never.wait(); // the abort ends the process; nothing sets this latch
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
    if (std::strcmp(what, "unawaited") == 0) {
        mini::ThreadPool pool(1);
        unawaited_throws(pool);
    }
    std::fputs("usage: escape unawaited|exit\n", stderr);
    std::_Exit(2);
}
