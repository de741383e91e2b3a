// bridge_2d: chapter 4's thief-splitting over a rectangle (src/mini/bridge_2d.hpp; the splitter
// lab, chapters/labs/splitter.hpp). Not in rayon: the workbook's own tests. The counts are exact
// where nobody can steal (a pool of one thread, the splitter's budget given to Bridge2D directly),
// as chapter 4 derives them; the [forced] case makes a steal happen by explicit hand-offs.
#include <mini/bridge_2d.hpp>
#include <instrument/watchdog.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "helpers.hpp"

using mini::Rect;
using mini::ThreadPool;
using mini::Tile;

namespace {

// The leaves of one run of Bridge2D over `rect` with a budget of `threads` splits, sorted by
// their first cell.
std::vector<Tile> tiles(ThreadPool& pool, std::size_t threads, Rect rect, bool inside,
                        std::size_t min_rows = 1, std::size_t min_cols = 1) {
    std::mutex m;
    std::vector<Tile> out;
    auto leaf = [&](const Tile& t) {
        std::lock_guard lock(m);
        out.push_back(t);
        return std::size_t{1};
    };
    auto reduce = [](std::size_t a, std::size_t b) { return a + b; };
    const mini::Bridge2D<std::size_t, decltype(leaf), decltype(reduce)> b{
        pool, threads, min_rows, min_cols, leaf, reduce};
    auto run = [&] { return b.run(rect, false, threads); };
    const std::size_t n = inside ? pool.install(run) : run();
    CHECK(n == out.size());
    std::sort(out.begin(), out.end(), [](const Tile& x, const Tile& y) {
        return std::pair(x.rect.row_begin, x.rect.col_begin) <
               std::pair(y.rect.row_begin, y.rect.col_begin);
    });
    return out;
}

bool all_of_size(const std::vector<Tile>& ts, std::size_t rows, std::size_t cols) {
    return std::all_of(ts.begin(), ts.end(), [&](const Tile& t) {
        return t.rect.rows() == rows && t.rect.cols() == cols;
    });
}

// How many tiles hit each cell of a grid of grid_rows x grid_cols: the tiles' cells must be
// `rect`'s, each once.
std::size_t cells_not_once(ThreadPool& pool, Rect rect, std::size_t grid_cols, bool inside) {
    std::vector<std::atomic<int>> hit(rect.row_end * grid_cols);
    std::atomic<std::size_t> empty_tiles{0};
    auto run = [&] {
        mini::for_each_tile(pool, rect, [&](const Rect& t) {
            if (t.rows() == 0 || t.cols() == 0) ++empty_tiles;
            for (std::size_t r = t.row_begin; r < t.row_end; ++r)
                for (std::size_t c = t.col_begin; c < t.col_end; ++c) hit[r * grid_cols + c]++;
        });
    };
    if (inside)
        pool.install(run);
    else
        run();
    std::size_t bad = 0;
    for (std::size_t r = 0; r < rect.row_end; ++r)
        for (std::size_t c = 0; c < grid_cols; ++c) {
            const bool in = r >= rect.row_begin && c >= rect.col_begin && c < rect.col_end;
            bad += hit[r * grid_cols + c].load() != (in ? 1 : 0);
        }
    const bool empty_rect = rect.rows() == 0 || rect.cols() == 0;
    return bad + (empty_rect ? 0 : empty_tiles.load());
}

// A run in which a steal is forced: the tile that holds cell (0, 0) wakes another worker (through
// the injector) and waits until some tile has run on a thread other than its own, which that
// worker can only do by stealing from the left spine's deque.
std::size_t count_with_forced_steal(ThreadPool& pool, Rect rect) {
    std::atomic<bool> stolen_tile_ran{false};
    std::optional<mini::Watchdog> dog(
        std::in_place, "tile (0, 0) waiting for a thief to run a tile", test::watchdog_time,
        [&] { return mini::stats(pool).executed; },
        [&] { return test::describe(mini::stats(pool)); });
    return pool.install([&] {
        const auto first_thread = std::this_thread::get_id();
        return mini::bridge_2d<std::size_t>(
            pool, rect, 1, 1,
            [&](const Tile& t) {
                if (t.rect.row_begin == 0 && t.rect.col_begin == 0) {
                    test::wake_a_worker(pool);
                    while (!stolen_tile_ran.load()) std::this_thread::yield();
                    dog.reset();
                } else if (std::this_thread::get_id() != first_thread) {
                    stolen_tile_ran = true;
                }
                return std::size_t{1};
            },
            [](std::size_t a, std::size_t b) { return a + b; });
    });
}

constexpr std::size_t no_steal_inside(std::size_t threads) {
    return std::size_t{1} << std::bit_width(threads);
}

} // namespace

