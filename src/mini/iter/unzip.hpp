// unzip(), partition(pred), partition_map(f): one pass, two containers (rayon's iter/unzip.rs).
// rayon drives two consumers at once through two fake iterators; here each leaf keeps two
// vectors, the leaves' pairs are spliced in order, and each side is appended to its container as
// collect<C> does (collect_into.hpp).
#pragma once

#include <functional>
#include <list>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <mini/iter/collect_into.hpp>
#include <mini/iter/consumers.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <class A, class B>
using TwoLists = std::pair<std::list<std::vector<A>>, std::list<std::vector<B>>>;

// ANCHOR: unzip_folder
// `side(item, a, b)` puts the item, or its parts, into a, b or both.
template <class A, class B, class Side>
struct UnzipFolder {
    using Result = TwoLists<A, B>;
    ListVecFolder<A> a;
    ListVecFolder<B> b;
    const Side* side;

    template <class T>
    void consume(T&& item) { (*side)(std::forward<T>(item), a, b); }
    bool full() const { return false; }
    Result complete() && { return {std::move(a).complete(), std::move(b).complete()}; }
};
// ANCHOR_END: unzip_folder

struct TwoListsAppend {
    template <class L>
    L reduce(L left, L right) const {
        left.first.splice(left.first.end(), right.first);
        left.second.splice(left.second.end(), right.second);
        return left;
    }
};

template <class A, class B, class Side>
struct UnzipConsumer : SameSplits<UnzipConsumer<A, B, Side>, TwoListsAppend> {
    using Result = TwoLists<A, B>;
    const Side* side;
    explicit UnzipConsumer(const Side* s) : side(s) {}
    UnzipFolder<A, B, Side> into_folder() const { return {{}, {}, side}; }
    bool full() const { return false; }
    TwoListsAppend to_reducer() const { return {}; }
};

struct UnzipSide { // (a, b) -> a to the left, b to the right
    template <class T, class FA, class FB>
    void operator()(T&& pair, FA& a, FB& b) const {
        a.consume(std::get<0>(std::forward<T>(pair)));
        b.consume(std::get<1>(std::forward<T>(pair)));
    }
};
template <class P>
struct PartitionSide { // pred true to the left, false to the right
    const P* pred;
    template <class T, class FA, class FB>
    void operator()(T&& x, FA& a, FB& b) const {
        if (std::invoke(*pred, std::as_const(x))) a.consume(std::forward<T>(x));
        else b.consume(std::forward<T>(x));
    }
};
template <class F>
struct PartitionMapSide { // f returns std::variant<L, R>: L to the left, R to the right
    const F* f;
    template <class T, class FA, class FB>
    void operator()(T&& x, FA& a, FB& b) const {
        auto v = std::invoke(*f, std::forward<T>(x));
        if (v.index() == 0) a.consume(std::get<0>(std::move(v)));
        else b.consume(std::get<1>(std::move(v)));
    }
};

template <class D>
struct UnzipTerminals {
    // The two containers: std::vector of the side's values unless named.
    template <class CA, class CB, class A, class B, class Side>
    static auto run(const D& it, const Side& side) {
        using OutA = std::conditional_t<std::is_void_v<CA>, std::vector<A>, CA>;
        using OutB = std::conditional_t<std::is_void_v<CB>, std::vector<B>, CB>;
        auto [la, lb] = it.drive_unindexed(current_pool(), UnzipConsumer<A, B, Side>(&side));
        std::pair<OutA, OutB> out;
        extend_from_parts(out.first, std::move(la));
        extend_from_parts(out.second, std::move(lb));
        return out;
    }
    template <class CA, class CB>
    static auto unzip(const D& it) {
        using V = value_t<D>;
        using A = std::remove_cvref_t<std::tuple_element_t<0, V>>;
        using B = std::remove_cvref_t<std::tuple_element_t<1, V>>;
        return run<CA, CB, A, B>(it, UnzipSide{});
    }
    template <class CA, class CB, class P>
    static auto partition(const D& it, P pred) {
        return run<CA, CB, value_t<D>, value_t<D>>(it, PartitionSide<P>{&pred});
    }
    template <class CA, class CB, class F>
    static auto partition_map(const D& it, F f) {
        using V = std::remove_cvref_t<std::invoke_result_t<const F&, typename D::Item>>;
        using A = std::variant_alternative_t<0, V>;
        using B = std::variant_alternative_t<1, V>;
        return run<CA, CB, A, B>(it, PartitionMapSide<F>{&f});
    }
};

} // namespace mini::iter
