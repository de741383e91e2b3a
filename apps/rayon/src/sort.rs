//! compare's sort rows (apps/compare/sort.hpp): rayon's own `par_sort` and `par_sort_unstable`,
//! inside `pool.install`.
use rayon::prelude::*;
use rayon::ThreadPool;
use std::time::Instant;

/// Sorts the `len` u64 at `values` in place: `par_sort` if `stable`, else `par_sort_unstable`.
///
/// # Safety
/// `pool` came from `rayon_side_pool_new` and is not freed meanwhile; `values` points to `len`
/// writable `u64` that nobody else touches meanwhile.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_sort_u64(
    pool: *const ThreadPool,
    values: *mut u64,
    len: usize,
    stable: bool,
) {
    let slice: &mut [u64] = if len == 0 {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(values, len)
    };
    (*pool).install(|| {
        if stable {
            slice.par_sort()
        } else {
            slice.par_sort_unstable()
        }
    });
}

/// FNV-1a over the strings in order, each string's bytes then 0xff: `checksum` in
/// apps/compare/sort.hpp computes the same.
fn checksum(v: &[String]) -> u64 {
    let mut h: u64 = 14695981039346656037;
    for s in v {
        for &c in s.as_bytes() {
            h = (h ^ u64::from(c)).wrapping_mul(1099511628211);
        }
        h = (h ^ 0xff).wrapping_mul(1099511628211);
    }
    h
}

/// Makes one String of decimal digits per seed (off the clock), sorts them (`par_sort` if
/// `stable`, else `par_sort_unstable`), stores the sort's seconds in `*secs` and returns the
/// sorted strings' checksum.
///
/// # Safety
/// `pool` as above; `seeds` points to `len` readable `u64`; `secs` is writable.
#[no_mangle]
pub unsafe extern "C" fn rayon_side_sort_strings(
    pool: *const ThreadPool,
    seeds: *const u64,
    len: usize,
    stable: bool,
    secs: *mut f64,
) -> u64 {
    let mut v: Vec<String> = super::slice_of(seeds, len).iter().map(|x| x.to_string()).collect();
    let t0 = Instant::now();
    (*pool).install(|| {
        if stable {
            v.par_sort()
        } else {
            v.par_sort_unstable()
        }
    });
    *secs = t0.elapsed().as_secs_f64();
    checksum(&v)
}
