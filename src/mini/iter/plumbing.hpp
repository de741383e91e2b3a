// The plumbing of parallel iterators (rayon's iter/plumbing): the four traits as concepts, the
// length splitter, and the two bridges that cut a producer and a consumer into joins.
//
// A Producer is a piece of input that can be cut at an index and folded. A Consumer is the
// output side: cut at the same index it gives two consumers and the Reducer that joins their
// results in order; at a leaf it gives a Folder, which takes the items one at a time. full()
// says that no more items are wanted (find_any has found one).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include <mini/join.hpp>
#include <mini/sabotage.hpp>
#include <mini/splitter.hpp>

namespace mini::iter {

// ANCHOR: concepts
// A leaf's accumulator: takes items, says when it wants no more, and completes into a Result.
template <class F, class Item>
concept Folder = std::move_constructible<F> && requires(F f, const F cf, Item&& item) {
    typename F::Result;
    f.consume(std::forward<Item>(item));
    { cf.full() } -> std::same_as<bool>;
    { std::move(f).complete() } -> std::same_as<typename F::Result>;
};

// Joins two results: left's items come before right's. Associative, not commutative.
template <class R, class T>
concept Reducer = requires(R r, T left, T right) {
    { r.reduce(std::move(left), std::move(right)) } -> std::same_as<T>;
};

// The output side of an indexed bridge: split at an index into (left, right, reducer).
template <class C, class Item>
concept Consumer = std::copy_constructible<C> && requires(const C c, std::size_t index) {
    typename C::Result;
    { c.into_folder() } -> Folder<Item>;
    { c.full() } -> std::same_as<bool>;
    { std::get<0>(c.split_at(index)) } -> std::same_as<C&&>;
    { std::get<1>(c.split_at(index)) } -> std::same_as<C&&>;
    requires Reducer<std::tuple_element_t<2, decltype(c.split_at(index))>, typename C::Result>;
};

// The same when nobody knows where the split falls: the left part takes the earlier items.
template <class C, class Item>
concept UnindexedConsumer = Consumer<C, Item> && requires(const C c) {
    { c.split_off_left() } -> std::same_as<C>;
    requires Reducer<decltype(c.to_reducer()), typename C::Result>;
};

namespace detail {
template <class Item>
struct AnyFolder { // a Folder of Item and nothing else, to check that producers accept folders
    using Result = Unit;
    void consume(Item&&);
    bool full() const;
    Unit complete() &&;
};
} // namespace detail

// The input side of an indexed bridge: `len` items that can be cut at any index.
template <class P>
concept Producer = std::move_constructible<P> && requires(const P p, std::size_t index) {
    typename P::Item;
    { p.len() } -> std::same_as<std::size_t>;
    { p.min_len() } -> std::same_as<std::size_t>;
    { p.max_len() } -> std::same_as<std::size_t>;
    { p.split_at(index) } -> std::same_as<std::pair<P, P>>;
    { p.fold_with(detail::AnyFolder<typename P::Item>{}) }
        -> std::same_as<detail::AnyFolder<typename P::Item>>;
};

// Input of unknown length: split() gives two halves, or one piece and nothing when it cannot.
template <class P>
concept UnindexedProducer = std::move_constructible<P> && requires(const P p) {
    typename P::Item;
    { p.split() } -> std::same_as<std::pair<P, std::optional<P>>>;
    { p.fold_with(detail::AnyFolder<typename P::Item>{}) }
        -> std::same_as<detail::AnyFolder<typename P::Item>>;
};
// ANCHOR_END: concepts

// What every question "are you full?" goes through: a folder between two items and the bridge
// before it splits. With IGNORE_FULL nobody asks, and a find_any reads to the end of its piece.
template <class T>
bool asks_full(const T& consumer_or_folder) {
    if constexpr (sabotage::ignore_full) return false; // [IGNORE_FULL] never ask
    return consumer_or_folder.full();
}

// ANCHOR: length_splitter
// The thief-splitter (chapter 4) plus the producer's bounds: never a piece shorter than `min`,
// and at least len / max splits up front so that no piece is longer than `max`.
class LengthSplitter {
public:
    LengthSplitter(std::size_t min, std::size_t max, std::size_t len, std::size_t threads)
        : inner_(threads), min_(std::max<std::size_t>(min, 1)) {
        inner_.raise_splits(len / std::max<std::size_t>(max, 1)); // rayon's: a max of 0 is 1
    }
    bool try_split(std::size_t len, bool migrated) {
        return len / 2 >= min_ && inner_.try_split(migrated);
    }
    std::size_t splits() const noexcept { return inner_.splits(); }

private:
    Splitter inner_;
    std::size_t min_;
};
// ANCHOR_END: length_splitter

// ANCHOR: reduce_in_order
template <class R, class T>
T reduce_in_order(R& reducer, T&& left, T&& right) {
    if constexpr (sabotage::reduce_swapped)
        return reducer.reduce(std::move(right), std::move(left)); // [REDUCE_SWAPPED]
    return reducer.reduce(std::move(left), std::move(right));
}
// ANCHOR_END: reduce_in_order

// Sees every piece the bridge splits (len, migrated, splits left): the splits driver counts.
struct NoObserver {
    void operator()(std::size_t, bool, std::size_t) const noexcept {}
};

// ANCHOR: bridge_helper
template <Producer P, class C, class Observe>
typename C::Result bridge_helper(ThreadPool& pool, std::size_t len, bool migrated,
                                 LengthSplitter splitter, P producer, C consumer,
                                 const Observe& observe) {
    if (asks_full(consumer)) return consumer.into_folder().complete(); // nothing more wanted
    if (!splitter.try_split(len, migrated))
        return producer.fold_with(consumer.into_folder()).complete(); // a leaf
    observe(len, migrated, splitter.splits());
    const std::size_t mid = len / 2;
    auto producers = producer.split_at(mid);
    auto consumers = consumer.split_at(mid);
    auto [left, right] = join_context(
        pool,
        [&](FnContext ctx) {
            return bridge_helper(pool, mid, ctx.migrated(), splitter, std::move(producers.first),
                                 std::move(std::get<0>(consumers)), observe);
        },
        [&](FnContext ctx) {
            return bridge_helper(pool, len - mid, ctx.migrated(), splitter,
                                 std::move(producers.second), std::move(std::get<1>(consumers)),
                                 observe);
        });
    return reduce_in_order(std::get<2>(consumers), std::move(left), std::move(right));
}

// rayon's bridge_producer_consumer: both sides cut at len / 2 while the splitter says yes.
template <Producer P, Consumer<typename P::Item> C, class Observe = NoObserver>
typename C::Result bridge_producer_consumer(ThreadPool& pool, P producer, C consumer,
                                            const Observe& observe = {}) {
    const std::size_t len = producer.len();
    LengthSplitter splitter(producer.min_len(), producer.max_len(), len, pool.num_threads());
    return bridge_helper(pool, len, false, splitter, std::move(producer), std::move(consumer),
                         observe);
}
// ANCHOR_END: bridge_helper

// ANCHOR: bridge_unindexed
// rayon's bridge_unindexed: the plain splitter, and the producer decides where it splits; the
// left half gets split_off_left(), the right half the consumer itself.
template <UnindexedProducer P, UnindexedConsumer<typename P::Item> C>
typename C::Result bridge_unindexed_helper(ThreadPool& pool, bool migrated, Splitter splitter,
                                           P producer, C consumer) {
    if (asks_full(consumer)) return consumer.into_folder().complete();
    if (!splitter.try_split(migrated)) return producer.fold_with(consumer.into_folder()).complete();
    auto [left_p, right_p] = producer.split();
    if (!right_p) return left_p.fold_with(consumer.into_folder()).complete();
    auto reducer = consumer.to_reducer();
    C left_c = consumer.split_off_left();
    P right = std::move(*right_p), left = std::move(left_p);
    auto [l, r] = join_context(
        pool,
        [&](FnContext ctx) {
            return bridge_unindexed_helper(pool, ctx.migrated(), splitter, std::move(left),
                                           std::move(left_c));
        },
        [&](FnContext ctx) {
            return bridge_unindexed_helper(pool, ctx.migrated(), splitter, std::move(right),
                                           std::move(consumer));
        });
    return reduce_in_order(reducer, std::move(l), std::move(r));
}

template <UnindexedProducer P, UnindexedConsumer<typename P::Item> C>
typename C::Result bridge_unindexed(ThreadPool& pool, P producer, C consumer) {
    return bridge_unindexed_helper(pool, false, Splitter(pool.num_threads()), std::move(producer),
                                   std::move(consumer));
}
// ANCHOR_END: bridge_unindexed

// The pool a terminal runs on: the calling worker's, or the global pool from outside any pool.
inline ThreadPool& current_pool() {
    WorkerThread* w = WorkerThread::current();
    return w != nullptr ? w->pool() : ThreadPool::global();
}

} // namespace mini::iter
