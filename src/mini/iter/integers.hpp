// The integer types a range can have: the standard ones, and the two 128-bit ones that rayon's
// Range<i128> and Range<u128> have. In strict C++20 (no GNU extensions) std::integral,
// std::is_signed and std::make_unsigned know nothing of __int128, so the ranges ask here.
#pragma once

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace mini::iter {

__extension__ using u128 = unsigned __int128;
__extension__ using i128 = __int128;

template <class I>
concept wide_integer = std::same_as<I, u128> || std::same_as<I, i128>;
template <class I>
concept range_integer = std::integral<I> || wide_integer<I>;

// I's unsigned type: the arithmetic of a range's offsets, which wraps instead of overflowing.
template <class I>
struct unsigned_of_t { using type = std::make_unsigned_t<I>; };
template <wide_integer I>
struct unsigned_of_t<I> { using type = u128; };
template <range_integer I>
using unsigned_of = typename unsigned_of_t<I>::type;

template <range_integer I>
constexpr bool is_signed_integer = std::same_as<I, i128> || std::is_signed_v<I>;

// par_range's `int` bound as an I, or std::out_of_range when I cannot hold it.
template <range_integer I>
I exact_cast(int from) {
    bool fits = true;
    if constexpr (wide_integer<I>) fits = is_signed_integer<I> || from >= 0;
    else fits = std::in_range<I>(from);
    if (!fits)
        throw std::out_of_range("mini::par_range: the bound " + std::to_string(from) +
                                " does not fit in the other bound's type; cast both bounds");
    return static_cast<I>(from);
}
// par_range's other bound: already an I.
template <range_integer I, range_integer From>
    requires(!std::same_as<From, int>)
I exact_cast(From from) { return from; }

} // namespace mini::iter
