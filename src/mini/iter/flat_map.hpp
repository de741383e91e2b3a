// flat_map(f): f returns a parallel iterator, driven inside the leaf with a fresh consumer so
// that it splits and is stolen on its own (rayon's iter/flat_map.rs); flatten() is flat_map over
// items that are ranges or parallel iterators (iter/flatten.rs).
#pragma once

#include <functional>
#include <optional>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/sources.hpp>

namespace mini::iter {

// ANCHOR: flat_map_folder
// The folder holds the consumer itself, not a folder of it: each item's iterator is driven with
// base.split_off_left(), and its result joined after the results of the items before it.
template <class C, class F>
struct FlatMapFolder {
    using Result = typename C::Result;
    C base;
    ThreadPool* pool;
    const F* f;
    std::optional<Result> previous;

    template <class T>
    void consume(T&& item) {
        auto inner = std::invoke(*f, std::forward<T>(item));
        Result result = inner.drive_unindexed(*pool, base.split_off_left());
        if (!previous) previous.emplace(std::move(result));
        else {
            auto reducer = base.to_reducer();
            previous.emplace(reduce_in_order(reducer, std::move(*previous), std::move(result)));
        }
    }
    bool full() const { return base.full(); }
    Result complete() && {
        if (previous) return std::move(*previous);
        return base.into_folder().complete(); // no item: the empty result
    }
};
// ANCHOR_END: flat_map_folder

template <class Base, class F>
struct FlatMapConsumer : WrapSplits<FlatMapConsumer<Base, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    ThreadPool* pool;
    const F* f;
    FlatMapConsumer(Base b, ThreadPool* p, const F* fn) : base(std::move(b)), pool(p), f(fn) {}
    FlatMapConsumer wrap(Base b) const { return {std::move(b), pool, f}; }
    FlatMapFolder<Base, F> into_folder() const { return {base, pool, f, std::nullopt}; }
};

template <class Base, class F>
class FlatMap : public ParallelIterator<FlatMap<Base, F>> {
public:
    using Item = typename std::remove_cvref_t<std::invoke_result_t<const F&, typename Base::Item>>::Item;
    static constexpr bool indexed = false;

    FlatMap(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, FlatMapConsumer<C, F>(std::move(consumer), &pool, &f_));
    }

private:
    Base base_;
    F f_;
};

// flatten's f: a parallel iterator as it is, a contiguous range (a std::vector) as par_iter over
// it. The range lives while its iterator is driven: consume's argument outlives the drive.
struct AsParIter {
    template <class T>
    auto operator()(T&& item) const {
        using V = std::remove_cvref_t<T>;
        if constexpr (requires { V::indexed; typename V::Item; }) {
            return V(item);
        } else {
            using E = std::remove_reference_t<std::ranges::range_reference_t<T&>>;
            return SliceIter<E>(std::span<E>(item));
        }
    }
};

} // namespace mini::iter
