// min, max and their _by / _by_key forms (rayon's iter/mod.rs: reduce_with of cmp::min /
// cmp::max). The tie rule comes from the two ops and the reducer's left-before-right: min keeps
// the LEFT of two equal items, max the RIGHT, so min is the first of equal minima (as
// std::min_element) and max the LAST of equal maxima (as Rust's Iterator::max; std::max_element
// gives the first).
#pragma once

#include <compare>
#include <functional>
#include <optional>
#include <utility>

#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

// The value a found_t holds: a reference_wrapper's referent, or the item itself.
template <class T>
const T& unwrap(const std::reference_wrapper<T>& r) { return r.get(); }
template <class T>
const T& unwrap(const T& x) { return x; }

// rayon's Ord::cmp for a type that has only operator<.
struct LessOrder {
    template <class T>
    std::weak_ordering operator()(const T& a, const T& b) const {
        return b < a ? std::weak_ordering::greater
                     : (a < b ? std::weak_ordering::less : std::weak_ordering::equivalent);
    }
};

inline constexpr LessOrder less_order{};

// ANCHOR: min_max_ops
template <class Cmp, bool is_max>
struct PickOne {
    const Cmp* cmp;
    template <class V>
    V operator()(V a, V b) const {
        const bool greater = std::invoke(*cmp, unwrap(a), unwrap(b)) > 0;
        if constexpr (is_max) return greater ? std::move(a) : std::move(b); // equal: b, the right
        else return greater ? std::move(b) : std::move(a);                  // equal: a, the left
    }
};
// ANCHOR_END: min_max_ops

// rayon's reduce_with: None for no items, else op over the items in order.
template <class Op>
struct OptionOp {
    Op op;
    template <class V>
    std::optional<V> operator()(std::optional<V> a, std::optional<V> b) const {
        if (!a) return b;
        if (!b) return a;
        return std::optional<V>(op(std::move(*a), std::move(*b)));
    }
};

template <class D, class Op>
auto reduce_with(const D& it, Op op) { // std::optional<found_t<Item>>
    using V = found_t<typename D::Item>;
    return it.map([](auto&& x) { return std::optional<V>(std::in_place, std::forward<decltype(x)>(x)); })
        .reduce([] { return std::optional<V>(); }, OptionOp<Op>{std::move(op)});
}

template <bool is_max, class D>
auto min_max(const D& it) {
    return reduce_with(it, PickOne<LessOrder, is_max>{&less_order});
}

template <bool is_max, class D, class Cmp>
auto min_max_by(const D& it, const Cmp& cmp) {
    return reduce_with(it, PickOne<Cmp, is_max>{&cmp});
}

// rayon: map(|x| (f(&x), x)).min_by(compare keys).map(|(_, x)| x): one key per item.
template <bool is_max, class D, class Key>
auto min_max_by_key(const D& it, const Key& key) {
    using V = found_t<typename D::Item>;
    auto keyed = it.map([&key](auto&& x) {
        V v(std::forward<decltype(x)>(x));
        auto k = std::invoke(key, unwrap(v));
        return std::pair<decltype(k), V>(std::move(k), std::move(v));
    });
    auto by_key = [](const auto& a, const auto& b) { return LessOrder{}(a.first, b.first); };
    auto best = min_max_by<is_max>(keyed, by_key);
    return best ? std::optional<V>(std::move(best->second)) : std::nullopt;
}

} // namespace mini::iter
