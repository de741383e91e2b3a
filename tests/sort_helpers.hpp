// What the sort tests share: seeded inputs, the permutation check that names the value whose count
// differs, and Tracked, an element that counts its constructions and destructions.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace test {

// n values in [0, modulus), from a seeded generator: every run sorts the same inputs.
inline std::vector<std::uint64_t> random_values(std::size_t n, std::uint64_t modulus, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint64_t> dist(0, modulus - 1);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = dist(rng);
    return v;
}

// "" if `output` holds the same multiset as `input`; else the first value (in order) whose count
// differs, and both counts: what a sort that loses or duplicates elements gets wrong.
template <class T, class Show>
std::string count_difference(std::vector<T> input, std::vector<T> output, Show show) {
    std::sort(input.begin(), input.end());
    std::sort(output.begin(), output.end());
    auto i = input.begin(), o = output.begin();
    while (i != input.end() || o != output.end()) { // walk both, one value at a time
        const T& value = i == input.end() ? *o : o == output.end() ? *i : std::min(*i, *o);
        const auto in = std::upper_bound(i, input.end(), value), out = std::upper_bound(o, output.end(), value);
        if (in - i != out - o) {
            std::ostringstream text;
            text << "value " << show(value) << ": " << (in - i) << " in the input, " << (out - o)
                 << " in the output";
            return text.str();
        }
        i = in, o = out;
    }
    return "";
}

template <class T>
std::string count_difference(const std::vector<T>& input, const std::vector<T>& output) {
    return count_difference(input, output, [](const T& x) -> const T& { return x; });
}

// An element whose every construction and destruction is counted. `owns` says whether it holds a
// value (a moved-from shell does not): a value's destruction is counted per id, as rayon's
// DROP_COUNTS, so once the vector is gone each id must have been destroyed exactly once (none:
// lost; two: destroyed twice), and as many elements destroyed as constructed (shells included:
// nothing leaked in the buffer). A sort must never compare a shell nor overwrite a value (`bad`).
struct Tracked {
    static constexpr std::uint32_t alive = 0xA11CE, dead = 0xDEAD;
    static constexpr std::size_t max_ids = 20000;
    static inline std::atomic<std::int64_t> constructed{0}, destroyed{0}, bad{0};
    static inline std::array<std::atomic<std::uint32_t>, max_ids> value_drops{};
    std::uint32_t x = 0;
    std::uint32_t id = 0;
    bool owns = true;
    std::uint32_t magic = alive;

    Tracked(std::uint32_t x_, std::uint32_t id_) : x(x_), id(id_) { ++constructed; }
    Tracked(Tracked&& o) noexcept : x(o.x), id(o.id), owns(std::exchange(o.owns, false)) {
        if (o.magic != alive) ++bad;
        ++constructed;
    }
    Tracked& operator=(Tracked&& o) noexcept {
        if (magic != alive || o.magic != alive || owns) ++bad; // `owns`: a value overwritten, lost
        x = o.x, id = o.id, owns = std::exchange(o.owns, false);
        return *this;
    }
    Tracked(const Tracked& o) : x(o.x), id(o.id), owns(o.owns) { ++constructed; }
    Tracked& operator=(const Tracked&) = delete;
    ~Tracked() {
        if (magic != alive) ++bad;
        if (owns) ++value_drops[id];
        magic = dead;
        ++destroyed;
    }
    static void reset() {
        constructed = 0, destroyed = 0, bad = 0;
        for (auto& d : value_drops) d = 0;
    }
    // How many of ids 0..n-1 were destroyed other than exactly once, and whether any id >= n was.
    static std::size_t drops_not_once(std::size_t n) {
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < max_ids; ++i) wrong += value_drops[i] != (i < n ? 1u : 0u);
        return wrong;
    }
};

} // namespace test
