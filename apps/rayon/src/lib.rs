//! rayon itself, behind a C ABI, so that the drivers `splits` and `compare` print rayon's figures
//! beside the workbook's from the same process (chapters 4 and 6). Declared for C++ in
//! `../rayon.h`; built by `cmake/Rayon.cmake`.
//!
//! Nothing unwinds across the boundary: both profiles set `panic = "abort"` (Cargo.toml), so a
//! panic prints its message and aborts the whole process. A pool is handed to C++ as an opaque
//! pointer (`Box<ThreadPool>`); it is only ever read through a shared reference.
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::os::raw::{c_char, c_uint};
use std::sync::atomic::{AtomicU64, Ordering};

mod sort; // compare's sort rows
mod hurts; // the driver hurts (chapter 17)
/// rayon-demo's programs, for the driver `demos` (apps/demos.cpp).
pub mod demos;

/// The leaf of `fib`: the C++ driver passes `app::fib_leaf` itself, so that rayon and the
/// workbook run the very same leaves and only the runtimes differ.
pub type FibLeaf = extern "C" fn(c_uint) -> u64;

/// The rayon crates this library was built against, as a C string with static lifetime.
/// Cargo.lock pins them, and cmake/Rayon.cmake builds with `--locked`, so they cannot drift.
#[no_mangle]
pub extern "C" fn rayon_side_version() -> *const c_char {
    b"rayon 1.6.1, rayon-core 1.10.1\0".as_ptr().cast()
}

/// Builds rayon's global pool with `threads` threads (`ThreadPoolBuilder::build_global`). The
/// global pool can be built once per process: returns true if it has `threads` threads now,
/// false if it already existed with another count or a thread could not be started.
#[no_mangle]
pub extern "C" fn rayon_side_init_global(threads: usize) -> bool {
    let _ = ThreadPoolBuilder::new().num_threads(threads).build_global();
    // From a thread outside every pool, this is the global pool's thread count.
    rayon::current_num_threads() == threads
}

/// A new `ThreadPool` of `threads` threads, or null if a thread could not be started.
/// Free it with `rayon_side_pool_free`.
#[no_mangle]
pub extern "C" fn rayon_side_pool_new(threads: usize) -> *mut ThreadPool {
    match ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => Box::into_raw(Box::new(pool)),
        Err(_) => std::ptr::null_mut(),
    }
}

/// Frees a pool made by `rayon_side_pool_new` (null is ignored). Its threads finish on their
/// own after the pool is dropped; nothing may use the pointer afterwards.
///
/// # Safety
/// `pool` is null or came from `rayon_side_pool_new` and was not freed before.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_pool_free(pool: *mut ThreadPool) {
    if !pool.is_null() {
        drop(Box::from_raw(pool));
    }
}

/// `work` iterations of an empty loop, like `busy` in apps/splits.cpp (`asm volatile("")`):
/// the empty asm block is opaque to the optimiser, so the loop stays.
#[inline]
fn busy(work: usize) {
    for _ in 0..work {
        unsafe { std::arch::asm!("", options(nostack, preserves_flags)) };
    }
}

/// The leaves of one `(0..len).into_par_iter()`: `fold` calls its identity exactly once per
/// sequential leaf (`FoldConsumer::into_folder` in rayon's src/iter/fold.rs, called by
/// `bridge_producer_consumer` once per piece it stops splitting), so an identity of 1 summed over
/// the leaves counts them. The range's `min_len` is 1, as in the workbook's `bridge`. The
/// identity also marks the thread it runs on (bit 63: no worker), so that the second value, how
/// many threads ran leaves, tells whether a steal moved leaves to a second thread, which changes
/// the count.
fn leaves(len: usize, work: usize) -> (usize, usize) {
    let ran_on = AtomicU64::new(0);
    let n = (0..len)
        .into_par_iter()
        .fold(
            || {
                let bit = rayon::current_thread_index().map_or(63, |i| i.min(63));
                ran_on.fetch_or(1 << bit, Ordering::Relaxed);
                1usize
            },
            |leaf, _| {
                busy(work);
                leaf
            },
        )
        .sum();
    (n, ran_on.load(Ordering::Relaxed).count_ones() as usize)
}

