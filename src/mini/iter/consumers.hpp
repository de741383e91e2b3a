// Consumers: map and filter wrap the consumer after them; for_each, sum, reduce and find_any
// end a chain. A consumer is copied at every split, so it holds pointers to the closures, which
// live in the iterator object for as long as the terminal runs.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <mini/iter/plumbing.hpp>
#include <mini/iter/producers.hpp>

namespace mini::iter {

// Reducers.
struct NoopReducer {
    Unit reduce(Unit, Unit) const { return {}; }
};
template <class Op>
struct OpReducer { // op(left, right)
    const Op* op;
    template <class T>
    T reduce(T left, T right) const { return std::invoke(*op, std::move(left), std::move(right)); }
};

// Forwards the splits of a wrapped consumer, wrapping each part again: map and filter.
template <class Self, class Base>
struct WrapSplits {
    auto split_at(std::size_t index) const {
        const Self& self = static_cast<const Self&>(*this);
        auto [l, r, reducer] = self.base.split_at(index);
        return std::tuple(self.wrap(std::move(l)), self.wrap(std::move(r)), std::move(reducer));
    }
    Self split_off_left() const {
        const Self& self = static_cast<const Self&>(*this);
        return self.wrap(self.base.split_off_left());
    }
    auto to_reducer() const { return static_cast<const Self&>(*this).base.to_reducer(); }
    bool full() const { return static_cast<const Self&>(*this).base.full(); }
};

template <class Base, class F>
struct MapConsumer : WrapSplits<MapConsumer<Base, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const F* f;
    MapConsumer(Base b, const F* fn) : base(std::move(b)), f(fn) {}
    MapConsumer wrap(Base b) const { return {std::move(b), f}; }
    auto into_folder() const { return MapFolder<decltype(base.into_folder()), F>{base.into_folder(), f}; }
};

// ANCHOR: filter
template <class Inner, class P>
struct FilterFolder {
    using Result = typename Inner::Result;
    Inner inner;
    const P* p;

    template <class T>
    void consume(T&& item) {
        if (std::invoke(*p, std::as_const(item))) inner.consume(std::forward<T>(item));
    }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: filter

template <class Base, class P>
struct FilterConsumer : WrapSplits<FilterConsumer<Base, P>, Base> {
    using Result = typename Base::Result;
    Base base;
    const P* p;
    FilterConsumer(Base b, const P* pred) : base(std::move(b)), p(pred) {}
    FilterConsumer wrap(Base b) const { return {std::move(b), p}; }
    auto into_folder() const {
        return FilterFolder<decltype(base.into_folder()), P>{base.into_folder(), p};
    }
};

// A consumer that never splits differently from itself: for_each, sum, reduce, find_any.
template <class Self, class R>
struct SameSplits {
    std::tuple<Self, Self, R> split_at(std::size_t) const {
        const Self& self = static_cast<const Self&>(*this);
        return {self, self, self.to_reducer()};
    }
    Self split_off_left() const { return static_cast<const Self&>(*this); }
};

template <class F>
struct ForEachConsumer : SameSplits<ForEachConsumer<F>, NoopReducer> {
    using Result = Unit;
    const F* f;
    explicit ForEachConsumer(const F* fn) : f(fn) {}
    template <class T>
    void consume(T&& item) const { std::invoke(*f, std::forward<T>(item)); }
    ForEachConsumer into_folder() const { return *this; } // its own folder
    bool full() const { return false; }
    Unit complete() && { return {}; }
    NoopReducer to_reducer() const { return {}; }
};

// ANCHOR: sum
template <class V>
struct SumFolder {
    using Result = V;
    V sum{};
    template <class T>
    void consume(T&& item) { sum += std::forward<T>(item); }
    bool full() const { return false; }
    V complete() && { return std::move(sum); }
};

struct Plus {
    template <class V>
    V operator()(V a, V b) const { return a + b; }
};

template <class V>
struct SumConsumer : SameSplits<SumConsumer<V>, OpReducer<Plus>> {
    using Result = V;
    static constexpr Plus plus{};
    SumFolder<V> into_folder() const { return {}; }
    bool full() const { return false; }
    OpReducer<Plus> to_reducer() const { return {&plus}; }
};
// ANCHOR_END: sum

// reduce(identity, op): identity() once per leaf, op to fold the items and to join two results.
template <class V, class Id, class Op>
struct ReduceFolder {
    using Result = V;
    V acc;
    const Op* op;
    template <class T>
    void consume(T&& item) { acc = std::invoke(*op, std::move(acc), std::forward<T>(item)); }
    bool full() const { return false; }
    V complete() && { return std::move(acc); }
};

template <class V, class Id, class Op>
struct ReduceConsumer : SameSplits<ReduceConsumer<V, Id, Op>, OpReducer<Op>> {
    using Result = V;
    const Id* identity;
    const Op* op;
    ReduceConsumer(const Id* id, const Op* o) : identity(id), op(o) {}
    ReduceFolder<V, Id, Op> into_folder() const { return {std::invoke(*identity), op}; }
    bool full() const { return false; }
    OpReducer<Op> to_reducer() const { return {op}; }
};

// ANCHOR: find_any
// One flag shared by every leaf. Relaxed: it is only a hint to stop; the item itself travels
// back through the reducer, ordered by join's latches (rayon's find.rs:5-13).
template <class V, class P>
struct FindFolder {
    using Result = std::optional<V>;
    std::optional<V> item;
    const P* p;
    std::atomic<bool>* found;

