// The adaptors: map and filter wrap the consumer on its way down to the base (rayon's
// drive_unindexed); map, enumerate and the length bounds wrap the producer on its way up
// (with_producer). In C++ the callback is a generic lambda: rayon needs a ProducerCallback trait
// only because a Rust closure cannot be generic (plumbing/README.md).
#pragma once

#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/producers.hpp>

namespace mini::iter {

// ANCHOR: map
template <class Base, class F>
class Map : public ParallelIterator<Map<Base, F>> {
public:
    using Item = std::invoke_result_t<const F&, typename Base::Item>;
    static constexpr bool indexed = Base::indexed;

    Map(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}
    std::size_t len() const { return base_.len(); }

    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, MapConsumer<C, F>(std::move(consumer), &f_));
    }
    template <class C, class Observe = NoObserver>
    auto drive(ThreadPool& pool, C consumer, const Observe& observe = {}) const {
        return base_.drive(pool, MapConsumer<C, F>(std::move(consumer), &f_), observe);
    }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(MapProducer<decltype(producer), F>{std::move(producer), &f_});
        });
    }

private:
    Base base_;
    F f_;
};
// ANCHOR_END: map

// Not indexed: nobody knows how many items pass, so collect_vec cannot give leaves slices.
template <class Base, class P>
class Filter : public ParallelIterator<Filter<Base, P>> {
public:
    using Item = typename Base::Item;
    static constexpr bool indexed = false;

    Filter(Base base, P p) : base_(std::move(base)), p_(std::move(p)) {}

    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, FilterConsumer<C, P>(std::move(consumer), &p_));
    }

private:
    Base base_;
    P p_;
};

template <class Base>
class Enumerate : public ParallelIterator<Enumerate<Base>> {
    static_assert(Base::indexed, "enumerate needs an indexed iterator (not after filter)");

public:
    using Item = std::pair<std::size_t, typename Base::Item>;
    static constexpr bool indexed = true;

    explicit Enumerate(Base base) : base_(std::move(base)) {}
    std::size_t len() const { return base_.len(); }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(EnumerateProducer<decltype(producer)>{std::move(producer), 0});
        });
    }

private:
    Base base_;
};

// with_min_len(n) and with_max_len(n): no piece shorter than min, none longer than max.
template <class Base>
class Bounded : public ParallelIterator<Bounded<Base>> {
    static_assert(Base::indexed, "with_min_len / with_max_len need an indexed iterator");

public:
    using Item = typename Base::Item;
    static constexpr bool indexed = true;

    Bounded(Base base, std::size_t min, std::size_t max)
        : base_(std::move(base)), min_(min), max_(max) {}
    std::size_t len() const { return base_.len(); }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(BoundedProducer<decltype(producer)>{std::move(producer), min_, max_});
        });
    }

private:
    Base base_;
    std::size_t min_, max_;
};

} // namespace mini::iter
