//! Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003, as MOSS and Dolos use it): a
//! document's k-grams of tokens hashed, and from every window of `w` consecutive hashes the
//! smallest kept (the rightmost of equals), each position once. Any run of at least `w + k - 1`
//! tokens shared by two documents gives them at least one fingerprint in common, whatever
//! surrounds it, and a document keeps about `2 / (w + 1)` of its k-grams.

use std::collections::VecDeque;

/// A kept k-gram: its hash and the index of its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The k-gram's hash.
    pub hash: u64,
    /// Its first token's index in the document's tokens.
    pub start: usize,
}

/// The base of the polynomial hash of a k-gram (odd, so that multiplying loses no bits).
const BASE: u64 = 0x100_0000_01b3;

/// The hash of every k-gram of `tokens` (their kinds), in order: `tokens.len() - k + 1` of
/// them, none when there are fewer than `k` tokens. A polynomial hash, rolled along.
pub fn kgrams(tokens: &[u64], k: usize) -> Vec<u64> {
    if k == 0 || tokens.len() < k {
        return Vec::new();
    }
    let top = (1..k).fold(1u64, |power, _| power.wrapping_mul(BASE));
    let mut hash = tokens[..k].iter().fold(0u64, |hash, &token| {
        hash.wrapping_mul(BASE).wrapping_add(token)
    });
    let mut hashes = Vec::with_capacity(tokens.len() - k + 1);
    hashes.push(hash);
    for i in k..tokens.len() {
        hash = hash
            .wrapping_sub(tokens[i - k].wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(tokens[i]);
        hashes.push(hash);
    }
    hashes
}

/// The fingerprints winnowing keeps of `hashes` (k-gram hashes in order) with windows of `w`:
/// in each window the smallest hash, the rightmost of equal ones, each position once, in
/// order. A document shorter than one window keeps its smallest.
pub fn winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
    let w = w.max(1).min(hashes.len());
    let mut kept = Vec::new();
    // Positions whose hashes increase strictly from front to back: the front is the window's
    // minimum (the rightmost of equals, as an equal newcomer pushes the older one out).
    let mut candidates: VecDeque<usize> = VecDeque::new();
    for (i, &hash) in hashes.iter().enumerate() {
        while candidates.back().is_some_and(|&j| hashes[j] >= hash) {
            candidates.pop_back();
        }
        candidates.push_back(i);
        if i + 1 < w {
            continue;
        }
        while candidates.front().is_some_and(|&j| j + w <= i) {
            candidates.pop_front();
        }
        let chosen = candidates[0];
        if kept
            .last()
            .is_none_or(|last: &Fingerprint| last.start != chosen)
        {
            kept.push(Fingerprint {
                hash: hashes[chosen],
                start: chosen,
            });
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use proptest::prelude::*;

    use super::*;

    /// Winnowing as the paper defines it, window by window, with nothing clever.
    fn simple_winnow(hashes: &[u64], w: usize) -> Vec<Fingerprint> {
        if hashes.is_empty() {
            return Vec::new();
        }
        let w = w.max(1).min(hashes.len());
        let mut positions = BTreeSet::new();
        for start in 0..=hashes.len() - w {
            let window = &hashes[start..start + w];
            let smallest = *window.iter().min().unwrap();
            let rightmost = window.iter().rposition(|&h| h == smallest).unwrap();
            positions.insert(start + rightmost);
        }
        positions
            .into_iter()
            .map(|start| Fingerprint {
                hash: hashes[start],
                start,
            })
            .collect()
    }

    /// A k-gram's hash computed on its own.
    fn simple_hash(tokens: &[u64]) -> u64 {
        tokens
            .iter()
            .fold(0u64, |h, &t| h.wrapping_mul(BASE).wrapping_add(t))
    }

    #[test]
    fn fewer_tokens_than_k_give_no_kgram_and_no_fingerprint() {
        assert!(kgrams(&[1, 2], 3).is_empty());
        assert!(winnow(&[], 4).is_empty());
        assert_eq!(
            winnow(&[5, 3, 9], 4),
            vec![Fingerprint { hash: 3, start: 1 }]
        );
    }

    #[test]
    fn the_rightmost_of_equal_minima_is_kept() {
        assert_eq!(
            winnow(&[2, 1, 1, 3], 3),
            vec![Fingerprint { hash: 1, start: 2 }]
        );
    }

    proptest! {
        #[test]
        fn winnowing_keeps_what_the_definition_keeps(
            hashes in proptest::collection::vec(0u64..8, 0..60),
            w in 1usize..10,
        ) {
            prop_assert_eq!(winnow(&hashes, w), simple_winnow(&hashes, w));
        }

        #[test]
        fn rolled_hashes_equal_each_kgram_hashed_alone(
            tokens in proptest::collection::vec(any::<u64>(), 0..40),
            k in 1usize..8,
        ) {
            let expected: Vec<u64> = tokens.windows(k).map(simple_hash).collect();
            prop_assert_eq!(kgrams(&tokens, k), expected);
        }

        #[test]
        fn a_shared_run_of_w_plus_k_minus_1_tokens_shares_a_fingerprint(
            left in proptest::collection::vec(0u64..50, 0..30),
            shared in proptest::collection::vec(0u64..50, 12..20),
            right in proptest::collection::vec(0u64..50, 0..30),
            other in proptest::collection::vec(50u64..99, 0..30),
        ) {
            let (k, w) = (4, 9);
            let first: Vec<u64> = left.iter().chain(&shared).copied().collect();
            let second: Vec<u64> = other.iter().chain(&shared).chain(&right).copied().collect();
            let hashes = |tokens: &[u64]| -> HashSet<u64> {
                winnow(&kgrams(tokens, k), w).into_iter().map(|f| f.hash).collect()
            };
            prop_assert!(!hashes(&first).is_disjoint(&hashes(&second)));
        }
    }
}
