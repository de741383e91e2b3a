// par_bridge(first, last) / par_bridge(range): a sequential input range made parallel (rayon's
// iter/par_bridge.rs). Nobody knows its length, and nobody can cut it: the workers take its
// items one at a time under one lock, each into its own leaf. No order is kept.
//
// The bridge splits into at most one piece per thread (split_count), and every piece is the same
// shared state. A piece's leaf loops: lock, take the next item, unlock, consume it, until the
// range is done or the consumer full.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/plumbing.hpp>
#include <mini/pool.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

template <class R>
struct BridgeState {
    std::mutex mutex; // held while the range's iterator moves: its ++ may itself use the pool
    R range;
    std::ranges::iterator_t<R> it;
    bool done = false; // fused: once the end is seen, nobody reads the range again
    std::atomic<std::size_t> split_count;
    std::vector<std::atomic<bool>> threads_started; // one flag per worker of the pool

    BridgeState(R r, std::size_t threads)
        : range(std::move(r)), it(std::ranges::begin(range)), split_count(threads), threads_started(threads) {}
};

template <class R>
struct BridgeProducer {
    using Item = std::ranges::range_value_t<R>;
    BridgeState<R>* state;

    std::pair<BridgeProducer, std::optional<BridgeProducer>> split() const {
        std::size_t n = state->split_count.load(std::memory_order_relaxed);
        while (n > 0)
            if (state->split_count.compare_exchange_weak(n, n - 1, std::memory_order_relaxed))
                return {*this, *this};
        return {*this, std::nullopt};
    }

    // ANCHOR: bridge_guard
    // rayon #690 / PR #997: a worker that holds the lock runs ++it, which joins; while it waits
    // for its stolen half it runs jobs from its own deque, one of which may be another piece of
    // this same bridge. That piece must not lock again (std::mutex: a deadlock). A worker's first
    // leaf drains the range or stops at full(), so a second one on the same worker has nothing
    // to do: the flag says "this worker has been here", and the second one returns at once.
    bool entered_before() const {
        WorkerThread* w = WorkerThread::current();
        if (w == nullptr) return false;
        auto& started = state->threads_started[w->index() % state->threads_started.size()];
        const bool before = started.exchange(true, std::memory_order_relaxed);
        if constexpr (sabotage::bridge_no_guard) return false; // [BRIDGE_NO_GUARD] lock again
        return before;
    }
    // ANCHOR_END: bridge_guard

    // ANCHOR: bridge_fold
    template <Folder<Item> F>
    F fold_with(F folder) const {
        if (entered_before()) return folder;
        std::vector<Item> taken;
        std::size_t batch = 1; // items per visit: doubled each time the lock was found taken
        for (;;) {
            std::unique_lock lock(state->mutex, std::try_to_lock);
            if (!lock.owns_lock()) { // another leaf is inside: the items are cheap next to the lock
                batch = std::min<std::size_t>(batch * 2, max_batch);
                lock.lock();
            }
            if (!take(batch, taken)) return folder;
            lock.unlock();
            for (Item& item : taken) {
                folder.consume(std::move(item));
                if (asks_full(folder)) return folder;
            }
            taken.clear();
        }
    }

    static constexpr std::size_t max_batch = 64;

    // Up to n items moved into `out`, the lock held; false once the range is done and none came.
    bool take(std::size_t n, std::vector<Item>& out) const {
        while (out.size() < n && !state->done) {
            if (state->it == std::ranges::end(state->range)) {
                state->done = true;
                break;
            }
            out.push_back(*state->it);
            ++state->it; // may use the pool, this worker holding the lock
        }
        return !out.empty();
    }
    // ANCHOR_END: bridge_fold
};

template <std::ranges::input_range R>
class ParBridge : public ParallelIterator<ParBridge<R>> {
public:
    using Item = std::ranges::range_value_t<R>;
    static constexpr bool indexed = false;

    explicit ParBridge(R range) : range_(std::move(range)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        BridgeState<R> state(range_, pool.num_threads());
        return bridge_unindexed(pool, BridgeProducer<R>{&state}, std::move(consumer));
    }

private:
    R range_; // a view: copied at each drive, so the bridge object itself never moves
};

} // namespace mini::iter

namespace mini::iter {

// [first, last) as a range: std::ranges::subrange, which libc++ 14 does not have yet.
template <class I, class S>
struct BridgeRange {
    I first;
    S last;
    I begin() const { return first; }
    S end() const { return last; }
};

} // namespace mini::iter

namespace mini {

// Items copied out of [first, last), taken in turn by the workers, in no order.
template <std::input_iterator I, std::sentinel_for<I> S>
auto par_bridge(I first, S last) {
    using R = iter::BridgeRange<I, S>;
    return iter::ParBridge<R>(R{std::move(first), std::move(last)});
}
// Over a range: an lvalue container by its iterators (it must outlive the terminal), a
// temporary range (a view) by value.
template <std::ranges::input_range R>
auto par_bridge(R&& range) {
    if constexpr (std::is_lvalue_reference_v<R>)
        return par_bridge(std::ranges::begin(range), std::ranges::end(range));
    else
        return iter::ParBridge<std::remove_cvref_t<R>>(std::forward<R>(range));
}

} // namespace mini
