//! The driver `hurts` (apps/hurts.cpp, chapter 17): rayon's side of `hurts small`, the sum of
//! squares over small inputs, timed inside the pool so that only the call itself is measured.
//! Declared for C++ in apps/hurts/rayon_hurts.h.
use rayon::prelude::*;
use rayon::ThreadPool;
use std::time::Instant;

/// `reps` calls of `v.par_iter().with_min_len(min_len).map(|x| x * x).sum()`, one after the
/// other inside one `install`; returns the seconds per call and stores the last sum in
/// `*result` (the sums are kept, so that no call can be left out by the optimiser).
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile; `values` points to `len`
/// readable `u64` that nobody writes meanwhile; `result` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_hurts_sum_squares(
    pool: *const ThreadPool,
    values: *const u64,
    len: usize,
    min_len: usize,
    reps: usize,
    result: *mut u64,
) -> f64 {
    let slice = crate::slice_of(values, len);
    let (secs, sum) = (*pool).install(|| {
        let t0 = Instant::now();
        let mut sum = 0u64;
        for _ in 0..reps {
            let s: u64 = slice
                .par_iter()
                .with_min_len(min_len.max(1))
                .map(|&x| x.wrapping_mul(x))
                .sum();
            sum = s;
        }
        (t0.elapsed().as_secs_f64(), sum)
    });
    *result = sum;
    secs / reps.max(1) as f64
}
