// while_some() (rayon's iter/while_some.rs): items of type std::optional<T> in, the T's out,
// until a std::nullopt: that raises one shared flag, and every leaf asks it as full().
// Not indexed: how many items pass is known only at the end.
#pragma once

#include <atomic>
#include <cstddef>
#include <optional>
#include <tuple>
#include <utility>

#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <class Inner>
struct WhileSomeFolder {
    using Result = typename Inner::Result;
    Inner inner;
    std::atomic<bool>* none_seen;

    template <class T>
    void consume(T&& item) {
        if (item) inner.consume(*std::forward<T>(item));
        else none_seen->store(true, std::memory_order_relaxed); // a hint to stop, as find_any's
    }
    bool full() const { return none_seen->load(std::memory_order_relaxed) || inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};

template <class Base>
struct WhileSomeConsumer {
    using Result = typename Base::Result;
    Base base;
    std::atomic<bool>* none_seen;

    auto split_at(std::size_t index) const {
        auto [l, r, reducer] = base.split_at(index);
        return std::tuple(WhileSomeConsumer{std::move(l), none_seen},
                          WhileSomeConsumer{std::move(r), none_seen}, std::move(reducer));
    }
    WhileSomeConsumer split_off_left() const { return {base.split_off_left(), none_seen}; }
    auto to_reducer() const { return base.to_reducer(); }
    bool full() const { return none_seen->load(std::memory_order_relaxed) || base.full(); }
    auto into_folder() const {
        return WhileSomeFolder<decltype(base.into_folder())>{base.into_folder(), none_seen};
    }
};

template <class Base>
class WhileSome : public ParallelIterator<WhileSome<Base>> {
public:
    using Item = typename value_t<Base>::value_type;
    static constexpr bool indexed = false;

    explicit WhileSome(Base base) : base_(std::move(base)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        std::atomic<bool> none_seen{false};
        return base_.drive_unindexed(pool, WhileSomeConsumer<C>{std::move(consumer), &none_seen});
    }

private:
    Base base_;
};

} // namespace mini::iter
