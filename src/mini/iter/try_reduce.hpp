// try_reduce(identity, op) over items of a try type R (std::optional<T>, mini::Result<T, E>),
// op(T, T) -> R; and try_for_each(f), which is map(f).try_reduce over successes of nothing
// (rayon's iter/try_reduce.rs, mod.rs:465-475). The first break (an error, a nullopt) is kept,
// and stops every other leaf through one flag the consumer's full() reads: chapter 11's full(),
// driven by a value instead of a match. Which break wins when several leaves fail is not
// specified (as rayon's).
#pragma once

#include <atomic>
#include <functional>
#include <type_traits>
#include <utility>
#include <variant>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/try_traits.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

// ANCHOR: try_reduce_folder
template <class R, class Op>
struct TryReduceFolder {
    using Result = R;
    R acc;
    const Op* op;
    std::atomic<bool>* stop; // one for the whole call

    template <class T>
    void consume(T&& item) {
        if (Try<R>::is_break(item)) acc = R(std::forward<T>(item));
        else acc = std::invoke(*op, std::move(*acc), std::move(*item));
        if (Try<R>::is_break(acc)) stop_the_others();
    }
    void stop_the_others() {
        if constexpr (sabotage::try_no_full) return; // [TRY_NO_FULL] only this leaf stops
        stop->store(true, std::memory_order_relaxed);
    }
    bool full() const { return Try<R>::is_break(acc) || stop->load(std::memory_order_relaxed); }
    R complete() && { return std::move(acc); }
};
// ANCHOR_END: try_reduce_folder

// The left break if any, else the right one, else op of the two values.
template <class R, class Op>
struct TryReducer {
    const Op* op;
    R reduce(R left, R right) const {
        if (Try<R>::is_break(left)) return left;
        if (Try<R>::is_break(right)) return right;
        return std::invoke(*op, std::move(*left), std::move(*right));
    }
};

template <class R, class Id, class Op>
struct TryReduceConsumer : SameSplits<TryReduceConsumer<R, Id, Op>, TryReducer<R, Op>> {
    using Result = R;
    const Id* identity;
    const Op* op;
    std::atomic<bool>* stop;
    TryReduceConsumer(const Id* id, const Op* o, std::atomic<bool>* s) : identity(id), op(o), stop(s) {}
    TryReduceFolder<R, Op> into_folder() const {
        return {Try<R>::from_output(std::invoke(*identity)), op, stop};
    }
    bool full() const { return stop->load(std::memory_order_relaxed); }
    TryReducer<R, Op> to_reducer() const { return {op}; }
};

// try_for_each's identity and op: a success that carries nothing.
template <class R>
struct TryUnit {
    typename Try<R>::Output operator()() const { return {}; }
    template <class A, class B>
    R operator()(A&&, B&&) const { return Try<R>::from_output({}); }
};

template <class D>
struct TryTerminals {
    template <class Id, class Op>
    static auto try_reduce(const D& it, Id identity, Op op) { // R, the items' try type
        using R = std::remove_cvref_t<typename D::Item>;
        std::atomic<bool> stop{false};
        return it.drive_unindexed(current_pool(), TryReduceConsumer<R, Id, Op>(&identity, &op, &stop));
    }
    // ANCHOR: try_for_each
    template <class F>
    static auto try_for_each(const D& it, F f) { // f's try type: the first break, or success
        using R = std::remove_cvref_t<std::invoke_result_t<const F&, typename D::Item>>;
        return TryTerminals<Map<D, F>>::try_reduce(it.map(std::move(f)), TryUnit<R>{}, TryUnit<R>{});
    }
    // ANCHOR_END: try_for_each
};

} // namespace mini::iter
