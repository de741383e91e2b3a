// bridge_2d: chapter 4's bridge over a rectangle of cells, cut into tiles by the same
// thief-splitting.
//
//     mini::for_each_tile(pool, mini::Rect{0, n, 0, n}, [&](const mini::Rect& t) { ... }, 32, 32);
//
// A loop over a grid (a matrix product's blocks, a Game of Life board, a transpose) wants tiles,
// not strips of whole rows: a transpose reads its tile by rows and writes it by columns, and a
// tile near square keeps both sides in cache. So a cut halves the LONGER side of the rectangle
// (the rows on a tie), never below min_rows by min_cols cells. How many tiles follows rayon's
// adaptive splitter (chapter 4), written here on a plain count passed down the recursion instead
// of a Splitter object: a tile that nobody stole halves its budget at every cut and becomes a leaf
// when it is spent; a tile that migrated (a thief took it, or the root's join was injected) gives
// its halves at least `threads` again, so thieves find new tiles where they steal. Each half
// learns from its own join_context whether it migrated.
// rayon has no 2-D bridge: rayon-demo's matmul quarters its matrices with join down to a fixed
// 32x32 block (rayon v1.11.0, rayon-demo/src/matmul/mod.rs:193-222, a fixed cut), its Game of
// Life runs the cells through a 1-D into_par_iter (rayon-demo/src/life/mod.rs:109-116). The
// splitter's rules are rayon's Splitter::try_split (v1.11.0, src/iter/plumbing/mod.rs:258-284)
// in bridge_producer_consumer's helper (:385-435). The splitter lab (chapters/labs/splitter.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include <mini/join.hpp>

namespace mini {

// The cells [row_begin, row_end) x [col_begin, col_end) of a grid.
struct Rect {
    std::size_t row_begin, row_end, col_begin, col_end;
    std::size_t rows() const noexcept { return row_end - row_begin; }
    std::size_t cols() const noexcept { return col_end - col_begin; }
    friend bool operator==(const Rect&, const Rect&) = default;
};

// A tile at its leaf: its cells, whether it migrated, and the splits it was given.
struct Tile {
    Rect rect;
    bool migrated;
    std::size_t splits;
};

// Cuts a rectangle recursively with join_context on `pool`; calls leaf(tile) -> T on the tiles it
// keeps and combines the halves with reduce(T, T) -> T.
template <class T, class Leaf, class Reduce>
struct Bridge2D {
    ThreadPool& pool;
    std::size_t threads;            // the splits of the root, and at least those of a stolen tile
    std::size_t min_rows, min_cols; // no tile is cut below these (each at least 1)
    Leaf& leaf;
    Reduce& reduce;

    // ANCHOR: run_2d
    T run(Rect rect, bool migrated, std::size_t splits) const {
        Rect first = rect, second = rect;
        // LAB: cut step 1: the cut: halve the longer side that can be halved without going below its minimum (the rows on a tie), setting first's end and second's begin there; if neither side can be halved, a leaf with the splits unspent
        #error "lab: step cut is not written yet (write it, then delete this line)"
        // LAB_END: cut
        // LAB: halve step 2: a tile nobody stole whose splits are spent is a leaf; else declare std::size_t halves, what each half starts with: half the splits
        #error "lab: step halve is not written yet (write it, then delete this line)"
        // LAB_END: halve
        // LAB: migrated step 3: a tile that migrated gives its halves at least threads
        #error "lab: step migrated is not written yet (write it, then delete this line)"
        // LAB_END: migrated
        // LAB: join step 4: run first and second under join_context, each with its own context's migrated and halves, and reduce their results
        #error "lab: step join is not written yet (write it, then delete this line)"
        // LAB_END: join
    }
    // ANCHOR_END: run_2d
};

// Entered on the calling thread, as chapter 4's bridge is: from outside `pool` the first join is
// injected, and both halves of the root start as migrated.
template <class T, class Leaf, class Reduce>
T bridge_2d(ThreadPool& pool, Rect rect, std::size_t min_rows, std::size_t min_cols, Leaf&& leaf,
            Reduce&& reduce) {
    const Bridge2D<T, std::remove_reference_t<Leaf>, std::remove_reference_t<Reduce>> b{
        pool, pool.num_threads(), std::max<std::size_t>(min_rows, 1),
        std::max<std::size_t>(min_cols, 1), leaf, reduce};
    return b.run(rect, false, b.threads);
}

// f(tile's rect) for every tile of `rect`.
template <class F>
void for_each_tile(ThreadPool& pool, Rect rect, F&& f, std::size_t min_rows = 1,
                   std::size_t min_cols = 1) {
    bridge_2d<Unit>(
        pool, rect, min_rows, min_cols,
        [&f](const Tile& t) {
            f(t.rect);
            return Unit{};
        },
        [](Unit, Unit) { return Unit{}; });
}

// How many tiles the bridge makes of `rect`.
inline std::size_t count_tiles(ThreadPool& pool, Rect rect, std::size_t min_rows = 1,
                               std::size_t min_cols = 1) {
    return bridge_2d<std::size_t>(
        pool, rect, min_rows, min_cols, [](const Tile&) { return std::size_t{1}; },
        [](std::size_t a, std::size_t b) { return a + b; });
}

} // namespace mini
