// find_first, find_last and the positions (rayon's iter/find_first_last/mod.rs): the best-index
// rule. Every consumer owns a range [lower, upper) of an abstract index line (0 .. SIZE_MAX),
// halved at each split, so a piece left of another owns smaller numbers whether or not the
// chain is indexed (this works after filter too). A leaf that matches writes its boundary into
// one shared atomic, best, if it is better than what is there. A leaf stops when best is
// better than its own boundary: a match to its left (find_first) or right (find_last) already
// wins. A leaf on the losing side of nothing keeps going, so find_first is still the first.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include <mini/iter/indexed.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

enum class MatchPosition { leftmost, rightmost };

// pos1 wins over pos2: left of it for find_first, right of it for find_last.
inline bool better_position(std::size_t pos1, std::size_t pos2, MatchPosition mp) {
    return mp == MatchPosition::leftmost ? pos1 < pos2 : pos1 > pos2;
}

// ANCHOR: find_first_folder
template <class V, class P>
struct FindFirstFolder {
    using Result = std::optional<V>;
    const P* p;
    std::size_t boundary; // this leaf's lower bound (find_first) or upper bound (find_last)
    MatchPosition mp;
    std::atomic<std::size_t>* best;
    std::optional<V> item;

    // find_first: a leaf's first match is the best it can offer; find_last keeps looking.
    bool found_best_in_range() const { return mp == MatchPosition::leftmost && item.has_value(); }

    template <class T>
    void consume(T&& x) {
        if (found_best_in_range() || !std::invoke(*p, std::as_const(x))) return;
        std::size_t current = best->load(std::memory_order_relaxed);
        while (!better_position(current, boundary, mp)) { // ours is better: publish it
            if (best->compare_exchange_weak(current, boundary, std::memory_order_relaxed)) {
                item.emplace(std::forward<T>(x));
                return;
            }
        }
    }
    bool full() const {
        const std::size_t b = best->load(std::memory_order_relaxed);
        if constexpr (sabotage::find_first_any) // [FIND_FIRST_ANY] any match anywhere stops us
            return found_best_in_range() || b != (mp == MatchPosition::leftmost ? none_left : 0);
        return found_best_in_range() || better_position(b, boundary, mp);
    }
    Result complete() && { return std::move(item); }

    static constexpr std::size_t none_left = std::numeric_limits<std::size_t>::max();
};
// ANCHOR_END: find_first_folder

struct FindReducer { // the better of the two sides; left's items come before right's
    MatchPosition mp;
    template <class T>
    std::optional<T> reduce(std::optional<T> left, std::optional<T> right) const {
        if (mp == MatchPosition::leftmost) return left ? std::move(left) : std::move(right);
        return right ? std::move(right) : std::move(left);
    }
};

template <class V, class P>
struct FindFirstConsumer {
    using Result = std::optional<V>;
    const P* p;
    MatchPosition mp;
    std::atomic<std::size_t>* best;
    mutable std::size_t lower; // rayon's Cell: split_off_left moves it to the median
    std::size_t upper;

    std::size_t current_index() const { return mp == MatchPosition::leftmost ? lower : upper; }
    FindFirstFolder<V, P> into_folder() const { return {p, current_index(), mp, best, {}}; }
    bool full() const { return better_position(best->load(std::memory_order_relaxed), current_index(), mp); }
    FindReducer to_reducer() const { return {mp}; }
    FindFirstConsumer split_off_left() const {
        const std::size_t median = lower + (upper - lower) / 2;
        FindFirstConsumer left{p, mp, best, lower, median};
        lower = median;
        return left;
    }
    std::tuple<FindFirstConsumer, FindFirstConsumer, FindReducer> split_at(std::size_t) const {
        FindFirstConsumer right = *this;
        FindFirstConsumer left = right.split_off_left();
        return {left, right, to_reducer()};
    }
};

// best starts where no leaf can beat it: SIZE_MAX for find_first, 0 for find_last.
template <class D, class P>
auto find_first_last(const D& it, const P& p, bool last) { // std::optional<found_t<Item>>
    using V = found_t<typename D::Item>;
    const MatchPosition mp = last ? MatchPosition::rightmost : MatchPosition::leftmost;
    std::atomic<std::size_t> best{mp == MatchPosition::leftmost ? FindFirstFolder<V, P>::none_left : 0};
    FindFirstConsumer<V, P> consumer{&p, mp, &best, 0, std::numeric_limits<std::size_t>::max()};
    return it.drive_unindexed(current_pool(), consumer);
}

// position_first / _last / _any (last = false, true, nullopt): rayon's
// map(p).enumerate().find_*(|&(_, hit)| hit).
template <class D, class P>
auto position(const D& it, P p, std::optional<bool> last) { // std::optional<std::size_t>
    static_assert(D::indexed, "the positions need an indexed iterator (not after filter)");
    auto hits = it.map(std::move(p)).enumerate();
    auto hit = [](const std::pair<std::size_t, bool>& x) { return x.second; };
    auto found = last ? find_first_last(hits, hit, *last) : hits.find_any(hit);
    return found ? std::optional<std::size_t>(found->first) : std::nullopt;
}

} // namespace mini::iter
