// Producers: the slice and the integer range at the base of a chain, and the adaptors that wrap
// a producer (map, enumerate, the length bounds) when a chain is driven through with_producer.
// Each also gives its i-th item, get(i): rayon's producers give an ExactSizeIterator that runs
// both ways; zip, rev and step_by read their base's items through get (indexed.hpp).
//
// Every leaf ends in one of the two base loops below. Each asks its folder full() after every
// item, so a leaf of find_any stops at its next item once another leaf has found one (rayon's
// default consume_iter, plumbing/mod.rs:169-180).
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <mini/iter/integers.hpp>
#include <mini/iter/plumbing.hpp>

namespace mini::iter {

// Producers that set no bounds of their own.
struct NoBounds {
    std::size_t min_len() const { return 1; }
    std::size_t max_len() const { return std::numeric_limits<std::size_t>::max(); }
};

// ANCHOR: slice_producer
// Items T& of [data, data + n); T is const for a const vector or span.
template <class T>
struct SliceProducer : NoBounds {
    using Item = T&;
    T* data;
    std::size_t n;

    std::size_t len() const { return n; }
    Item get(std::size_t i) const { return data[i]; } // the i-th item: what zip and rev read
    std::pair<SliceProducer, SliceProducer> split_at(std::size_t index) const {
        return {SliceProducer{{}, data, index}, SliceProducer{{}, data + index, n - index}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const {
        for (std::size_t i = 0; i < n; ++i) {
            folder.consume(data[i]);
            if (asks_full(folder)) break; // another leaf found it: stop at the next item
        }
        return folder;
    }
};
// ANCHOR_END: slice_producer

// Items start, start + 1, ... (n of them), in I's own arithmetic.
template <class I>
struct RangeProducer : NoBounds {
    using Item = I;
    I start;
    std::size_t n;

    // start + i in unsigned arithmetic, which wraps where a signed sum would overflow
    static I offset(I start, std::size_t i) {
        using U = unsigned_of<I>;
        return static_cast<I>(static_cast<U>(static_cast<U>(start) + static_cast<U>(i)));
    }
    std::size_t len() const { return n; }
    Item get(std::size_t i) const { return offset(start, i); }
    std::pair<RangeProducer, RangeProducer> split_at(std::size_t index) const {
        return {RangeProducer{{}, start, index}, RangeProducer{{}, offset(start, index), n - index}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const {
        for (std::size_t i = 0; i < n; ++i) {
            folder.consume(offset(start, i));
            if (asks_full(folder)) break;
        }
        return folder;
    }
};

// A range whose length may not fit in std::size_t (rayon's 128-bit ranges, range.rs:232-278):
// it halves itself until a piece is a single item.
template <class I>
struct UnindexedRangeProducer {
    using Item = I;
    I start, end;

    std::pair<UnindexedRangeProducer, std::optional<UnindexedRangeProducer>> split() const {
        using U = unsigned_of<I>; // end - start in I itself overflows for a signed 128-bit range
        const U len = static_cast<U>(end) - static_cast<U>(start);
        if (len < 2) return {*this, std::nullopt};
        const I mid = static_cast<I>(static_cast<U>(start) + len / 2);
        return {UnindexedRangeProducer{start, mid}, UnindexedRangeProducer{mid, end}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const {
        for (I i = start; i < end; ++i) {
            folder.consume(I(i));
            if (asks_full(folder)) break;
        }
        return folder;
    }
};

// ANCHOR: map_folder
// Applies f, then hands the result on: map's folder, shared by MapProducer and MapConsumer.
template <class Inner, class F>
struct MapFolder {
    using Result = typename Inner::Result;
    Inner inner;
    const F* f;

    template <class T>
    void consume(T&& item) { inner.consume(std::invoke(*f, std::forward<T>(item))); }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: map_folder

template <Producer P, class F>
struct MapProducer {
    using Item = std::invoke_result_t<const F&, typename P::Item>;
    P base;
    const F* f;

    std::size_t len() const { return base.len(); }
    std::size_t min_len() const { return base.min_len(); }
    std::size_t max_len() const { return base.max_len(); }
    Item get(std::size_t i) const { return std::invoke(*f, base.get(i)); }
    std::pair<MapProducer, MapProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(index);
        return {MapProducer{std::move(l), f}, MapProducer{std::move(r), f}};
    }
    template <Folder<Item> Fo>
    Fo fold_with(Fo folder) const {
        return base.fold_with(MapFolder<Fo, F>{std::move(folder), f}).inner;
    }
};

// Pairs each item with its index in the whole iterator.
template <class Inner, class BaseItem>
struct EnumerateFolder {
    using Result = typename Inner::Result;
    Inner inner;
    std::size_t index;

    template <class T>
    void consume(T&& item) {
        inner.consume(std::pair<std::size_t, BaseItem>(index++, std::forward<T>(item)));
    }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};

template <Producer P>
struct EnumerateProducer {
    using Item = std::pair<std::size_t, typename P::Item>;
    P base;
    std::size_t offset;

    std::size_t len() const { return base.len(); }
    std::size_t min_len() const { return base.min_len(); }
    std::size_t max_len() const { return base.max_len(); }
    Item get(std::size_t i) const { return Item(offset + i, base.get(i)); }
    std::pair<EnumerateProducer, EnumerateProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(index);
        return {EnumerateProducer{std::move(l), offset}, EnumerateProducer{std::move(r), offset + index}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const {
        using Inner = EnumerateFolder<F, typename P::Item>;
        return base.fold_with(Inner{std::move(folder), offset}).inner;
    }
};

// with_min_len / with_max_len: bounds the bridge's LengthSplitter reads (rayon's MinLen, MaxLen).
template <Producer P>
struct BoundedProducer {
    using Item = typename P::Item;
    P base;
    std::size_t min, max;

    std::size_t len() const { return base.len(); }
    std::size_t min_len() const { return std::max(base.min_len(), min); }
    std::size_t max_len() const { return std::min(base.max_len(), max); }
    Item get(std::size_t i) const { return base.get(i); }
    std::pair<BoundedProducer, BoundedProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(index);
        return {BoundedProducer{std::move(l), min, max}, BoundedProducer{std::move(r), min, max}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const { return base.fold_with(std::move(folder)); }
};

} // namespace mini::iter
