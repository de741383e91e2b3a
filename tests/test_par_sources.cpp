// Where a chain starts and what a search gives back, at the places C++ lets a user go wrong and
// Rust's types do not (issue 47): the two bounds of par_range of two integer types, the 128-bit
// ranges, and find_any over a vector, which gives the element itself (rayon's &T), not a copy.
#include <mini/par.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "helpers.hpp"

namespace {

// Runs `body` inside pools of 1, 2 and 4 threads and from outside any pool (the global pool).
template <class Body>
void everywhere(Body body) {
    for (std::size_t threads : {1, 2, 4}) {
        test::Pool pool(threads);
        INFO("inside a pool of " << threads);
        pool.install(body);
    }
    INFO("outside any pool");
    body();
}

using mini::iter::i128;
using mini::iter::u128;

} // namespace

// Before: par_range(I, I) could not deduce one I from int and int64_t, so the call took the
// u128 overload by implicit conversion: -5 became 2^128 - 5 and the range was empty.
TEST_CASE("par_range of an int and another integer type has the other type", "[par_iter][range]") {
    everywhere([] {
        CHECK(mini::par_range(-5, std::int64_t{5}).count() == 10);
        CHECK(mini::par_range(-5, std::int64_t{5}).sum() == -5);
        static_assert(std::is_same_v<decltype(mini::par_range(-5, std::int64_t{5}))::Item, std::int64_t>);
        const std::vector<int> v{4, 5, 6};
        const auto r = mini::par_range(0, v.size()); // Rust's (0..v.len()): a range of usize
        static_assert(std::is_same_v<decltype(r)::Item, std::size_t>);
        static_assert(decltype(r)::indexed);
        const auto pairs = r.enumerate().with_min_len(1).map([](auto p) { return p.first * p.second; }).sum();
        CHECK(pairs == 0 + 1 + 4);
        CHECK(mini::par_range(std::uint8_t{250}, 256 - 1).count() == 5); // int 255 fits in uint8_t
    });
}

TEST_CASE("par_range: an int bound the other type cannot hold throws, it is not wrapped", "[par_iter][range]") {
    CHECK_THROWS_AS(mini::par_range(-5, std::size_t{5}), std::out_of_range);
    CHECK_THROWS_WITH(mini::par_range(-5, std::size_t{5}),
                      "mini::par_range: the bound -5 does not fit in the other bound's type; cast both bounds");
    CHECK_THROWS_AS(mini::par_range(std::uint8_t{0}, 300), std::out_of_range);
    CHECK_THROWS_AS(mini::par_range(-1, u128{5}), std::out_of_range);
}

// Before: std::integral<__int128> is false in strict C++20, so the u128 overload took the call
// and the range was empty; its items were unsigned.
TEST_CASE("signed 128-bit ranges: short ones indexed, long ones halved", "[par_iter][range]") {
    everywhere([] {
        const auto small = mini::par_range(i128{-5}, i128{5});
        static_assert(std::is_same_v<decltype(small)::Item, i128>);
        CHECK(small.count() == 10);
        CHECK(small.sum() == i128{-5});
        CHECK(mini::par_range(i128{5}, i128{-5}).count() == 0);
        const i128 min = -(i128{1} << 126) * 2, max = -(min + 1); // -2^127 and 2^127 - 1
        const auto found = mini::par_range(min, max).find_any([&](i128 x) { return x == min + 7; });
        CHECK((found.has_value() && *found == min + 7));
        const auto neg = mini::par_range(min, min + 1000).filter([](i128 x) { return x % 2 == 0; }).count();
        CHECK(neg == 500);
        CHECK(mini::par_range(-3, i128{3}).sum() == i128{-3});
        CHECK(mini::par_range(u128{10}, u128{20}).sum() == u128{145});
    });
}

// rayon's find_any over a slice gives &T: the element itself. Before, mini copied it, so a
// move-only element did not compile and a costly one was copied.
TEST_CASE("find_any over a vector gives the element, not a copy", "[par_iter][range]") {
    everywhere([] {
        std::vector<std::unique_ptr<int>> boxes;
        for (int i = 0; i < 1000; ++i) boxes.push_back(std::make_unique<int>(i));
        const auto found = mini::par_iter(boxes).find_any([](const auto& b) { return *b == 777; });
        static_assert(std::is_same_v<decltype(found), const std::optional<std::reference_wrapper<std::unique_ptr<int>>>>);
        REQUIRE(found.has_value());
        CHECK(&found->get() == &boxes[777]);
        const std::vector<std::string> words{"a", "bb", "ccc"};
        const std::optional<std::string> copy = mini::par_iter(words).find_any([](const auto& s) { return s.size() == 2; });
        CHECK(copy == std::optional<std::string>("bb")); // a value is still one assignment away
        CHECK(mini::par_iter(words).find_any([](const auto& s) { return s.empty(); }) == std::nullopt);
        const auto refs = mini::par_iter(boxes).map([](auto& b) { return std::ref(b); }).collect_vec();
        CHECK(&refs[5].get() == &boxes[5]); // collect references: the way collect_vec's message names
    });
}
