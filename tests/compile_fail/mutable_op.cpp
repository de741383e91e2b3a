// Must not compile: an op that every worker calls at once, with state it writes through a
// non-const call (a mutable lambda). rayon requires Fn + Sync; mini calls the op through a const
// reference, and a static_assert says why (broadcast.hpp). Before issue 47's fix, broadcast took
// such a lambda and called it from every worker at once: TSan reported a data race on its state,
// and a plain build lost up to a quarter of 4,000,000 increments. One case per build (CASE):
// tests/CMakeLists.txt builds each and expects the static_assert's message.
#include <mini/broadcast.hpp>

int main() {
    mini::ThreadPool pool(2);
    int calls = 0;
#if CASE == 1
    pool.broadcast([calls](mini::BroadcastContext) mutable { ++calls; });
#elif CASE == 2
    pool.spawn_broadcast([calls](mini::BroadcastContext) mutable { ++calls; });
#elif CASE == 3
    pool.scope([&](mini::Scope& s) { s.spawn_broadcast([calls](mini::Scope&, mini::BroadcastContext) mutable { ++calls; }); });
#else
#error "CASE must be 1, 2 or 3"
#endif
    return calls;
}
