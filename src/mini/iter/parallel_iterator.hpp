// What a user calls: the adaptors and the terminals, written once for every iterator (rayon's
// ParallelIterator and IndexedParallelIterator traits, as a CRTP base).
//
// An iterator D provides `Item`, `indexed` and drive_unindexed(pool, consumer); an indexed one
// also len() and with_producer(callback), and gets drive(pool, consumer) from here, which is
// the bridge. A terminal builds its consumer, picks the pool (the calling worker's, else the
// global one) and drives. An exception thrown by a closure reaches the terminal's caller
// through join, as in chapter 7.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/iter/collect.hpp>
#include <mini/iter/consumers.hpp>
#include <mini/iter/plumbing.hpp>
#include <mini/iter/producers.hpp>

namespace mini::iter {

template <class Base, class F> class Map;
template <class Base, class P> class Filter;
template <class Base> class Enumerate;
template <class Base> class Bounded;
// Chapter 14's: the unindexed and stateful adaptors, their helpers and terminals.
template <class Base, class F> class FilterMap;
template <class Base, class F> class FlatMap;
template <class Base, class F> class FlatMapIter;
template <class Base, class Id, class F> class Fold;
template <class Base, class Init, class F> class MapInit;
template <class T> struct CopyOf;
struct AsParIter;
template <class Init, class F> struct ForEachInitConsumer;
template <class Base, class Id, class F> class TryFold;
template <class D> struct TryTerminals;
template <class D> struct CollectInto;
template <class D> struct UnzipTerminals;
// Part III's indexed half (chapter 13): each in its own file, which <mini/par.hpp> includes.
template <class A, class B> class Zip;
template <class Base> class StepBy;
template <class Base, bool take> class SkipTake;
template <class Base> class Rev;
template <class Base> class WhileSome;
template <class Base> class PanicFuse;
template <bool trivial> struct CopyItem;
template <class A, class B> Zip<A, B> zip_eq(A a, B b);
template <class D, class V, class A> void collect_into_vec(const D& it, std::vector<V, A>& out);
template <class D, class P> auto find_first_last(const D& it, const P& p, bool last);
template <class D, class P> auto position(const D& it, P p, std::optional<bool> last);
template <bool is_max, class D> auto min_max(const D& it);
template <bool is_max, class D, class Cmp> auto min_max_by(const D& it, const Cmp& cmp);
template <bool is_max, class D, class Key> auto min_max_by_key(const D& it, const Key& key);

// The value an item holds: what sum and collect_vec give.
template <class It>
using value_t = std::remove_cvref_t<typename It::Item>;

// ANCHOR: found_t
// What a search gives back for an item: the item itself, or for an item T& (par_iter over a
// vector) a std::reference_wrapper<T> to the element, as rayon's find_any gives &T: no copy, and
// move-only elements can be found. std::optional<T&> is not C++20; a std::optional<T> of the
// value is assignable from the std::optional<std::reference_wrapper<T>>.
template <class Item>
using found_t = std::conditional_t<std::is_lvalue_reference_v<Item>,
                                   std::reference_wrapper<std::remove_reference_t<Item>>,
                                   std::remove_cvref_t<Item>>;
// ANCHOR_END: found_t

template <class D>
class ParallelIterator {
public:
    // ANCHOR: drive
    // The bridge, for an indexed iterator: its producer and the consumer, cut together.
    template <class C, class Observe = NoObserver>
    auto drive(ThreadPool& pool, C consumer, const Observe& observe = {}) const {
        return self().with_producer([&](auto producer) {
            return bridge_producer_consumer(pool, std::move(producer), std::move(consumer), observe);
        });
    }
    // ANCHOR_END: drive
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const { return self().drive(pool, consumer); }

    // Adaptors.
    template <class F>
    Map<D, F> map(F f) const { return {self(), std::move(f)}; }
    template <class P>
    Filter<D, P> filter(P p) const { return {self(), std::move(p)}; }
    Enumerate<D> enumerate() const { return Enumerate<D>{self()}; }
    Bounded<D> with_min_len(std::size_t n) const { return {self(), n, max_of_size}; }
    Bounded<D> with_max_len(std::size_t n) const { return {self(), 1, n}; }
    // Unindexed and stateful adaptors (chapter 14).
    template <class F> FilterMap<D, F> filter_map(F f) const { return {self(), std::move(f)}; }
    template <class F> FlatMap<D, F> flat_map(F f) const { return {self(), std::move(f)}; }
    template <class F> FlatMapIter<D, F> flat_map_iter(F f) const { return {self(), std::move(f)}; }
    template <class F = AsParIter> FlatMap<D, F> flatten() const { return {self(), F{}}; }
    template <class Id, class F> Fold<D, Id, F> fold(Id id, F op) const { return {self(), std::move(id), std::move(op)}; }
    template <class T, class F> Fold<D, CopyOf<T>, F> fold_with(T init, F op) const { return {self(), {std::move(init)}, std::move(op)}; }
    template <class I, class F> MapInit<D, I, F> map_init(I init, F f) const { return {self(), std::move(init), std::move(f)}; }
    template <class T, class F> MapInit<D, CopyOf<T>, F> map_with(T value, F f) const { return {self(), {std::move(value)}, std::move(f)}; }
    template <class Id, class F> TryFold<D, Id, F> try_fold(Id id, F op) const { return {self(), std::move(id), std::move(op)}; }
    template <class B>
    Zip<D, B> zip(B other) const { return {self(), std::move(other)}; }
    template <class B>
    Zip<D, B> zip_eq(B other) const { return iter::zip_eq(self(), std::move(other)); }
    StepBy<D> step_by(std::size_t n) const { return {self(), n}; }
    SkipTake<D, false> skip(std::size_t n) const { return {self(), n}; }
    SkipTake<D, true> take(std::size_t n) const { return {self(), n}; }
    Rev<D> rev() const { return Rev<D>{self()}; }
    Map<D, CopyItem<true>> copied() const { return {self(), {}}; }
    Map<D, CopyItem<false>> cloned() const { return {self(), {}}; }
    WhileSome<D> while_some() const { return WhileSome<D>{self()}; }
    PanicFuse<D> panic_fuse() const { return PanicFuse<D>{self()}; }

