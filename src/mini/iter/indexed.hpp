// What the indexed adaptors (zip, rev, step_by, the chunks) need of the producer below them:
// its i-th item. rayon's producers give an iterator that runs both ways with an exact size
// (plumbing/mod.rs, Producer::into_iter); here each indexed producer gives get(i).
#pragma once

#include <concepts>
#include <cstddef>

#include <mini/iter/plumbing.hpp>

namespace mini::iter {

template <class P>
concept IndexedProducer = Producer<P> && requires(const P p, std::size_t i) {
    { p.get(i) } -> std::same_as<typename P::Item>;
};

// The base loop of a producer that reads its items by index: as the slice's, it asks the
// folder full() after every item, so a leaf of a search stops at its next item.
template <class P, class F>
F fold_by_index(const P& producer, F folder) {
    const std::size_t n = producer.len();
    for (std::size_t i = 0; i < n; ++i) {
        folder.consume(producer.get(i));
        if (asks_full(folder)) break;
    }
    return folder;
}

} // namespace mini::iter
