// panic_fuse() (rayon's iter/panic_fuse.rs): once one item's call has thrown, the other leaves
// stop at their next item. Without it they run to their end: join waits for both halves before
// it rethrows A's exception (chapter 3), so one throw among a million items still lets the rest
// run. The exception itself reaches the caller as before; only the work after it is skipped.
// rayon raises its flag when a Fuse is dropped while panicking; C++ has no such test in a
// destructor that is cheap and exact, so the folder catches, raises the flag and rethrows.
// Not indexed here (rayon's keeps the index): how many items pass is known only at the end.
#pragma once

#include <atomic>
#include <cstddef>
#include <tuple>
#include <utility>

#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

// ANCHOR: panic_fuse_folder
template <class Inner>
struct PanicFuseFolder {
    using Result = typename Inner::Result;
    Inner inner;
    std::atomic<bool>* panicked;

    template <class T>
    void consume(T&& item) {
        try {
            inner.consume(std::forward<T>(item));
        } catch (...) {
            panicked->store(true, std::memory_order_relaxed); // a hint to stop, as find_any's
            throw;
        }
    }
    bool full() const { return panicked->load(std::memory_order_relaxed) || inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: panic_fuse_folder

template <class Base>
struct PanicFuseConsumer {
    using Result = typename Base::Result;
    Base base;
    std::atomic<bool>* panicked;

    auto split_at(std::size_t index) const {
        auto [l, r, reducer] = base.split_at(index);
        return std::tuple(PanicFuseConsumer{std::move(l), panicked},
                          PanicFuseConsumer{std::move(r), panicked}, std::move(reducer));
    }
    PanicFuseConsumer split_off_left() const { return {base.split_off_left(), panicked}; }
    auto to_reducer() const { return base.to_reducer(); }
    // Asked by the bridge before each split and by the producers between items: a leaf that
    // starts after the throw does nothing.
    bool full() const { return panicked->load(std::memory_order_relaxed) || base.full(); }
    auto into_folder() const {
        return PanicFuseFolder<decltype(base.into_folder())>{base.into_folder(), panicked};
    }
};

template <class Base>
class PanicFuse : public ParallelIterator<PanicFuse<Base>> {
public:
    using Item = typename Base::Item;
    static constexpr bool indexed = false;

    explicit PanicFuse(Base base) : base_(std::move(base)) {}
    // The flag lives in this call's frame: every leaf has finished or thrown before the drive
    // returns or unwinds past it (join waits for both halves).
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        std::atomic<bool> panicked{false};
        return base_.drive_unindexed(pool, PanicFuseConsumer<C>{std::move(consumer), &panicked});
    }

private:
    Base base_;
};

} // namespace mini::iter