/// The leaves of one `v.par_iter()` over a slice, counted as `splits` counts mini's
/// `par_iter(v)`: every item maps to 0 and `reduce`'s identity, 1, runs once per sequential leaf
/// (`ReduceConsumer::into_folder` in rayon's src/iter/reduce.rs). The identity marks its thread as
/// in `leaves`.
fn par_iter_leaves(slice: &[u64], work: usize) -> (usize, usize) {
    let ran_on = AtomicU64::new(0);
    let n = slice
        .par_iter()
        .map(|_| {
            busy(work);
            0usize
        })
        .reduce(
            || {
                let bit = rayon::current_thread_index().map_or(63, |i| i.min(63));
                ran_on.fetch_or(1 << bit, Ordering::Relaxed);
                1usize
            },
            |a, b| a + b,
        );
    (n, ran_on.load(Ordering::Relaxed).count_ones() as usize)
}

unsafe fn slice_of<'a>(values: *const u64, len: usize) -> &'a [u64] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(values, len)
    }
}

/// `par_iter` leaf count over `len` values, from outside every pool (the global pool) if `pool`
/// is null, else inside `pool.install`. Stores in `*threads` how many threads ran leaves.
///
/// # Safety
/// `pool` is null or as above; `values` points to `len` readable `u64`; `threads` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_par_iter_leaves(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    work: usize,
    threads: *mut usize,
) -> usize {
    let slice = slice_of(values, len);
    let (n, t) = if pool.is_null() {
        par_iter_leaves(slice, work)
    } else {
        (*pool).install(|| par_iter_leaves(slice, work))
    };
    *threads = t;
    n
}

/// Leaf count from outside every pool: the calling thread is no worker, so the bridge's first
/// join is injected into rayon's global pool (build it first with `rayon_side_init_global`).
/// `work`: iterations of busy work per item. Stores in `*threads` how many threads ran leaves.
///
/// # Safety
/// `threads` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_leaves_outside(
    len: usize,
    work: usize,
    threads: *mut usize,
) -> usize {
    let (n, t) = leaves(len, work);
    *threads = t;
    n
}

/// Leaf count inside `pool.install`: the bridge starts on one of the pool's workers. Stores in
/// `*threads` how many threads ran leaves.
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile; `threads` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_leaves_inside(
    pool: *const ThreadPool,
    len: usize,
    work: usize,
    threads: *mut usize,
) -> usize {
    let (n, t) = (*pool).install(|| leaves(len, work));
    *threads = t;
    n
}

/// fib(n) with `rayon::join`, the shape of `app::fib` (apps/fib.hpp): fib(n - 1) is A, run here,
/// fib(n - 2) is B, offered to thieves. Returns the value and the number of joins made.
// ANCHOR: fib
fn fib(n: c_uint, cutoff: c_uint, leaf: FibLeaf) -> (u64, u64) {
    if n <= cutoff || n < 2 {
        return (leaf(n), 0);
    }
    let ((a, ja), (b, jb)) = rayon::join(|| fib(n - 1, cutoff, leaf), || fib(n - 2, cutoff, leaf));
    (a + b, 1 + ja + jb)
}
// ANCHOR_END: fib

/// fib(n) with cutoff `cutoff`, inside `pool.install`, every leaf a call of `leaf`. Stores the
/// number of joins it made in `*joins` (one per call above the cutoff, as `app::joins_of`).
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile; `joins` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_fib(
    pool: *const ThreadPool,
    n: c_uint,
    cutoff: c_uint,
    leaf: FibLeaf,
    joins: *mut u64,
) -> u64 {
    let (value, j) = (*pool).install(|| fib(n, cutoff, leaf));
    *joins = j;
    value
}

