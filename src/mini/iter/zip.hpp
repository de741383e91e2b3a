// zip and zip_eq (rayon's iter/zip.rs, zip_eq.rs): items are pairs of the two iterators' items,
// references where those are references, so `auto [d, s] = pair; d += s;` writes through.
//
// The one line that matters is split_at: both producers are cut at the SAME index, so the left
// pieces pair items 0..index of both sides and the right pieces the rest. Cut the second side
// anywhere else (ZIP_UNEVEN_SPLIT) and every pair right of a split is misaligned.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include <mini/iter/indexed.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

// ANCHOR: zip_producer
template <IndexedProducer A, IndexedProducer B>
struct ZipProducer {
    using Item = std::pair<typename A::Item, typename B::Item>;
    A a;
    B b;

    std::size_t len() const { return std::min(a.len(), b.len()); }
    std::size_t min_len() const { return std::max(a.min_len(), b.min_len()); }
    std::size_t max_len() const { return std::min(a.max_len(), b.max_len()); }
    Item get(std::size_t i) const { return Item(a.get(i), b.get(i)); }
    std::pair<ZipProducer, ZipProducer> split_at(std::size_t index) const {
        auto [a_left, a_right] = a.split_at(index);
        std::size_t b_index = index;
        if constexpr (sabotage::zip_uneven_split)
            b_index = std::min(index + 1, b.len()); // [ZIP_UNEVEN_SPLIT] b is cut one later
        auto [b_left, b_right] = b.split_at(b_index);
        return {ZipProducer{std::move(a_left), std::move(b_left)},
                ZipProducer{std::move(a_right), std::move(b_right)}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const { return fold_by_index(*this, std::move(folder)); }
};
// ANCHOR_END: zip_producer

template <class A, class B>
class Zip : public ParallelIterator<Zip<A, B>> {
    static_assert(A::indexed && B::indexed, "zip needs two indexed iterators (not after filter)");

public:
    using Item = std::pair<typename A::Item, typename B::Item>;
    static constexpr bool indexed = true;

    Zip(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}
    std::size_t len() const { return std::min(a_.len(), b_.len()); }
    // The pairs beyond the shorter side's length are never asked for: get(i) reads i < len().
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return a_.with_producer([&](auto pa) {
            return b_.with_producer([&](auto pb) {
                return callback(ZipProducer<decltype(pa), decltype(pb)>{std::move(pa), std::move(pb)});
            });
        });
    }

private:
    A a_;
    B b_;
};

// zip_eq: zip after checking that both sides have the same length (rayon asserts it).
template <class A, class B>
Zip<A, B> zip_eq(A a, B b) {
    if (a.len() != b.len())
        throw std::invalid_argument("mini::zip_eq: iterators must have the same length (" +
                                    std::to_string(a.len()) + " and " + std::to_string(b.len()) + ")");
    return Zip<A, B>(std::move(a), std::move(b));
}

} // namespace mini::iter