    // Terminals.
    template <class F>
    void for_each(F f) const { run(ForEachConsumer<F>(&f)); }

    auto sum() const { return run(SumConsumer<value_t<D>>{}); }

    template <class Id, class Op>
    auto reduce(Id identity, Op op) const {
        using V = std::remove_cvref_t<std::invoke_result_t<Id&>>;
        return run(ReduceConsumer<V, Id, Op>(&identity, &op));
    }

    auto count() const { // std::size_t
        return map([](auto&&) { return std::size_t{1}; }).sum();
    }

    template <class P>
    auto find_any(P p) const { // std::optional<found_t<Item>>
        std::atomic<bool> found{false};
        return run(FindConsumer<found_t<typename D::Item>, P>(&p, &found));
    }
    template <class P>
    bool any(P p) const { // rayon: map(p).find_any(bool::clone).is_some()
        return map(std::move(p)).find_any([](bool b) { return b; }).has_value();
    }
    template <class P>
    bool all(P p) const { // rayon: map(p).find_any(is_false).is_none()
        return !map(std::move(p)).find_any([](bool b) { return !b; }).has_value();
    }

    // The ordered searches (find_first_last.hpp) and min / max (min_max.hpp).
    template <class P>
    auto find_first(P p) const { return find_first_last(self(), p, false); }
    template <class P>
    auto find_last(P p) const { return find_first_last(self(), p, true); }
    template <class P>
    auto position_first(P p) const { return position(self(), std::move(p), false); }
    template <class P>
    auto position_last(P p) const { return position(self(), std::move(p), true); }
    template <class P>
    auto position_any(P p) const { return position(self(), std::move(p), std::nullopt); }
    auto min() const { return min_max<false>(self()); }
    auto max() const { return min_max<true>(self()); }
    template <class Cmp>
    auto min_by(Cmp cmp) const { return min_max_by<false>(self(), cmp); }
    template <class Cmp>
    auto max_by(Cmp cmp) const { return min_max_by<true>(self(), cmp); }
    template <class Key>
    auto min_by_key(Key key) const { return min_max_by_key<false>(self(), key); }
    template <class Key>
    auto max_by_key(Key key) const { return min_max_by_key<true>(self(), key); }
    template <class V, class A>
    void collect_into_vec(std::vector<V, A>& out) const { iter::collect_into_vec(self(), out); }

    // ANCHOR: collect_vec
    auto collect_vec() const { // std::vector<value_t<D>>
        using V = value_t<D>;
        static_assert(std::is_constructible_v<V, typename D::Item>,
                      "mini::collect_vec copies each item into the vector, and this element type "
                      "cannot be copied: collect references with "
                      ".map([](auto& x) { return std::ref(x); }).collect_vec()");
        ThreadPool& pool = current_pool();
        auto drive = [&](auto consumer) { return self().drive(pool, std::move(consumer)); };
        if constexpr (D::indexed && std::is_trivially_copyable_v<V> &&
                      std::is_trivially_default_constructible_v<V>) { // into the vector itself
            return collect_in_place<V>(self().len(), drive);
        } else if constexpr (D::indexed) { // the length is known: each leaf writes its own slice
            return collect_with_consumer<V>(self().len(), drive);
        } else { // after filter: the leaves' vectors, spliced in order, then one vector
            auto parts = self().drive_unindexed(pool, ListVecConsumer<V>{});
            if (parts.size() == 1) return std::move(parts.front()); // one vector: the result
            std::size_t len = 0;
            for (const auto& part : parts) len += part.size();
            std::vector<V> out;
            out.reserve(len);
            for (auto& part : parts) // rayon's Vec::append: a memcpy where V allows it
                out.insert(out.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
            return out;
        }
    }
    // ANCHOR_END: collect_vec

    // Unindexed and stateful terminals (chapter 14).
    template <class I, class F> void for_each_init(I init, F op) const { run(ForEachInitConsumer<I, F>(&init, &op)); }
    template <class T, class F> void for_each_with(T value, F op) const { for_each_init(CopyOf<T>{std::move(value)}, std::move(op)); }
    template <class Id, class Op> auto try_reduce(Id id, Op op) const { return TryTerminals<D>::try_reduce(self(), std::move(id), std::move(op)); }
    template <class F> auto try_for_each(F f) const { return TryTerminals<D>::try_for_each(self(), std::move(f)); }
    template <class C> C collect() const { return CollectInto<D>::template into<C>(self()); }
    template <class A = void, class B = void> auto unzip() const { return UnzipTerminals<D>::template unzip<A, B>(self()); }
    template <class A = void, class B = void, class P> auto partition(P pred) const { return UnzipTerminals<D>::template partition<A, B>(self(), std::move(pred)); }
    template <class A = void, class B = void, class F> auto partition_map(F f) const { return UnzipTerminals<D>::template partition_map<A, B>(self(), std::move(f)); }

private:
    static constexpr std::size_t max_of_size = std::numeric_limits<std::size_t>::max();
    const D& self() const { return static_cast<const D&>(*this); }
    template <class C>
    auto run(C consumer) const { return self().drive_unindexed(current_pool(), std::move(consumer)); }

};

} // namespace mini::iter
