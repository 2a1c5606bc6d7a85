//! Fixed-size bit sets that hold one bit per board cell: `u64`, `u128` and a 1024-bit `Wide`.
//!
//! The engine is generic over these so that a standard board runs on a single machine word
//! while the largest legal board (32 x 32) still works. Each board picks the smallest type that
//! holds all its cells.

use std::ops::{BitAnd, BitOr, BitXor};

/// A set of cells, one bit per cell, with the few operations the engine needs.
pub trait Bits:
    Copy
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
{
    /// How many cells the type can hold.
    const CAPACITY: usize;
    /// The set holding only cell `i`.
    fn bit(i: usize) -> Self;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// How many cells the set holds.
    fn count(self) -> u32;
    /// The `len` (at most 32) bits starting at `start`, as the low bits of a `u32`.
    fn slice(self, start: usize, len: usize) -> u32;
}

/// The mask of the low `len` bits, for `len` up to 32.
fn low_mask(len: usize) -> u64 {
    (1u64 << len) - 1
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    #[inline(always)]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn slice(self, start: usize, len: usize) -> u32 {
        ((self >> start) & low_mask(len)) as u32
    }
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    #[inline(always)]
    fn bit(i: usize) -> Self {
        1 << i
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn slice(self, start: usize, len: usize) -> u32 {
        ((self >> start) as u64 & low_mask(len)) as u32
    }
}

/// Words in a [`Wide`] set: enough for a 32 x 32 board.
const WIDE_WORDS: usize = 16;

/// A 1024-bit set, for boards of more than 128 cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide([u64; WIDE_WORDS]);

impl Default for Wide {
    fn default() -> Self {
        Wide([0; WIDE_WORDS])
    }
}

impl Wide {
    fn zip(self, other: Wide, op: impl Fn(u64, u64) -> u64) -> Wide {
        Wide(std::array::from_fn(|i| op(self.0[i], other.0[i])))
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    fn bitand(self, rhs: Wide) -> Wide {
        self.zip(rhs, |a, b| a & b)
    }
}

impl BitOr for Wide {
    type Output = Wide;
    fn bitor(self, rhs: Wide) -> Wide {
        self.zip(rhs, |a, b| a | b)
    }
}

impl BitXor for Wide {
    type Output = Wide;
    fn bitxor(self, rhs: Wide) -> Wide {
        self.zip(rhs, |a, b| a ^ b)
    }
}

impl Bits for Wide {
    const CAPACITY: usize = 64 * WIDE_WORDS;
    fn bit(i: usize) -> Self {
        let mut w = Wide::default();
        w.0[i / 64] = 1 << (i % 64);
        w
    }
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    fn slice(self, start: usize, len: usize) -> u32 {
        let (word, shift) = (start / 64, start % 64);
        let low = self.0[word] >> shift;
        let high = match (shift, self.0.get(word + 1)) {
            (1.., Some(next)) => next << (64 - shift),
            _ => 0,
        };
        ((low | high) & low_mask(len)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits + std::fmt::Debug>() {
        let last = B::CAPACITY - 1;
        let set = B::bit(0) | B::bit(5) | B::bit(last);
        assert_eq!(set.count(), 3);
        assert!(!set.is_empty());
        assert!((set & B::bit(1)).is_empty());
        assert_eq!((set ^ B::bit(5)).count(), 2);
        assert_eq!(set.slice(0, 6), 0b100001);
        assert_eq!(set.slice(last - 3, 4), 0b1000);
    }

    #[test]
    fn every_width_counts_slices_and_combines() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Wide>();
    }

    #[test]
    fn wide_slices_across_a_word_boundary() {
        let set = Wide::bit(62) | Wide::bit(63) | Wide::bit(64) | Wide::bit(66);
        assert_eq!(set.slice(62, 5), 0b10111);
    }

    /// The heuristic counts bits on every node: it must be one instruction, not a loop. A build
    /// without POPCNT fails to compile this test.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn popcount_is_a_hardware_instruction() {
        const {
            assert!(
                cfg!(target_feature = "popcnt"),
                "build with .cargo/config.toml's target-cpu (x86-64-v2) so that POPCNT is used"
            )
        };
        assert_eq!(std::hint::black_box(0b1011u64).count_ones(), 3);
    }
}
