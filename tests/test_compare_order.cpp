// compare's order of turns (apps/compare/order.hpp): every order is a permutation, and over one
// period every implementation comes right after every other equally often.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <utility>

#include "compare/order.hpp"

TEST_CASE("every run's order is a permutation of the implementations") {
    for (std::size_t m = 0; m <= 7; ++m)
        for (std::size_t run = 0; run < 3 * app::balanced_period(m); ++run) {
            const auto order = app::balanced_order(m, run);
            CHECK(std::set(order.begin(), order.end()).size() == m);
            for (std::size_t x : order) CHECK(x < m);
        }
}

TEST_CASE("over one period, each implementation follows each other equally often") {
    for (std::size_t m = 2; m <= 7; ++m) {
        std::map<std::pair<std::size_t, std::size_t>, int> follows; // (before, after) -> count
        for (std::size_t run = 0; run < app::balanced_period(m); ++run) {
            const auto order = app::balanced_order(m, run);
            for (std::size_t i = 1; i < m; ++i) ++follows[{order[i - 1], order[i]}];
        }
        INFO("m = " << m);
        CHECK(follows.size() == m * (m - 1)); // every ordered pair occurs ...
        for (const auto& [pair, count] : follows) CHECK(count == (m % 2 == 0 ? 1 : 2)); // ... alike
    }
}
