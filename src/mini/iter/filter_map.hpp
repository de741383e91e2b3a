// filter_map(f): f returns std::optional<U>; only the engaged ones go on, unwrapped (rayon's
// iter/filter_map.rs). Not indexed: nobody knows how many pass.
#pragma once

#include <functional>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

// ANCHOR: filter_map_folder
// The producer asks this folder full() after every item, passed or not: a leaf whose items are
// all rejected still stops when another leaf has found one (rayon #632).
template <class Inner, class F>
struct FilterMapFolder {
    using Result = typename Inner::Result;
    Inner inner;
    const F* f;

    template <class T>
    void consume(T&& item) {
        if (auto mapped = std::invoke(*f, std::forward<T>(item))) inner.consume(std::move(*mapped));
    }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: filter_map_folder

template <class Base, class F>
struct FilterMapConsumer : WrapSplits<FilterMapConsumer<Base, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const F* f;
    FilterMapConsumer(Base b, const F* fn) : base(std::move(b)), f(fn) {}
    FilterMapConsumer wrap(Base b) const { return {std::move(b), f}; }
    auto into_folder() const {
        return FilterMapFolder<decltype(base.into_folder()), F>{base.into_folder(), f};
    }
};

template <class Base, class F>
class FilterMap : public ParallelIterator<FilterMap<Base, F>> {
    using Mapped = std::remove_cvref_t<std::invoke_result_t<const F&, typename Base::Item>>;

public:
    using Item = typename Mapped::value_type; // f returns a std::optional
    static constexpr bool indexed = false;

    FilterMap(Base base, F f) : base_(std::move(base)), f_(std::move(f)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, FilterMapConsumer<C, F>(std::move(consumer), &f_));
    }

private:
    Base base_;
    F f_;
};

} // namespace mini::iter