/// The sum of `len` values with `par_iter().sum()`, inside `pool.install` (wrapping on overflow,
/// as in a release build of Rust).
///
/// # Safety
/// `pool` as above; `values` points to `len` readable `u64` that nobody writes meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_sum(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
) -> u64 {
    let slice: &[u64] = if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(values, len)
    };
    (*pool).install(|| slice.par_iter().sum())
}

/// One wake-up round trip, as `trip_mini` in apps/compare/on_mini.hpp: the calling thread (outside the
/// pool) installs a trivial job and blocks until a worker has run it. Returns 1, computed by
/// the job on the worker, so the caller can count the jobs that ran.
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_trip(pool: *const ThreadPool) -> u64 {
    (*pool).install(|| 1)
}

// ---- compare's iterator rows (apps/compare/iter.hpp): rayon's own par_iter, inside install ----

/// `v.par_iter().map(|x| x * x).sum()`, wrapping on overflow as in a release build.
///
/// # Safety
/// `pool` as above; `values` points to `len` readable `u64` that nobody writes meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_sum_squares(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
) -> u64 {
    let slice = slice_of(values, len);
    (*pool).install(|| slice.par_iter().map(|&x| x.wrapping_mul(x)).sum())
}

/// `v.par_iter().map(|x| x * x).collect::<Vec<u64>>()`; the Vec is handed to C++ as its raw
/// parts (returns the pointer, stores the length and capacity), to be given back to
/// `rayon_side_vec_free`, so that the timing ends when collect returns, as mini's does.
///
/// # Safety
/// As `rayon_side_sum_squares`; `out_len` and `out_cap` are writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_collect_squares(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    out_len: *mut usize,
    out_cap: *mut usize,
) -> *mut u64 {
    let slice = slice_of(values, len);
    let v: Vec<u64> = (*pool).install(|| slice.par_iter().map(|&x| x.wrapping_mul(x)).collect());
    let mut v = std::mem::ManuallyDrop::new(v);
    *out_len = v.len();
    *out_cap = v.capacity();
    v.as_mut_ptr()
}

/// Frees what `rayon_side_collect_squares` returned.
///
/// # Safety
/// The three values are the ones it returned and stored, and this is called once.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_vec_free(ptr: *mut u64, len: usize, cap: usize) {
    drop(Vec::from_raw_parts(ptr, len, cap));
}

/// `v.par_iter().find_any(|&&x| x == target)`: true and the item in `*found`, or false.
///
/// # Safety
/// As `rayon_side_sum_squares`; `found` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_find_any(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    target: u64,
    found: *mut u64,
) -> bool {
    let slice = slice_of(values, len);
    match (*pool).install(|| slice.par_iter().find_any(|&&x| x == target)) {
        Some(&x) => {
            *found = x;
            true
        }
        None => false,
    }
}

// ---- compare's indexed rows (apps/compare/indexed.hpp): zip, par_chunks_mut, find_first ----

/// `a.par_iter().zip(b).map(|(x, y)| x * y).sum()` over `len` f64 each.
///
/// # Safety
/// `pool` as above; `a` and `b` each point to `len` readable f64 that nobody writes meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_dot(
    pool: *const ThreadPool,
    a: *const f64,
    b: *const f64,
    len: usize,
) -> f64 {
    if len == 0 {
        return 0.0;
    }
    let (a, b) = (std::slice::from_raw_parts(a, len), std::slice::from_raw_parts(b, len));
    (*pool).install(|| a.par_iter().zip(b).map(|(x, y)| x * y).sum())
}

/// The escape count of one pixel, at most 255 steps: the very operations of `escape` in
/// apps/compare/mandelbrot.hpp, in the same order, so that both sides count alike.
fn escape(cr: f64, ci: f64) -> u32 {
    let (mut zr, mut zi) = (0.0f64, 0.0f64);
    let mut k = 0;
    while k < 255 {
        let (zr2, zi2) = (zr * zr, zi * zi);
        if zr2 + zi2 > 4.0 {
            break;
        }
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        k += 1;
    }
    k
}

