// fold(identity, op) and fold_with(init, op): an adaptor, not a terminal. Each leaf folds its
// items into an accumulator of its own, made by identity() (fold_with: a copy of init) where the
// leaf starts, and hands that one accumulator on: a parallel iterator of accumulators, one per
// leaf, which reduce or sum then combine (rayon's iter/fold.rs).
#pragma once

#include <functional>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

// fold_with's and map_with's identity: a copy of the value, once per leaf.
template <class T>
struct CopyOf {
    T value;
    T operator()() const { return value; }
};

// ANCHOR: fold_folder
template <class Inner, class V, class F>
struct FoldFolder {
    using Result = typename Inner::Result;
    Inner inner;
    V acc; // this leaf's own: no other thread sees it
    const F* op;

    V& slot() {
        if constexpr (sabotage::fold_one_acc) { static V one = acc; return one; } // [FOLD_ONE_ACC]
        return acc;
    }
    template <class T>
    void consume(T&& item) { slot() = std::invoke(*op, std::move(slot()), std::forward<T>(item)); }
    bool full() const { return inner.full(); } // the producer stops the leaf when the rest is
    Result complete() && {
        inner.consume(std::move(slot())); // one item downstream per leaf
        return std::move(inner).complete();
    }
};
// ANCHOR_END: fold_folder

template <class Base, class V, class Id, class F>
struct FoldConsumer : WrapSplits<FoldConsumer<Base, V, Id, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const Id* identity;
    const F* op;
    FoldConsumer(Base b, const Id* id, const F* o) : base(std::move(b)), identity(id), op(o) {}
    FoldConsumer wrap(Base b) const { return {std::move(b), identity, op}; }
    // ANCHOR: fold_into_folder
    auto into_folder() const { // identity() here: once per leaf
        return FoldFolder<decltype(base.into_folder()), V, F>{base.into_folder(), std::invoke(*identity), op};
    }
    // ANCHOR_END: fold_into_folder
};

template <class Base, class Id, class F>
class Fold : public ParallelIterator<Fold<Base, Id, F>> {
public:
    using Item = std::remove_cvref_t<std::invoke_result_t<const Id&>>;
    static constexpr bool indexed = false;

    Fold(Base base, Id identity, F op) : base_(std::move(base)), identity_(std::move(identity)), op_(std::move(op)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, FoldConsumer<C, Item, Id, F>(std::move(consumer), &identity_, &op_));
    }

private:
    Base base_;
    Id identity_;
    F op_;
};

} // namespace mini::iter
