// nbody (rayon-demo's nbody/, after Intel's RiverTrail demo): a flock of N bodies, O(N^2) a
// tick. Each body's new velocity is pulled towards a centre that moves with time, then summed
// over all N bodies by zone: pushed away from a body too close, turned towards the velocity of
// one a little farther (the mean of its last two), pulled towards one farther still; the zones
// change at ticks 200 and 500. Two buffers of bodies alternate: tick t reads one and writes the
// other.
//
// tick_par: the outer loop parallel (par_iter over the output bodies zipped with the input),
// each body's sum serial in the serial order: bit for bit the serial result. tick_par_reduce:
// the inner sum also parallel (map and reduce over all bodies): its additions are reassociated,
// so its bodies are compared with the serial ones within a relative 1e-9, and its result is the
// count of bodies that match (all of them). The bodies are made before the timer; the ticks are
// timed. The written model is this workbook's own, not a copy of the demo's constants.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <span>
#include <utility>
#include <vector>

#include <mini/par.hpp>

#include "demos/outcome.hpp"
#include "demos/rng.hpp"

namespace demos::nbody {

struct Size {
    std::size_t bodies = 1000, ticks = 10;
};

struct Vec3 {
    double x = 0, y = 0, z = 0;
    Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    Vec3 operator*(double k) const { return {x * k, y * k, z * k}; }
    double dot(Vec3 o) const { return x * o.x + y * o.y + z * o.z; }
};

struct Body {
    Vec3 position, velocity, velocity2; // velocity2: the velocity of the tick before
};

// Bodies at random spherical coordinates (r < 10,000), with two random velocities.
inline std::vector<Body> bodies(std::size_t n) {
    XorShift rng;
    std::vector<Body> b(n);
    auto velocity = [&] {
        return Vec3{rng.next_f64() * 10 - 5, rng.next_f64() * 10 - 5, rng.next_f64() * 10 - 5};
    };
    for (Body& body : b) {
        const double r = rng.next_f64() * 10'000, theta = rng.next_f64() * std::numbers::pi,
                     phi = rng.next_f64() * 2 * std::numbers::pi;
        body.position = {r * std::sin(theta) * std::cos(phi), r * std::sin(theta) * std::sin(phi),
                         r * std::cos(theta)};
        body.velocity = velocity(), body.velocity2 = velocity();
    }
    return b;
}

// The zones' radii squared and the strength of each, by tick.
struct Zones {
    double repel2, align2, attract2;
};
inline Zones zones(std::size_t time) {
    if (time < 200) return {100 * 100, 400 * 400, 1000 * 1000};
    if (time < 500) return {200 * 200, 800 * 800, 2000 * 2000};
    return {50 * 50, 300 * 300, 3000 * 3000};
}

// What body `other` adds to `self`'s change of velocity. The test of the outer zone comes first,
// as in rayon-demo's nbody: 98 pulls in 100 are beyond it and leave after that one test.
// ANCHOR: pull
inline Vec3 pull(const Body& self, const Body& other, const Zones& z) {
    const Vec3 d = other.position - self.position;
    const double dist2 = d.dot(d);
    if (dist2 >= z.attract2 || dist2 == 0) return {}; // out of every zone, or itself
    if (dist2 < z.repel2) return d * (-1.0 / dist2);
    if (dist2 < z.align2) return ((other.velocity + other.velocity2) * 0.5 - self.velocity) * 1e-4;
    return d * (1e-2 / dist2);
}
// ANCHOR_END: pull

// The body's next state from its change of velocity `dv` (the sum of every pull).
inline Body moved(const Body& self, Vec3 dv, std::size_t time) {
    const double t = double(time);
    const Vec3 centre{std::cos(t / 30) * 3000, std::sin(t / 40) * 3000, std::cos(t / 50) * 1000};
    const Vec3 v = (self.velocity + (centre - self.position) * 1e-5 + dv) * 0.99;
    return {self.position + v, v, self.velocity};
}

inline Vec3 serial_dv(const Body& self, std::span<const Body> all, const Zones& z) {
    Vec3 dv;
    for (const Body& other : all) dv = dv + pull(self, other, z);
    return dv;
}

inline void tick_serial(std::span<const Body> in, std::span<Body> out, std::size_t time) {
    const Zones z = zones(time);
    for (std::size_t i = 0; i < in.size(); ++i)
        out[i] = moved(in[i], serial_dv(in[i], in, z), time);
}

// ANCHOR: tick_par
inline void tick_par(std::span<const Body> in, std::span<Body> out, std::size_t time) {
    const Zones z = zones(time);
    mini::par_iter(out).zip(mini::par_iter(in)).for_each([&](auto pair) {
        auto& [next, self] = pair;
        next = moved(self, serial_dv(self, in, z), time);
    });
}
// ANCHOR_END: tick_par

// ANCHOR: tick_par_reduce
inline void tick_par_reduce(std::span<const Body> in, std::span<Body> out, std::size_t time) {
    const Zones z = zones(time);
    mini::par_iter(out).zip(mini::par_iter(in)).for_each([&](auto pair) {
        Body& next = pair.first; // not a structured binding: clang 14 cannot capture one
        const Body& self = pair.second;
        const Vec3 dv = mini::par_iter(in)
                            .map([&](const Body& other) { return pull(self, other, z); })
                            .reduce([] { return Vec3{}; }, [](Vec3 a, Vec3 b) { return a + b; });
        next = moved(self, dv, time);
    });
}
// ANCHOR_END: tick_par_reduce

// `ticks` ticks by `tick` over two buffers; the bodies after the last one.
template <class Tick>
std::vector<Body> run(std::vector<Body> a, std::size_t ticks, Tick tick, double& secs) {
    std::vector<Body> b(a.size());
    secs = seconds_of([&] {
        for (std::size_t t = 0; t < ticks; ++t) t % 2 == 0 ? tick(a, b, t) : tick(b, a, t);
    });
    return ticks % 2 == 0 ? a : b;
}

inline std::uint64_t fingerprint_of(const std::vector<Body>& b) {
    Fingerprint f;
    for (const Body& body : b)
        for (double v : {body.position.x, body.position.y, body.position.z, body.velocity.x,
                         body.velocity.y, body.velocity.z})
            f.add(std::bit_cast<std::uint64_t>(v));
    return f.value();
}

// The bodies of `got` within a relative 1e-9 of `want`'s positions.
inline std::uint64_t matching(const std::vector<Body>& got, const std::vector<Body>& want) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const Vec3 d = got[i].position - want[i].position;
        n += d.dot(d) <= 1e-18 * want[i].position.dot(want[i].position);
    }
    return n;
}

enum class Mode { par, par_reduce };

inline Outcome serial(Size s, Mode mode) {
    double secs = 0;
    const auto done = run(bodies(s.bodies), s.ticks, tick_serial, secs);
    return {secs, mode == Mode::par ? fingerprint_of(done) : done.size(), true};
}

inline Outcome on_mini(mini::ThreadPool& pool, Size s, Mode mode) {
    double secs = 0;
    std::vector<Body> done;
    pool.install([&] {
        done = mode == Mode::par ? run(bodies(s.bodies), s.ticks, tick_par, secs)
                                 : run(bodies(s.bodies), s.ticks, tick_par_reduce, secs);
    });
    if (mode == Mode::par) return {secs, fingerprint_of(done), true};
    double unused = 0;
    const std::uint64_t n = matching(done, run(bodies(s.bodies), s.ticks, tick_serial, unused));
    return {secs, n, n == done.size()};
}

} // namespace demos::nbody
