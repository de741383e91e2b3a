// panic_fuse() (src/mini/iter/panic_fuse.hpp, chapter 17): once one item's call has thrown, the
// other leaves stop at their next item; the exception, with its type, still reaches the caller.
// Forced on one worker: with with_max_len(1) every item is a leaf, and the worker runs them
// depth first from item 0, so item 0 throws before any other item starts; join then runs the
// rest of the tree from its own deque. Without panic_fuse all of them run; with it, none.
//
// Tags: [full] needs the consumer's full() (IGNORE_FULL breaks it).
#include <mini/par.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace {

// Items 0..n-1, each a leaf of its own; item 0 throws a std::out_of_range. Returns how many of
// the other items ran.
std::size_t ran_after_throw(mini::ThreadPool& pool, std::size_t n, bool fuse) {
    std::atomic<std::size_t> ran{0};
    auto item = [&](std::size_t i) {
        if (i == 0) throw std::out_of_range("item 0");
        ran.fetch_add(1, std::memory_order_relaxed);
    };
    auto it = mini::par_range(std::size_t(0), n).with_max_len(1);
    REQUIRE_THROWS_AS(pool.install([&] {
                          if (fuse) it.panic_fuse().for_each(item);
                          else it.for_each(item);
                      }),
                      std::out_of_range);
    return ran.load();
}

} // namespace

TEST_CASE("without panic_fuse every other leaf runs after item 0 throws", "[panic_fuse]") {
    mini::ThreadPool pool(1);
    CHECK(ran_after_throw(pool, 64, false) == 63);
}

TEST_CASE("panic_fuse: on one worker no other leaf runs after item 0 throws",
          "[panic_fuse][full]") {
    mini::ThreadPool pool(1);
    CHECK(ran_after_throw(pool, 64, true) == 0);
}

TEST_CASE("panic_fuse on several workers: the caller gets item 0's exception with its type",
          "[panic_fuse]") {
    for (std::size_t threads : {2, 4}) {
        mini::ThreadPool pool(threads);
        for (int run = 0; run < 20; ++run) CHECK(ran_after_throw(pool, 1000, true) < 1000);
    }
}

TEST_CASE("panic_fuse changes nothing when nothing throws", "[panic_fuse]") {
    for (std::size_t threads : {1, 2, 4}) {
        mini::ThreadPool pool(threads);
        const std::uint64_t n = 100000;
        const std::uint64_t sum = pool.install(
            [&] { return mini::par_range(std::uint64_t(0), n).panic_fuse().sum(); });
        CHECK(sum == n * (n - 1) / 2);
        std::atomic<std::uint64_t> seen{0};
        pool.install([&] {
            mini::par_range(std::uint64_t(0), n).panic_fuse().for_each([&](std::uint64_t) {
                seen.fetch_add(1, std::memory_order_relaxed);
            });
        });
        CHECK(seen == n);
    }
}
