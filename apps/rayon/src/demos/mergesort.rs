//! mergesort, as apps/demos/mergesort.hpp: halves sorted under `rayon::join`, ping-ponging
//! between the data and one buffer; merges split under `join` too. Leaves: the standard stable
//! sort below 32 Ki elements, a sequential merge below 64 Ki.
const SORT_CHUNK: usize = 32 * 1024;
const MERGE_CHUNK: usize = 64 * 1024;

/// Merges the sorted runs a and b into dest; a's elements first among equals (stable).
fn merge<T: Ord + Copy + Send + Sync>(a: &[T], b: &[T], dest: &mut [T]) {
    if dest.len() <= MERGE_CHUNK || a.is_empty() || b.is_empty() {
        let (mut i, mut j) = (0, 0);
        for d in dest.iter_mut() {
            if j == b.len() || (i < a.len() && a[i] <= b[j]) {
                *d = a[i];
                i += 1;
            } else {
                *d = b[j];
                j += 1;
            }
        }
        return;
    }
    let (ai, bi) = if a.len() >= b.len() {
        let ai = a.len() / 2;
        (ai, b.partition_point(|x| *x < a[ai]))
    } else {
        let bi = b.len() / 2;
        (a.partition_point(|x| *x <= b[bi]), bi)
    };
    let (d_lo, d_hi) = dest.split_at_mut(ai + bi);
    rayon::join(|| merge(&a[..ai], &b[..bi], d_lo), || merge(&a[ai..], &b[bi..], d_hi));
}

// ANCHOR: sort
/// Sorts src, buf (the same size) its scratch: the halves sorted into buf, merged back.
fn sort<T: Ord + Copy + Send + Sync>(src: &mut [T], buf: &mut [T]) {
    if src.len() <= SORT_CHUNK {
        return src.sort();
    }
    let mid = src.len() / 2;
    let (s_lo, s_hi) = src.split_at_mut(mid);
    let (b_lo, b_hi) = buf.split_at_mut(mid);
    rayon::join(|| sort_into(s_lo, b_lo), || sort_into(s_hi, b_hi));
    merge(&buf[..mid], &buf[mid..], src);
}
// ANCHOR_END: sort

/// Sorts src into dest: the halves sorted in place, dest's halves their scratch, then merged.
fn sort_into<T: Ord + Copy + Send + Sync>(src: &mut [T], dest: &mut [T]) {
    if src.len() <= SORT_CHUNK {
        src.sort();
        dest.copy_from_slice(src);
        return;
    }
    let mid = src.len() / 2;
    let (s_lo, s_hi) = src.split_at_mut(mid);
    let (d_lo, d_hi) = dest.split_at_mut(mid);
    rayon::join(|| sort(s_lo, d_lo), || sort(s_hi, d_hi));
    merge(&src[..mid], &src[mid..], dest);
}

/// The whole sort, with its buffer (allocated here, inside the timed call).
pub fn merge_sort(v: &mut [u32]) {
    let mut buf = vec![0u32; v.len()];
    sort(v, &mut buf);
}