// From outside, the root's join is injected: both halves arrive migrated and start again from 1
// split each, 8 tiles, where nothing migrated inside gives 2 (chapter 4's counts).
TEST_CASE("one thread: 8 tiles from outside the pool, 2 inside, every run", "[bridge_2d]") {
    test::Pool pool(1);
    const Rect square{0, 256, 0, 256};
    for (int run = 0; run < 20; ++run) {
        CHECK(mini::count_tiles(pool, square) == 8);
        CHECK(pool.install([&] { return mini::count_tiles(pool, square); }) == 2);
    }
}

// A budget of 4 splits on a pool of one thread, where nothing is ever stolen: 4, 2, 1, 0 along
// every path inside, 8 tiles; from outside the root halves 4 to 2, its migrated halves give theirs
// max(4, 1) = 4 again, four subtrees of 8: 32.
TEST_CASE("a budget of 4 halves to 8 tiles inside, 32 from outside, where nobody steals",
          "[bridge_2d]") {
    test::Pool pool(1);
    const Rect square{0, 256, 0, 256};
    for (const bool inside : {true, false}) {
        INFO((inside ? "inside" : "outside"));
        const auto ts = tiles(pool, 4, square, inside);
        CHECK(ts.size() == (inside ? 8u : 32u));
        for (const Tile& t : ts) CHECK((!t.migrated && t.splits == 0));
    }
}

TEST_CASE("the tiles cover the rectangle exactly once", "[bridge_2d]") {
    const std::size_t threads = GENERATE(1, 2, 4);
    test::Pool pool(threads);
    for (const Rect rect : {Rect{0, 0, 0, 5}, Rect{0, 1, 0, 1}, Rect{0, 3, 0, 7}, Rect{2, 9, 5, 6},
                            Rect{0, 100, 0, 37}, Rect{5, 256, 9, 256}}) {
        INFO("threads " << threads << ", rows " << rect.row_begin << ".." << rect.row_end
                        << ", cols " << rect.col_begin << ".." << rect.col_end);
        CHECK(cells_not_once(pool, rect, rect.col_end, false) == 0);
        CHECK(cells_not_once(pool, rect, rect.col_end, true) == 0);
    }
}

TEST_CASE("a cut halves the longer side, the rows on a tie", "[bridge_2d]") {
    test::Pool pool(1);
    const auto ts = tiles(pool, 4, Rect{0, 64, 0, 64}, true); // 64x64, 32x64, 32x32, 16x32
    CHECK(ts.size() == 8);
    CHECK(all_of_size(ts, 16, 32));
    CHECK(all_of_size(tiles(pool, 4, Rect{0, 16, 0, 1024}, true), 16, 128));
    CHECK(all_of_size(tiles(pool, 4, Rect{0, 1024, 0, 16}, true), 128, 16));
    CHECK(all_of_size(tiles(pool, 4, Rect{8, 56, 3, 43}, true), 12, 20)); // 48x40, 24x40, 24x20
}

// The size test comes first: a tile that neither side can be halved on is a leaf, with the splits
// it was given, unspent.
TEST_CASE("no tile is cut below its minimum, and a tile too small to cut keeps its splits",
          "[bridge_2d]") {
    test::Pool pool(1);
    const auto narrow = tiles(pool, 4, Rect{0, 64, 0, 64}, true, 40, 1); // rows never halved
    CHECK(narrow.size() == 8);
    CHECK(all_of_size(narrow, 64, 8));
    const auto small = tiles(pool, 4, Rect{0, 10, 0, 10}, true, 4, 4); // 5x10, 5x5: 2 < 4
    CHECK(small.size() == 4);
    CHECK(all_of_size(small, 5, 5));
    for (const Tile& t : small) CHECK(t.splits == 1);
    const auto whole = tiles(pool, 4, Rect{0, 3, 0, 3}, true, 2, 2);
    REQUIRE(whole.size() == 1);
    CHECK((whole[0].rect == Rect{0, 3, 0, 3} && whole[0].splits == 4));
}

TEST_CASE("a forced steal makes the stolen tile split again", "[bridge_2d][forced]") {
    const std::size_t threads = GENERATE(2, 4);
    test::Pool pool(threads);
    for (int run = 0; run < 5; ++run)
        CHECK(count_with_forced_steal(pool, Rect{0, 256, 0, 256}) > no_steal_inside(threads));
}

// What the tiles are for: a transpose that reads each tile by rows and writes it by columns.
TEST_CASE("a tiled transpose equals the serial one", "[bridge_2d]") {
    test::Pool pool(2);
    const std::size_t rows = 300, cols = 200;
    std::vector<int> in(rows * cols), out(rows * cols, -1);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
    auto transpose = [&](const Rect& t) {
        for (std::size_t r = t.row_begin; r < t.row_end; ++r)
            for (std::size_t c = t.col_begin; c < t.col_end; ++c) out[c * rows + r] = in[r * cols + c];
    };
    pool.install([&] { mini::for_each_tile(pool, Rect{0, rows, 0, cols}, transpose, 16, 16); });
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) wrong += out[c * rows + r] != in[r * cols + c];
    CHECK(wrong == 0);
}
