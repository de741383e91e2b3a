// flat_map_iter(f): f returns a sequential range, which the leaf walks item by item (rayon's
// iter/flat_map_iter.rs). No nested splitting: the range need not be safe to share.
#pragma once

#include <functional>
#include <ranges>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

// What a range's items are once it has been walked: references into a range that outlives the
// call (f returned an lvalue), values moved out of one that dies with it.
template <class R>
using range_item_t = std::conditional_t<std::is_lvalue_reference_v<R>, std::ranges::range_reference_t<R>,
                                        std::ranges::range_value_t<std::remove_cvref_t<R>>>;

// ANCHOR: flat_map_iter_folder
template <class Inner, class F>
struct FlatMapIterFolder {
    using Result = typename Inner::Result;
    Inner inner;
    const F* f;

    template <class T>
    void consume(T&& item) {
        decltype(auto) range = std::invoke(*f, std::forward<T>(item));
        constexpr bool owned = !std::is_lvalue_reference_v<decltype(range)>;
        for (auto&& x : range) {
            if constexpr (owned) inner.consume(std::move(x));
            else inner.consume(x);
            if (asks_full(inner)) return; // a long inner range still stops at a find
        }
    }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: flat_map_iter_folder

template <class Base, class F>
struct FlatMapIterConsumer : WrapSplits<FlatMapIterConsumer<Base, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const F* f;
    FlatMapIterConsumer(Base b, const F* fn) : base(std::move(b)), f(fn) {}
    FlatMapIterConsumer wrap(Base b) const { return {std::move(b), f}; }
    auto into_folder() const {
        return FlatMapIterFolder<decltype(base.into_folder()), F>{base.into_folder(), f};
    }
};

template <class Base, class F>
class FlatMapIter : public ParallelIterator<FlatMapIter<Base, F>> {
public:
    using Item = range_item_t<std::invoke_result_t<const F&, typename Base::Item>>;
    static constexpr bool indexed = false;

    FlatMapIter(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, FlatMapIterConsumer<C, F>(std::move(consumer), &f_));
    }

private:
    Base base_;
    F f_;
};

} // namespace mini::iter
