// collect<C>() into any container, and par_extend(container, iter) (rayon's iter/extend.rs and
// from_par_iter.rs). An indexed chain into a std::vector is collect_vec (each leaf writes its
// own slice). Everything else takes rayon's route for items of unknown number: each leaf pushes
// into a vector of its own, the vectors are spliced into a list in order, then one pass appends
// them to the container, in order: so a map keeps the last value of a key, as a sequential
// insert_or_assign loop would. collect into std::optional<std::vector<T>> or
// mini::Result<std::vector<T>, E> from items of that try type stops at the first break.
#pragma once

#include <atomic>
#include <list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/try_traits.hpp>

namespace mini::iter {

// One item into the container: append to a string, insert_or_assign a pair into a map,
// push_back into a sequence, insert into a set.
template <class C, class T>
void extend_one(C& c, T&& x) {
    if constexpr (requires { c.append(std::string_view(x)); }) c.append(std::string_view(x));
    else if constexpr (requires { c.insert_or_assign(std::forward<T>(x).first, std::forward<T>(x).second); })
        c.insert_or_assign(std::forward<T>(x).first, std::forward<T>(x).second);
    else if constexpr (requires { c.push_back(std::forward<T>(x)); }) c.push_back(std::forward<T>(x));
    else c.insert(std::forward<T>(x));
}

// ANCHOR: extend_from_parts
// The one sequential pass: reserve what the leaves gathered, then append each leaf's vector.
template <class C, class V>
void extend_from_parts(C& c, std::list<std::vector<V>>&& parts) {
    if constexpr (requires(std::size_t n) { c.reserve(n); }) {
        std::size_t len = 0;
        for (const auto& part : parts) len += part.size();
        c.reserve(c.size() + len);
    }
    for (auto& part : parts)
        for (auto& x : part) extend_one(c, std::move(x));
}
// ANCHOR_END: extend_from_parts

// collect into a try type: the leaves' outputs, or the first break.
template <class R>
struct TryParts {
    std::list<std::vector<typename Try<R>::Output>> parts;
    std::optional<R> brk;
};

template <class R>
struct TryListVecFolder {
    using Result = TryParts<R>;
    ListVecFolder<typename Try<R>::Output> items;
    std::optional<R> brk;
    std::atomic<bool>* stop;

    template <class T>
    void consume(T&& item) {
        if (!Try<R>::is_break(item)) return items.consume(std::move(*item));
        brk.emplace(std::forward<T>(item));
        stop->store(true, std::memory_order_relaxed); // the other leaves stop at their next item
    }
    bool full() const { return brk.has_value() || stop->load(std::memory_order_relaxed); }
    Result complete() && { return {std::move(items).complete(), std::move(brk)}; }
};

struct TryPartsAppend {
    template <class P>
    P reduce(P left, P right) const {
        if (left.brk) return left;
        if (right.brk) return right;
        left.parts.splice(left.parts.end(), right.parts);
        return left;
    }
};

template <class R>
struct TryListVecConsumer : SameSplits<TryListVecConsumer<R>, TryPartsAppend> {
    using Result = TryParts<R>;
    std::atomic<bool>* stop;
    explicit TryListVecConsumer(std::atomic<bool>* s) : stop(s) {}
    TryListVecFolder<R> into_folder() const { return {{}, std::nullopt, stop}; }
    bool full() const { return stop->load(std::memory_order_relaxed); }
    TryPartsAppend to_reducer() const { return {}; }
};

template <class D>
struct CollectInto {
    static auto parts(const D& it) { return it.drive_unindexed(current_pool(), ListVecConsumer<value_t<D>>{}); }

    template <class C>
    static void extend(C& c, const D& it) {
        if constexpr (std::is_same_v<C, std::vector<value_t<D>>> && D::indexed) {
            auto v = it.collect_vec(); // each leaf into its own slice
            if (c.empty()) c = std::move(v);
            else c.insert(c.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
        } else {
            extend_from_parts(c, parts(it));
        }
    }

    template <class C>
    static C into(const D& it) {
        using V = value_t<D>;
        if constexpr (TryType<C> && TryType<V>) { // optional<vector<T>> from optional<T> items
            using Out = typename Try<C>::Output;
            std::atomic<bool> stop{false};
            TryParts<V> got = it.drive_unindexed(current_pool(), TryListVecConsumer<V>(&stop));
            if (got.brk) return Try<V>::template rebind_break<Out>(std::move(*got.brk));
            Out out;
            extend_from_parts(out, std::move(got.parts));
            return Try<C>::from_output(std::move(out));
        } else {
            C out;
            extend(out, it);
            return out;
        }
    }
};

// par_extend(c, iter): iter's items appended to c, in order (rayon's ParallelExtend).
template <class C, class It>
void par_extend(C& c, const It& it) { CollectInto<It>::extend(c, it); }

} // namespace mini::iter
