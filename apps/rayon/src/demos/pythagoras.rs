//! pythagoras, as apps/demos/pythagoras.hpp: the Pythagorean triples with a hypotenuse of at
//! most `c_max`, by Euclid's formula over m < `m_end`, in nested parallel ranges.
use rayon::prelude::*;

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

// ANCHOR: chain
/// `hint` applied to both ranges: the identity, with_min_len or with_max_len.
fn parallel_sum<I, H>(m_end: u32, c_max: u32, hint: H) -> u32
where
    I: IndexedParallelIterator<Item = u32>,
    H: Fn(rayon::range::Iter<u32>) -> I + Sync + Copy,
{
    hint((1..m_end).into_par_iter())
        .map(|m| {
            hint((1..m).into_par_iter())
                .filter(|n| (m - n) % 2 == 1 && gcd(m, *n) == 1)
                .map(|n| c_max / (m * m + n * n))
                .sum::<u32>()
        })
        .sum()
}
// ANCHOR_END: chain

/// `hint`: 0 none, 1 with_min_len(usize::MAX) ("faux serial"), 2 with_max_len(1).
pub fn sum(m_end: u32, c_max: u32, hint: u32) -> u32 {
    match hint {
        1 => parallel_sum(m_end, c_max, |it| it.with_min_len(usize::MAX)),
        2 => parallel_sum(m_end, c_max, |it| it.with_max_len(1)),
        _ => parallel_sum(m_end, c_max, |it| it),
    }
}
