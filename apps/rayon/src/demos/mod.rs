//! rayon-demo's programs, written on rayon 1.6.1 from what each one computes (not copied from
//! rayon-demo), beside the same programs written on the workbook's API in C++ (apps/demos/).
//! The driver `demos` (apps/demos.cpp) calls them through the C ABI below (declared in
//! `../../rayon.h`): each function makes its input from the same generator as the C++ side,
//! times the parallel part inside `pool.install`, and returns the time, the result and the
//! program's own check, as `demos::Outcome` in C++.
use rayon::ThreadPool;
use std::time::Instant;

mod life;
mod mergesort;
mod nbody;
mod pythagoras;
mod quicksort;
mod sieve;

/// Marsaglia's xorshift128 with rayon-demo's seed (0, 1, ..., 15 as four little-endian u32):
/// the same numbers as `demos::XorShift` in apps/demos/rng.hpp.
pub struct XorShift {
    x: u32,
    y: u32,
    z: u32,
    w: u32,
}

impl XorShift {
    pub fn new() -> Self {
        XorShift { x: 0x0302_0100, y: 0x0706_0504, z: 0x0B0A_0908, w: 0x0F0E_0D0C }
    }

    pub fn next_u32(&mut self) -> u32 {
        let t = self.x ^ (self.x << 11);
        self.x = self.y;
        self.y = self.z;
        self.z = self.w;
        self.w = self.w ^ (self.w >> 19) ^ (t ^ (t >> 8));
        self.w
    }

    /// Two u32, the first in the low half.
    pub fn next_u64(&mut self) -> u64 {
        let lo = u64::from(self.next_u32());
        (u64::from(self.next_u32()) << 32) | lo
    }

    /// A double in [0, 1): the top 53 bits of a u64.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// FNV-1a over 64-bit words, as `demos::fingerprint` in C++.
pub fn fingerprint<T: Copy + Into<u64>>(values: &[T]) -> u64 {
    values.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &v| (h ^ v.into()).wrapping_mul(0x1_0000_0001_b3))
}

/// One run of a program, as `demos::Outcome` (apps/demos/outcome.hpp).
#[repr(C)]
pub struct Outcome {
    pub secs: f64,
    pub result: u64,
    pub ok: bool,
}

/// The seconds that `f` takes inside `pool.install`.
fn timed_in(pool: &ThreadPool, f: impl FnOnce() + Send) -> f64 {
    let t0 = Instant::now();
    pool.install(f);
    t0.elapsed().as_secs_f64()
}

/// quicksort of `n` random u32 (quicksort.rs).
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_quicksort(pool: *const ThreadPool, n: usize) -> Outcome {
    let mut v = quicksort::input(n);
    let secs = timed_in(&*pool, || quicksort::quick_sort(&mut v));
    quicksort::sorted(secs, &v)
}

/// mergesort of `n` random u32 (mergesort.rs).
///
/// # Safety
/// As `rayon_side_demo_quicksort`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_mergesort(pool: *const ThreadPool, n: usize) -> Outcome {
    let mut v = quicksort::input(n);
    let secs = timed_in(&*pool, || mergesort::merge_sort(&mut v));
    quicksort::sorted(secs, &v)
}

/// pythagoras below `m_end` and `c_max`; `hint` 0 none, 1 faux serial, 2 full (pythagoras.rs).
///
/// # Safety
/// As `rayon_side_demo_quicksort`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_pythagoras(
    pool: *const ThreadPool,
    m_end: u32,
    c_max: u32,
    hint: u32,
) -> Outcome {
    let mut s = 0;
    let secs = timed_in(&*pool, || s = pythagoras::sum(m_end, c_max, hint));
    Outcome { secs, result: u64::from(s), ok: true }
}

/// life: `gens` generations of a random `rows` x `cols` board (life.rs).
///
/// # Safety
/// As `rayon_side_demo_quicksort`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_life(
    pool: *const ThreadPool,
    rows: usize,
    cols: usize,
    gens: usize,
) -> Outcome {
    let mut b = life::Board::random(rows, cols);
    let secs = timed_in(&*pool, || {
        for _ in 0..gens {
            b = b.next_parallel();
        }
    });
    Outcome { secs, result: fingerprint(&b.cells), ok: true }
}

/// nbody: `ticks` ticks of `bodies` bodies; `reduce` false: tick_par, its result the
/// fingerprint of the last bodies; true: tick_par_reduce, its result the count of bodies within
/// 1e-9 of the serial ones (computed here, after the timer) (nbody.rs).
///
/// # Safety
/// As `rayon_side_demo_quicksort`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_nbody(
    pool: *const ThreadPool,
    bodies: usize,
    ticks: usize,
    reduce: bool,
) -> Outcome {
    let tick = if reduce { nbody::tick_par_reduce } else { nbody::tick_par };
    let (done, secs) = (*pool).install(|| nbody::run(nbody::bodies(bodies), ticks, tick));
    if !reduce {
        return Outcome { secs, result: nbody::fingerprint_of(&done), ok: true };
    }
    let (want, _) = nbody::run(nbody::bodies(bodies), ticks, nbody::tick_serial);
    let n = nbody::matching(&done, &want);
    Outcome { secs, result: n, ok: n == done.len() as u64 }
}

/// sieve: the primes below 10^`magnitude`, counted after the timer and checked (sieve.rs).
///
/// # Safety
/// As `rayon_side_demo_quicksort`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_demo_sieve(pool: *const ThreadPool, magnitude: u32) -> Outcome {
    let max = 10usize.pow(magnitude);
    let mut s = Vec::new();
    let secs = timed_in(&*pool, || s = sieve::sieve_parallel(max));
    let n = 1 + s.iter().filter(|&&x| x == 1).count() as u64; // and 2
    Outcome { secs, result: n, ok: n == sieve::NUM_PRIMES[magnitude as usize] }
}
