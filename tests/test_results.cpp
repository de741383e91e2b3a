// What install, join and scope hand back: the closure's result as it is, a reference included.
// rayon returns a closure's `&T` as `&T` (its R is any type); a copy would be a different object,
// and a scope body's reference would not compile (std::optional holds no reference).
#include <mini/join.hpp>
#include <mini/scope.hpp>

#include <catch2/catch.hpp>

#include <type_traits>
#include <utility>

#include "helpers.hpp"

namespace {
int the_int = 7;
int& the_ref() { return the_int; }
} // namespace

TEST_CASE("install returns the closure's reference, not a copy", "[results]") {
    test::Pool pool(2);
    static_assert(std::is_same_v<decltype(pool.install(the_ref)), int&>);
    static_assert(std::is_same_v<decltype(pool.install([] { return 1; })), int>);
    CHECK(&pool.install(the_ref) == &the_int); // from outside: through the injector
    pool.install([&] { CHECK(&pool.install(the_ref) == &the_int); }); // inline, on a worker
}

TEST_CASE("join returns the closures' references, not copies", "[results]") {
    test::Pool pool(2);
    int other = 0;
    auto other_ref = [&]() -> int& { return other; };
    static_assert(std::is_same_v<decltype(mini::join(pool, the_ref, other_ref)),
                                 std::pair<int&, int&>>);
    static_assert(std::is_same_v<decltype(mini::join(pool, the_ref, [] { return 1; })),
                                 std::pair<int&, int>>);
    auto [a, b] = mini::join(pool, the_ref, other_ref);
    CHECK(&a == &the_int);
    CHECK(&b == &other);
    pool.install([&] { // B stolen or not: the same object either way
        auto [x, y] = mini::join(the_ref, other_ref);
        CHECK(&x == &the_int);
        CHECK(&y == &other);
    });
}

TEST_CASE("a scope body's reference comes back as that reference", "[results]") {
    test::Pool pool(2);
    static_assert(std::is_same_v<decltype(pool.scope([](mini::Scope&) -> int& { return the_int; })),
                                 int&>);
    int& r = pool.scope([](mini::Scope& s) -> int& {
        s.spawn([](mini::Scope&) {});
        return the_int;
    });
    CHECK(&r == &the_int);
}
