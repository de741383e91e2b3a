// try_fold(identity, op): fold with op(acc, item) -> R, a try type; a break stops its own leaf
// only, which hands it on (rayon's iter/try_fold.rs). Follow it with try_reduce to stop the
// other leaves too.
#pragma once

#include <functional>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/try_traits.hpp>

namespace mini::iter {

template <class Inner, class R, class F>
struct TryFoldFolder {
    using Result = typename Inner::Result;
    Inner inner;
    R acc;
    const F* op;

    template <class T>
    void consume(T&& item) {
        if (!Try<R>::is_break(acc)) acc = std::invoke(*op, std::move(*acc), std::forward<T>(item));
    }
    bool full() const { return Try<R>::is_break(acc) || inner.full(); }
    Result complete() && {
        inner.consume(std::move(acc));
        return std::move(inner).complete();
    }
};

template <class Base, class R, class Id, class F>
struct TryFoldConsumer : WrapSplits<TryFoldConsumer<Base, R, Id, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const Id* identity;
    const F* op;
    TryFoldConsumer(Base b, const Id* id, const F* o) : base(std::move(b)), identity(id), op(o) {}
    TryFoldConsumer wrap(Base b) const { return {std::move(b), identity, op}; }
    auto into_folder() const {
        return TryFoldFolder<decltype(base.into_folder()), R, F>{
            base.into_folder(), Try<R>::from_output(std::invoke(*identity)), op};
    }
};

template <class Base, class Id, class F>
class TryFold : public ParallelIterator<TryFold<Base, Id, F>> {
    using U = std::remove_cvref_t<std::invoke_result_t<const Id&>>;

public:
    using Item = std::remove_cvref_t<std::invoke_result_t<const F&, U, typename Base::Item>>;
    static constexpr bool indexed = false;

    TryFold(Base base, Id identity, F op) : base_(std::move(base)), identity_(std::move(identity)), op_(std::move(op)) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, TryFoldConsumer<C, Item, Id, F>(std::move(consumer), &identity_, &op_));
    }

private:
    Base base_;
    Id identity_;
    F op_;
};

} // namespace mini::iter
