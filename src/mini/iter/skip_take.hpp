// skip(n) and take(n) (rayon's iter/skip.rs, take.rs): no producer of their own. The base's
// producer is cut once at n, and the bridge gets the part after it (skip) or before it (take).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <class Base, bool take>
class SkipTake : public ParallelIterator<SkipTake<Base, take>> {
    static_assert(Base::indexed, "skip / take need an indexed iterator (not after filter)");

public:
    using Item = typename Base::Item;
    static constexpr bool indexed = true;

    SkipTake(Base base, std::size_t n) : base_(std::move(base)), n_(std::min(n, base_.len())) {}
    std::size_t len() const { return take ? n_ : base_.len() - n_; }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            auto [before, after] = producer.split_at(n_);
            if constexpr (take) return callback(std::move(before));
            else return callback(std::move(after));
        });
    }

private:
    Base base_;
    std::size_t n_;
};

template <class Base> using Skip = SkipTake<Base, false>;
template <class Base> using Take = SkipTake<Base, true>;

} // namespace mini::iter
