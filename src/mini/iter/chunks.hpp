// par_chunks(v, n) and par_chunks_exact(v, n) (rayon's slice/chunks.rs): items are std::span
// pieces of n elements (the last one shorter for par_chunks; the exact ones leave the rest in
// remainder()). A producer of chunks counts chunks, so it cuts its slice at a multiple of n:
// chunk `index` starts at element index * n. Cut anywhere else (CHUNK_SPLIT_UNALIGNED) and the
// chunk left of every cut comes out short and the ones right of it straddle two chunks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <utility>

#include <mini/iter/indexed.hpp>
#include <mini/iter/parallel_iterator.hpp>
#include <mini/sabotage.hpp>

namespace mini::iter {

// ANCHOR: chunks_producer
// Chunks of `size` elements of [data, data + n): the last one holds the n % size left over.
template <class T>
struct ChunksProducer : NoBounds {
    using Item = std::span<T>;
    T* data;
    std::size_t n, size;

    std::size_t len() const { return (n + size - 1) / size; }
    Item get(std::size_t i) const { return Item(data + i * size, std::min(size, n - i * size)); }
    std::pair<ChunksProducer, ChunksProducer> split_at(std::size_t index) const {
        std::size_t elem = std::min(index * size, n); // a multiple of size, or the end
        if constexpr (sabotage::chunk_split_unaligned)
            elem = std::min(index * size - (index > 0 ? size / 2 : 0), n); // [CHUNK_SPLIT_UNALIGNED]
        return {ChunksProducer{{}, data, elem, size}, ChunksProducer{{}, data + elem, n - elem, size}};
    }
    template <Folder<Item> F>
    F fold_with(F folder) const { return fold_by_index(*this, std::move(folder)); }
};
// ANCHOR_END: chunks_producer

inline std::size_t checked_chunk_size(std::size_t size) {
    if (size == 0) throw std::invalid_argument("mini::par_chunks: chunk_size must not be zero");
    return size;
}

// par_chunks and par_chunks_mut (exact = false); the exact ones drop the tail from the items.
template <class T, bool exact>
class ChunksIter : public ParallelIterator<ChunksIter<T, exact>> {
public:
    using Item = std::span<T>;
    static constexpr bool indexed = true;

    ChunksIter(std::span<T> s, std::size_t size) : items_(s), size_(checked_chunk_size(size)) {
        if constexpr (exact) items_ = s.first(s.size() - s.size() % size_);
        rem_ = s.subspan(items_.size());
    }
    std::size_t len() const { return (items_.size() + size_ - 1) / size_; }
    // The elements after the last whole chunk (par_chunks_exact's; empty for par_chunks).
    std::span<T> remainder() const { return rem_; }
    template <class Callback>
    auto with_producer(Callback&& callback) const {
        return callback(ChunksProducer<T>{{}, items_.data(), items_.size(), size_});
    }

private:
    std::span<T> items_, rem_;
    std::size_t size_;
};

} // namespace mini::iter
