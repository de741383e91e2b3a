//! nbody, as apps/demos/nbody.hpp: a flock of N bodies, O(N^2) a tick, in two buffers.
//! `tick_par`: the outer loop `par_iter_mut().zip()`, each body's sum serial (bit for bit the
//! serial result); `tick_par_reduce`: the inner sum `par_iter().map().reduce()` too.
use super::XorShift;
use rayon::prelude::*;
use std::ops::{Add, Mul, Sub};

#[derive(Clone, Copy, Default)]
pub struct Vec3 {
    x: f64,
    y: f64,
    z: f64,
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}
impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
}
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3 { x: self.x * k, y: self.y * k, z: self.z * k }
    }
}
impl Vec3 {
    fn dot(self, o: Vec3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
}

#[derive(Clone, Copy, Default)]
pub struct Body {
    position: Vec3,
    velocity: Vec3,
    velocity2: Vec3, // the velocity of the tick before
}

/// Bodies at random spherical coordinates (r < 10,000), with two random velocities.
pub fn bodies(n: usize) -> Vec<Body> {
    let mut rng = XorShift::new();
    let velocity = |rng: &mut XorShift| Vec3 {
        x: rng.next_f64() * 10.0 - 5.0,
        y: rng.next_f64() * 10.0 - 5.0,
        z: rng.next_f64() * 10.0 - 5.0,
    };
    (0..n)
        .map(|_| {
            let r = rng.next_f64() * 10_000.0;
            let theta = rng.next_f64() * std::f64::consts::PI;
            let phi = rng.next_f64() * 2.0 * std::f64::consts::PI;
            let position = Vec3 {
                x: r * theta.sin() * phi.cos(),
                y: r * theta.sin() * phi.sin(),
                z: r * theta.cos(),
            };
            let v = velocity(&mut rng);
            Body { position, velocity: v, velocity2: velocity(&mut rng) }
        })
        .collect()
}

struct Zones {
    repel2: f64,
    align2: f64,
    attract2: f64,
}

fn zones(time: usize) -> Zones {
    let z = |a: f64, b: f64, c: f64| Zones { repel2: a * a, align2: b * b, attract2: c * c };
    if time < 200 {
        z(100.0, 400.0, 1000.0)
    } else if time < 500 {
        z(200.0, 800.0, 2000.0)
    } else {
        z(50.0, 300.0, 3000.0)
    }
}

/// What body `other` adds to `me`'s change of velocity; the outer zone first, as in
/// apps/demos/nbody.hpp.
// ANCHOR: pull
fn pull(me: &Body, other: &Body, z: &Zones) -> Vec3 {
    let d = other.position - me.position;
    let dist2 = d.dot(d);
    if dist2 >= z.attract2 || dist2 == 0.0 {
        Vec3::default() // out of every zone, or itself
    } else if dist2 < z.repel2 {
        d * (-1.0 / dist2)
    } else if dist2 < z.align2 {
        ((other.velocity + other.velocity2) * 0.5 - me.velocity) * 1e-4
    } else {
        d * (1e-2 / dist2)
    }
}
// ANCHOR_END: pull

/// The body's next state from its change of velocity `dv` (the sum of every pull).
fn moved(me: &Body, dv: Vec3, time: usize) -> Body {
    let t = time as f64;
    let centre = Vec3 { x: (t / 30.0).cos() * 3000.0, y: (t / 40.0).sin() * 3000.0, z: (t / 50.0).cos() * 1000.0 };
    let v = (me.velocity + (centre - me.position) * 1e-5 + dv) * 0.99;
    Body { position: me.position + v, velocity: v, velocity2: me.velocity }
}

fn serial_dv(me: &Body, all: &[Body], z: &Zones) -> Vec3 {
    all.iter().fold(Vec3::default(), |dv, other| dv + pull(me, other, z))
}

pub fn tick_serial(input: &[Body], out: &mut [Body], time: usize) {
    let z = zones(time);
    for (next, me) in out.iter_mut().zip(input) {
        *next = moved(me, serial_dv(me, input, &z), time);
    }
}

// ANCHOR: tick_par
pub fn tick_par(input: &[Body], out: &mut [Body], time: usize) {
    let z = zones(time);
    out.par_iter_mut().zip(input).for_each(|(next, me)| {
        *next = moved(me, serial_dv(me, input, &z), time);
    });
}
// ANCHOR_END: tick_par

// ANCHOR: tick_par_reduce
pub fn tick_par_reduce(input: &[Body], out: &mut [Body], time: usize) {
    let z = zones(time);
    out.par_iter_mut().zip(input).for_each(|(next, me)| {
        let dv = input.par_iter().map(|other| pull(me, other, &z)).reduce(Vec3::default, |a, b| a + b);
        *next = moved(me, dv, time);
    });
}
// ANCHOR_END: tick_par_reduce

/// `ticks` ticks by `tick` over two buffers; the bodies after the last one, and the seconds.
pub fn run(mut a: Vec<Body>, ticks: usize, tick: fn(&[Body], &mut [Body], usize)) -> (Vec<Body>, f64) {
    let mut b = vec![Body::default(); a.len()];
    let t0 = std::time::Instant::now();
    for t in 0..ticks {
        if t % 2 == 0 {
            tick(&a, &mut b, t);
        } else {
            tick(&b, &mut a, t);
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    (if ticks % 2 == 0 { a } else { b }, secs)
}

pub fn fingerprint_of(b: &[Body]) -> u64 {
    let words: Vec<u64> = b
        .iter()
        .flat_map(|body| {
            let (p, v) = (body.position, body.velocity);
            [p.x, p.y, p.z, v.x, v.y, v.z]
        })
        .map(f64::to_bits)
        .collect();
    super::fingerprint(&words)
}

/// The bodies of `got` within a relative 1e-9 of `want`'s positions.
pub fn matching(got: &[Body], want: &[Body]) -> u64 {
    got.iter()
        .zip(want)
        .filter(|(g, w)| {
            let d = g.position - w.position;
            d.dot(d) <= 1e-18 * w.position.dot(w.position)
        })
        .count() as u64
}
