//! quicksort, as apps/demos/quicksort.hpp: Lomuto with the last element as the pivot, the two
//! sides under `rayon::join`, plain recursion at 5 * 1024 elements and below.
use super::{fingerprint, Outcome, XorShift};

pub fn input(n: usize) -> Vec<u32> {
    let mut rng = XorShift::new();
    (0..n).map(|_| rng.next_u32()).collect()
}

/// Moves every element <= the last one before it, and it to its place; returns that place.
fn partition<T: PartialOrd>(v: &mut [T]) -> usize {
    let pivot = v.len() - 1;
    let mut store = 0;
    for i in 0..pivot {
        if v[i] <= v[pivot] {
            v.swap(i, store);
            store += 1;
        }
    }
    v.swap(store, pivot);
    store
}

fn quick_sort_serial<T: PartialOrd>(v: &mut [T]) {
    if v.len() <= 1 {
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    quick_sort_serial(lo);
    quick_sort_serial(&mut hi[1..]);
}

// ANCHOR: quick_sort
pub fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 5 * 1024 {
        return quick_sort_serial(v); // too small to share
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    rayon::join(|| quick_sort(lo), || quick_sort(&mut hi[1..])); // the pivot is in place
}
// ANCHOR_END: quick_sort

/// The fingerprint of the sorted vector, and whether it is sorted.
pub fn sorted(secs: f64, v: &[u32]) -> Outcome {
    Outcome { secs, result: fingerprint(v), ok: v.windows(2).all(|w| w[0] <= w[1]) }
}
