// The demos' inputs: one small random number generator, written the same way here and in Rust
// (apps/rayon/src/demos/mod.rs), so that the serial, mini and rayon columns of `demos` start from
// the very same numbers; and the fingerprint every program's result is compared by.
//
// The generator is Marsaglia's xorshift128, the algorithm of rayon-demo's `seeded_rng()`
// (rand_xorshift's XorShiftRng) with its seed 0, 1, ..., 15 read as four little-endian u32.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace demos {

// ANCHOR: xorshift
class XorShift {
public:
    constexpr std::uint32_t next_u32() {
        const std::uint32_t t = x_ ^ (x_ << 11);
        x_ = y_, y_ = z_, z_ = w_;
        w_ = w_ ^ (w_ >> 19) ^ (t ^ (t >> 8));
        return w_;
    }
    // ANCHOR_END: xorshift
    // Two u32, the first in the low half (rand_core's next_u64 from next_u32).
    constexpr std::uint64_t next_u64() {
        const std::uint64_t lo = next_u32();
        return std::uint64_t{next_u32()} << 32 | lo;
    }
    // A double in [0, 1): the top 53 bits of a u64.
    constexpr double next_f64() { return double(next_u64() >> 11) * 0x1.0p-53; }

private:
    std::uint32_t x_ = 0x03020100, y_ = 0x07060504, z_ = 0x0B0A0908, w_ = 0x0F0E0D0C;
};

// rand_xorshift's first three values from this seed (the reference's figures): the Rust copy
// must give the same, which the equal results of `demos` then show.
constexpr std::array<std::uint32_t, 3> first_three() {
    XorShift r;
    return {r.next_u32(), r.next_u32(), r.next_u32()};
}
static_assert(first_three() == std::array<std::uint32_t, 3>{471271404, 722341711, 1880555887});

// FNV-1a over 64-bit words: a result's fingerprint, which depends on every value and its place.
class Fingerprint {
public:
    constexpr void add(std::uint64_t v) { h_ = (h_ ^ v) * 0x100000001b3; }
    constexpr std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 0xcbf29ce484222325;
};

template <class T>
std::uint64_t fingerprint(std::span<const T> values) {
    Fingerprint f;
    for (const T& v : values) f.add(std::uint64_t(v));
    return f.value();
}

} // namespace demos
