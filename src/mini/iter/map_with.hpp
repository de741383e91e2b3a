// map_init(init, f), map_with(value, f), for_each_init(init, op), for_each_with(value, op): a
// state made where a leaf starts (init(), or a copy of value) and passed by reference to every
// call of that leaf (rayon's iter/map_with.rs). Once per leaf, not once per thread: the splitter
// makes more leaves than threads (rayon #718, #1214), and chapter 14 counts them.
#pragma once

#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

#include <mini/iter/consumers.hpp>
#include <mini/iter/fold.hpp>
#include <mini/iter/parallel_iterator.hpp>

namespace mini::iter {

template <class Init>
using state_t = std::remove_cvref_t<std::invoke_result_t<const Init&>>;

// ANCHOR: map_init_folder
template <class Inner, class S, class F>
struct MapInitFolder {
    using Result = typename Inner::Result;
    Inner inner;
    S state; // this leaf's: made by init() when the leaf starts
    const F* f;

    template <class T>
    void consume(T&& item) { inner.consume(std::invoke(*f, state, std::forward<T>(item))); }
    bool full() const { return inner.full(); }
    Result complete() && { return std::move(inner).complete(); }
};
// ANCHOR_END: map_init_folder

template <class Base, class Init, class F>
struct MapInitConsumer : WrapSplits<MapInitConsumer<Base, Init, F>, Base> {
    using Result = typename Base::Result;
    Base base;
    const Init* init;
    const F* f;
    MapInitConsumer(Base b, const Init* i, const F* fn) : base(std::move(b)), init(i), f(fn) {}
    MapInitConsumer wrap(Base b) const { return {std::move(b), init, f}; }
    auto into_folder() const {
        return MapInitFolder<decltype(base.into_folder()), state_t<Init>, F>{base.into_folder(), std::invoke(*init), f};
    }
};

// The same on the producer side (when enumerate or the length bounds come after map_init).
template <Producer P, class Init, class F>
struct MapInitProducer {
    using Item = std::invoke_result_t<const F&, state_t<Init>&, typename P::Item>;
    P base;
    const Init* init;
    const F* f;

    std::size_t len() const { return base.len(); }
    std::size_t min_len() const { return base.min_len(); }
    std::size_t max_len() const { return base.max_len(); }
    std::pair<MapInitProducer, MapInitProducer> split_at(std::size_t index) const {
        auto [l, r] = base.split_at(index);
        return {MapInitProducer{std::move(l), init, f}, MapInitProducer{std::move(r), init, f}};
    }
    template <Folder<Item> Fo>
    Fo fold_with(Fo folder) const {
        return base.fold_with(MapInitFolder<Fo, state_t<Init>, F>{std::move(folder), std::invoke(*init), f}).inner;
    }
};

template <class Base, class Init, class F>
class MapInit : public ParallelIterator<MapInit<Base, Init, F>> {
public:
    using Item = std::invoke_result_t<const F&, state_t<Init>&, typename Base::Item>;
    static constexpr bool indexed = Base::indexed;

    MapInit(Base base, Init init, F f) : base_(std::move(base)), init_(std::move(init)), f_(std::move(f)) {}
    std::size_t len() const { return base_.len(); }

    template <class C>
    auto drive_unindexed(ThreadPool& pool, C consumer) const {
        return base_.drive_unindexed(pool, MapInitConsumer<C, Init, F>(std::move(consumer), &init_, &f_));
    }
    template <class C, class Observe = NoObserver>
    auto drive(ThreadPool& pool, C consumer, const Observe& observe = {}) const {
        return base_.drive(pool, MapInitConsumer<C, Init, F>(std::move(consumer), &init_, &f_), observe);
    }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return base_.with_producer([&](auto producer) {
            return callback(MapInitProducer<decltype(producer), Init, F>{std::move(producer), &init_, &f_});
        });
    }

private:
    Base base_;
    Init init_;
    F f_;
};

// for_each_init: op(state, item), the state made once per leaf.
template <class S, class F>
struct ForEachInitFolder {
    using Result = Unit;
    S state;
    const F* op;
    template <class T>
    void consume(T&& item) { std::invoke(*op, state, std::forward<T>(item)); }
    bool full() const { return false; }
    Unit complete() && { return {}; }
};

template <class Init, class F>
struct ForEachInitConsumer : SameSplits<ForEachInitConsumer<Init, F>, NoopReducer> {
    using Result = Unit;
    const Init* init;
    const F* op;
    ForEachInitConsumer(const Init* i, const F* o) : init(i), op(o) {}
    ForEachInitFolder<state_t<Init>, F> into_folder() const { return {std::invoke(*init), op}; }
    bool full() const { return false; }
    NoopReducer to_reducer() const { return {}; }
};

} // namespace mini::iter