    // No test of `item` first: after a match full() is true, and the leaf stops at once.
    template <class T>
    void consume(T&& x) {
        if (!std::invoke(*p, std::as_const(x))) return;
        item.emplace(std::forward<T>(x));
        found->store(true, std::memory_order_relaxed);
    }
    bool full() const { return found->load(std::memory_order_relaxed); }
    Result complete() && { return std::move(item); }
};

struct FirstFound { // left.or(right)
    template <class T>
    std::optional<T> reduce(std::optional<T> left, std::optional<T> right) const {
        return left ? std::move(left) : std::move(right);
    }
};

template <class V, class P>
struct FindConsumer : SameSplits<FindConsumer<V, P>, FirstFound> {
    using Result = std::optional<V>;
    const P* p;
    std::atomic<bool>* found;
    FindConsumer(const P* pred, std::atomic<bool>* flag) : p(pred), found(flag) {}
    FindFolder<V, P> into_folder() const { return {std::nullopt, p, found}; }
    bool full() const { return found->load(std::memory_order_relaxed); }
    FirstFound to_reducer() const { return {}; }
};
// ANCHOR_END: find_any

// ANCHOR: list_vec
// collect_vec of an iterator with no length (after filter): the vectors of each leaf, in a list
// spliced in order (rayon's LinkedList<Vec<T>>, extend.rs:586-593), then moved into one vector.
// rayon's leaf has one Vec, grown by realloc, which moves no item and touches no page twice. A
// std::vector cannot grow in place: it copies every item to a new block and faults the new
// pages. So a full vector goes to the list as it is, and the next one is twice its size, up to
// 64 KiB: blocks of one size, which the allocator hands back to the next call whatever the
// leaves' sizes, where a block of a new size would often need fresh pages (chapter 14.5).
template <class V>
struct ListVecFolder {
    using Result = std::list<std::vector<V>>;
    static constexpr std::size_t max_block = std::max<std::size_t>(1, (64 << 10) / sizeof(V));
    Result full_ones;
    std::vector<V> items;
    template <class T>
    void consume(T&& x) {
        if (items.size() == items.capacity() && !items.empty()) { // grow without copying
            const std::size_t next = std::min(2 * items.capacity(), max_block);
            full_ones.push_back(std::move(items));
            items = std::vector<V>();
            items.reserve(next);
        }
        items.emplace_back(std::forward<T>(x));
    }
    bool full() const { return false; }
    Result complete() && {
        if (!items.empty()) full_ones.push_back(std::move(items));
        return std::move(full_ones);
    }
};

struct ListAppend {
    template <class L>
    L reduce(L left, L right) const {
        left.splice(left.end(), right);
        return left;
    }
};
// ANCHOR_END: list_vec

template <class V>
struct ListVecConsumer : SameSplits<ListVecConsumer<V>, ListAppend> {
    using Result = std::list<std::vector<V>>;
    ListVecFolder<V> into_folder() const { return {}; }
    bool full() const { return false; }
    ListAppend to_reducer() const { return {}; }
};

} // namespace mini::iter
