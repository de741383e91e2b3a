// Where a chain starts: a slice of memory (par_iter) or a range of integers (par_range). Both
// are indexed: their with_producer hands the bridge a producer of known length.
#pragma once

#include <concepts>
#include <cstddef>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <mini/iter/parallel_iterator.hpp>
#include <mini/iter/producers.hpp>

namespace mini::iter {

// Items T& (const T& when T is const), as rayon's slice::Iter gives &T.
template <class T>
class SliceIter : public ParallelIterator<SliceIter<T>> {
public:
    using Item = T&;
    static constexpr bool indexed = true;

    explicit SliceIter(std::span<T> items) : items_(items) {}
    std::size_t len() const { return items_.size(); }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return callback(SliceProducer<T>{{}, items_.data(), items_.size()});
    }

private:
    std::span<T> items_;
};

template <std::integral I>
class RangeIter : public ParallelIterator<RangeIter<I>> {
public:
    using Item = I;
    static constexpr bool indexed = true;

    RangeIter(I begin, I end) : begin_(begin), len_(length(begin, end)) {}
    std::size_t len() const { return len_; }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return callback(RangeProducer<I>{{}, begin_, len_});
    }

private:
    // The length in I's unsigned type: it fits in std::size_t for every type up to 64 bits.
    static std::size_t length(I begin, I end) {
        using U = std::make_unsigned_t<I>;
        static_assert(std::numeric_limits<U>::digits <= std::numeric_limits<std::size_t>::digits);
        // cast back to U: for types narrower than int the difference is computed in int
        return end > begin ? static_cast<std::size_t>(static_cast<U>(static_cast<U>(end) -
                                                                    static_cast<U>(begin)))
                           : 0;
    }
    I begin_;
    std::size_t len_;
};

// ANCHOR: wide_range
// A range of 128-bit integers is not indexed: its length may not fit in std::size_t. When it
// does, it is driven as an indexed range; when not, it halves itself through bridge_unindexed.
template <wide_integer I>
class WideRangeIter : public ParallelIterator<WideRangeIter<I>> {
public:
    using Item = I;
    static constexpr bool indexed = false;

    WideRangeIter(I begin, I end) : begin_(begin), end_(end > begin ? end : begin) {}
    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        const u128 len = static_cast<u128>(end_) - static_cast<u128>(begin_); // fits: end_ >= begin_
        if (len <= std::numeric_limits<std::size_t>::max())
            return bridge_producer_consumer(
                pool, RangeProducer<I>{{}, begin_, static_cast<std::size_t>(len)},
                std::move(consumer));
        return bridge_unindexed(pool, UnindexedRangeProducer<I>{begin_, end_},
                                std::move(consumer));
    }

private:
    I begin_, end_;
};
// ANCHOR_END: wide_range

} // namespace mini::iter
