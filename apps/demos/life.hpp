// life (rayon-demo's life/): Conway's Game of Life, B3/S23, on a rows x cols board whose edges
// are dead (no wrap-around). A generation is a new board, each cell computed from the old one:
// serially by a loop, in parallel by a par_range over the cells mapped to their successors and
// collected into a new vector (one allocation per generation, as the demo). A cell is a byte
// (std::vector<bool> packs bits, and a parallel write to two bits of one byte would race; Rust's
// Vec<bool> is a byte per cell). The demo's board is random from an unseeded generator; here it
// comes from the seeded one, so that every column starts from the same board. The board is made
// before the timer; the generations are timed. The result: the last board's fingerprint.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <mini/par.hpp>

#include "demos/outcome.hpp"
#include "demos/rng.hpp"

namespace demos::life {

struct Size {
    std::size_t rows = 200, cols = 200, gens = 100;
};

struct Board {
    std::size_t rows, cols;
    std::vector<std::uint8_t> cells; // 1 alive, 0 dead; row after row

    static Board random(Size s) {
        XorShift rng;
        Board b{s.rows, s.cols, std::vector<std::uint8_t>(s.rows * s.cols)};
        for (auto& c : b.cells) c = std::uint8_t(rng.next_u32() >> 31);
        return b;
    }

    std::uint8_t alive(std::size_t r, std::size_t c) const { return cells[r * cols + c]; }

    // The cell's state in the next generation.
    std::uint8_t successor(std::size_t cell) const {
        const std::size_t r = cell / cols, c = cell % cols;
        unsigned n = 0;
        for (std::size_t i = r > 0 ? r - 1 : r; i <= r + 1 && i < rows; ++i)
            for (std::size_t j = c > 0 ? c - 1 : c; j <= c + 1 && j < cols; ++j) n += alive(i, j);
        n -= cells[cell];
        return std::uint8_t(n == 3 || (n == 2 && cells[cell]));
    }

    Board next_serial() const {
        Board next{rows, cols, std::vector<std::uint8_t>(cells.size())};
        for (std::size_t i = 0; i < cells.size(); ++i) next.cells[i] = successor(i);
        return next;
    }

    // ANCHOR: next
    Board next_parallel() const {
        return {rows, cols,
                mini::par_range(std::size_t{0}, cells.size())
                    .map([this](std::size_t cell) { return successor(cell); })
                    .collect_vec()};
    }
    // ANCHOR_END: next
};

inline Outcome finish(double secs, const Board& b) {
    return {secs, fingerprint(std::span<const std::uint8_t>(b.cells)), true};
}

inline Outcome serial(Size s) {
    Board b = Board::random(s);
    const double secs = seconds_of([&] {
        for (std::size_t g = 0; g < s.gens; ++g) b = b.next_serial();
    });
    return finish(secs, b);
}

inline Outcome on_mini(mini::ThreadPool& pool, Size s) {
    Board b = Board::random(s);
    const double secs = seconds_of([&] {
        pool.install([&] {
            for (std::size_t g = 0; g < s.gens; ++g) b = b.next_parallel();
        });
    });
    return finish(secs, b);
}

} // namespace demos::life
