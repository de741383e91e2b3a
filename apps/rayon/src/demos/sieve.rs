//! sieve, as apps/demos/sieve.hpp: the primes below `max` over odd numbers only (entry i stands
//! for 2i + 1); in parallel, the primes up to the square root first, then `par_chunks_mut` of
//! 100,000 entries, one job each.
use rayon::prelude::*;

const CHUNK_SIZE: usize = 100_000;

/// The number of primes below 10^k (OEIS A006880).
pub const NUM_PRIMES: [u64; 10] = [0, 4, 25, 168, 1229, 9592, 78498, 664579, 5761455, 50847534];

/// The odd numbers below max: entry i is 1 if 2i + 1 is prime.
fn sieve_serial(max: usize) -> Vec<u8> {
    let mut s = vec![1u8; max / 2];
    s[0] = 0; // 1 is not prime
    let mut p = 3;
    while p * p < max {
        if s[p / 2] == 1 {
            let mut m = p * p;
            while m < max {
                s[m / 2] = 0;
                m += 2 * p;
            }
        }
        p += 2;
    }
    s
}

/// Clears in `chunk` (entries base, base + 1, ...) the odd multiples of every prime in `low`.
fn update_chunk(low: &[u8], chunk: &mut [u8], base: usize) {
    let (first, end) = (2 * base + 1, 2 * (base + chunk.len()));
    for (i, _) in low.iter().enumerate().skip(1).filter(|(_, &x)| x == 1) {
        let p = 2 * i + 1;
        let mut m = (p * p).max((first + p - 1) / p * p);
        if m % 2 == 0 {
            m += p; // the first odd multiple
        }
        while m < end {
            chunk[m / 2 - base] = 0;
            m += 2 * p;
        }
    }
}

// ANCHOR: sieve_parallel
pub fn sieve_parallel(max: usize) -> Vec<u8> {
    let mut s = sieve_serial((max as f64).sqrt() as usize + 1);
    let low_len = s.len();
    s.resize(max / 2, 1);
    let (low, high) = s.split_at_mut(low_len);
    let low: &[u8] = low;
    high.par_chunks_mut(CHUNK_SIZE)
        .enumerate()
        .with_max_len(1)
        .for_each(|(i, chunk)| update_chunk(low, chunk, low_len + i * CHUNK_SIZE));
    s
}
// ANCHOR_END: sieve_parallel
