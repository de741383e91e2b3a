// in_place_scope and in_place_scope_fifo: a scope whose body runs on the calling thread.
//
//     mini::in_place_scope([&](mini::Scope& s) { s.spawn(...); ... });
//
// scope runs its body on a worker of the pool: from outside the pool, the body is injected and
// the caller blocks. in_place_scope runs it right here, on whatever thread calls it; only the
// jobs it spawns go to the pool (rayon-core-v1.10.1, scope/mod.rs, lines 406-478: in_place_scope,
// do_in_place_scope and their _fifo twins; the pool's own, thread_pool/mod.rs lines 280-298).
// Called on a worker of the scope's pool it is scope itself: that worker runs the body and works
// until the count reaches 0. Called on any other thread, the body runs there, its spawns are
// injected, and the caller waits for the count. rayon's caller blocks on a latch of its own (a
// CountLockLatch); mini's count can only be waited for by a worker of its pool, so the caller
// hands that wait to one, through in_worker (blocked from outside any pool, working in its own
// pool's loop from a worker of another): that worker runs the scope's jobs while it waits.
#pragma once

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/pool.hpp>
#include <mini/scope.hpp>
#include <mini/scope_fifo.hpp>

namespace mini {

struct InPlace {
    // Runs body(scope) on this thread, then returns once every job of the scope has run:
    // its result, or the first exception any of them threw. `base` is scope's Scope.
    template <class S, class Body>
    static decltype(auto) complete(S& scope, Scope& base, Body& body) {
        WorkerThread* w = WorkerThread::current();
        if (w != nullptr && &w->pool() == &base.pool_) return scope.complete(*w, body);
        using Result = stored_t<std::invoke_result_t<Body&, S&>>;
        std::optional<slot_t<Result>> result;
        base.execute_job([&] { result.emplace(call(body, scope)); }); // the count's first 1
        base.pool_.in_worker([&base](WorkerThread& worker, bool) {
            worker.wait_until(base.job_completed_latch_.as_spin_latch()); // runs the jobs meanwhile
        });
        if (base.panic_) std::rethrow_exception(base.panic_); // every job is done
        return take<Result>(result);
    }

    static Scope& base(Scope& s) noexcept { return s; }
    static Scope& base(ScopeFifo& s) noexcept { return s.base_; }
};

template <class Body>
decltype(auto) ThreadPool::in_place_scope(Body&& body) {
    Scope s(*this);
    return InPlace::complete(s, s, body);
}

template <class Body>
decltype(auto) ThreadPool::in_place_scope_fifo(Body&& body) {
    ScopeFifo s(*this);
    return InPlace::complete(s, InPlace::base(s), body);
}

// On the pool of the calling worker, or on the global pool from any other thread.
template <class Body>
decltype(auto) in_place_scope(Body&& body) {
    WorkerThread* w = WorkerThread::current();
    return (w != nullptr ? w->pool() : ThreadPool::global()).in_place_scope(std::forward<Body>(body));
}

template <class Body>
decltype(auto) in_place_scope_fifo(Body&& body) {
    WorkerThread* w = WorkerThread::current();
    return (w != nullptr ? w->pool() : ThreadPool::global())
        .in_place_scope_fifo(std::forward<Body>(body));
}

} // namespace mini
