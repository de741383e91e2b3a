// rev() (rayon's iter/rev.rs): item i is the base's item len - 1 - i. The first `index` items
// of the reversed iterator are the base's LAST `index` items, so the base is cut at
// len - index and its two pieces swap sides.
#pragma once

#include <cstddef>
#include <utility>

#include <mini/iter/indexed.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <IndexedProducer P>
struct RevProducer {
    using Item = typename P::Item;
    P base;

    std::size_t len() const { return base.len(); }
    std::size_t min_len() const { return base.min_len(); }
    std::size_t max_len() const { return base.max_len(); }
    Item get(std::size_t i) const { return base.get(base.len() - 1 - i); }
    std::pair<RevProducer, RevProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(base.len() - index);
        return {RevProducer{std::move(r)}, RevProducer{std::move(l)}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const { return fold_by_index(*this, std::move(folder)); }
};

template <class Base>
class Rev : public ParallelIterator<Rev<Base>> {
    static_assert(Base::indexed, "rev needs an indexed iterator (not after filter)");

public:
    using Item = typename Base::Item;
    static constexpr bool indexed = true;

    explicit Rev(Base base) : base_(std::move(base)) {}
    std::size_t len() const { return base_.len(); }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(RevProducer<decltype(producer)>{std::move(producer)});
        });
    }

private:
    Base base_;
};

} // namespace mini::iter
