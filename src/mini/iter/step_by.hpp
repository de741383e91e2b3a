// step_by(n) (rayon's iter/step_by.rs): items 0, n, 2n, ... of the base. Item `index` is the
// base's item index * n, so the base is cut there.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include <mini/iter/indexed.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <IndexedProducer P>
struct StepByProducer {
    using Item = typename P::Item;
    P base;
    std::size_t step;

    std::size_t len() const { return (base.len() + step - 1) / step; }
    std::size_t min_len() const { return (base.min_len() + step - 1) / step; }
    std::size_t max_len() const { return std::max<std::size_t>(1, base.max_len() / step); }
    Item get(std::size_t i) const { return base.get(i * step); }
    std::pair<StepByProducer, StepByProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(std::min(index * step, base.len()));
        return {StepByProducer{std::move(l), step}, StepByProducer{std::move(r), step}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const { return fold_by_index(*this, std::move(folder)); }
};

template <class Base>
class StepBy : public ParallelIterator<StepBy<Base>> {
    static_assert(Base::indexed, "step_by needs an indexed iterator (not after filter)");

public:
    using Item = typename Base::Item;
    static constexpr bool indexed = true;

    StepBy(Base base, std::size_t step) : base_(std::move(base)), step_(step) {
        if (step == 0) throw std::invalid_argument("mini::step_by: step must not be zero");
    }
    std::size_t len() const { return (base_.len() + step_ - 1) / step_; }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(StepByProducer<decltype(producer)>{std::move(producer), step_});
        });
    }

private:
    Base base_;
    std::size_t step_;
};

} // namespace mini::iter