/// The Mandelbrot strip of `height` rows of `width` pixels (re in [-2, 1], im in [-1, 1]):
/// `img.par_chunks_mut(width).enumerate().for_each(...)`, each chunk one row.
///
/// # Safety
/// `pool` as above; `img` points to `width * height` writable u32 that nobody else touches.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_mandelbrot(
    pool: *const ThreadPool,
    img: *mut u32,
    width: usize,
    height: usize,
) {
    if width == 0 || height == 0 {
        return;
    }
    let img = std::slice::from_raw_parts_mut(img, width * height);
    (*pool).install(|| {
        img.par_chunks_mut(width).enumerate().for_each(|(y, row)| {
            let ci = -1.0 + (y as f64) * (2.0 / height as f64);
            for (x, p) in row.iter_mut().enumerate() {
                *p = escape(-2.0 + (x as f64) * (3.0 / width as f64), ci);
            }
        })
    });
}

/// `v.par_iter().find_first(|&&x| x == target)`: true and the item in `*found`, or false.
///
/// # Safety
/// As `rayon_side_sum_squares`; `found` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_find_first(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    target: u64,
    found: *mut u64,
) -> bool {
    let slice = slice_of(values, len);
    match (*pool).install(|| slice.par_iter().find_first(|&&x| x == target)) {
        Some(&x) => {
            *found = x;
            true
        }
        None => false,
    }
}

/// Word count: `values` read as word ids `x % 4096`, counted into a `HashMap` per leaf by
/// `fold`, the maps merged by `reduce`. Returns the sum of id * count plus the number of ids
/// times 2^32 (wrapping), the check value both columns compute.
///
/// # Safety
/// `pool` is a live pool from `rayon_side_pool_new`; `values` points to `len` readable u64.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_word_count(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
) -> u64 {
    use std::collections::HashMap;
    let slice = slice_of(values, len);
    let counts: HashMap<u64, u64> = (*pool).install(|| {
        slice
            .par_iter()
            .fold(HashMap::new, |mut m: HashMap<u64, u64>, &x| {
                *m.entry(x % 4096).or_insert(0) += 1;
                m
            })
            .reduce(HashMap::new, |mut a, b| {
                for (k, c) in b {
                    *a.entry(k).or_insert(0) += c;
                }
                a
            })
    });
    let mut s = (counts.len() as u64).wrapping_shl(32);
    for (k, c) in counts {
        s = s.wrapping_add(k.wrapping_mul(c));
    }
    s
}

/// `filter_map` keeping the squares of the multiples of 3, collected into a `Vec` (the list of
/// per-leaf vectors, then one append): returns the wrapping sum of the vector plus its length.
///
/// # Safety
/// As `rayon_side_word_count`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_filter_map(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
) -> u64 {
    let slice = slice_of(values, len);
    let v: Vec<u64> = (*pool).install(|| {
        slice
            .par_iter()
            .filter_map(|&x| if x % 3 == 0 { Some(x.wrapping_mul(x)) } else { None })
            .collect()
    });
    v.iter().fold(v.len() as u64, |s, &x| s.wrapping_add(x))
}

/// `try_for_each` that fails at the item equal to `target`: returns the error's value (0 if none).
///
/// # Safety
/// As `rayon_side_word_count`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_try_for_each(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    target: u64,
) -> u64 {
    let slice = slice_of(values, len);
    let r = (*pool).install(|| {
        slice
            .par_iter()
            .try_for_each(|&x| if x == target { Err(x) } else { Ok(()) })
    });
    r.err().unwrap_or(0)
}

/// `(1..=n).par_bridge().map(|x| x * x).sum()`: the sequential range shared under one lock.
///
/// # Safety
/// `pool` is a live pool from `rayon_side_pool_new`.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_par_bridge(pool: *const ThreadPool, n: u64) -> u64 {
    (*pool).install(|| {
        (1..=n)
            .par_bridge()
            .map(|x| x.wrapping_mul(x))
            .reduce(|| 0, |a, b| a.wrapping_add(b))
    })
}
