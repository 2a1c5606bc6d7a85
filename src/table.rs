//! The pruned search's transposition table: what is known of positions already searched, shared
//! by every worker thread without locks.
//!
//! An entry is keyed by the position, the side to move and the depth still to search, because
//! the assignment's values depend on all three (a leaf's heuristic makes a deeper value no
//! better than a shallower one). It holds a bound on that exact value, never a guess, so that a
//! hit can only save work: the values found are the same with or without the table, on any
//! number of threads. Each slot is two words written without a lock; the first is the key
//! exclusive-or the second, so a slot torn by two threads writing at once reads as a miss.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in a table: 2^20, 16 MiB, allocated on first use by the operating system.
const SLOTS: usize = 1 << 20;

/// What a stored value says of the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// It is the value.
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// What the table knows of one position at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub value: i32,
    pub bound: Bound,
    /// The column that was best (or cut off) when it was searched: tried first next time.
    pub best: usize,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.value as u32) | bound << 32 | (self.best as u64) << 34
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match data >> 32 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            value: data as u32 as i32,
            bound,
            best: (data >> 34) as usize,
        })
    }
}

/// One slot: the key exclusive-or the data, and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table of entries, each slot replaced by the latest store.
pub(crate) struct Table {
    slots: Box<[Slot]>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} slots)", self.slots.len())
    }
}

impl Table {
    /// An empty table.
    pub fn new() -> Table {
        Table {
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
        }
    }

    /// The key of a position (its hash), the side to move and the depth left.
    #[inline(always)]
    pub fn key(hash: u64, side: usize, depth: u32) -> u64 {
        let mut z = hash.wrapping_add((u64::from(depth) << 1 | side as u64).wrapping_add(1));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & (self.slots.len() - 1)]
    }

    /// The entry stored under `key`, if there is one.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data == key {
            Entry::unpack(data)
        } else {
            None
        }
    }

    /// Stores `entry` under `key`, replacing whatever the slot held.
    #[inline(always)]
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let data = entry.pack();
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_comes_back_under_its_key_only() {
        let table = Table::new();
        let key = Table::key(0xABCD, 1, 9);
        assert_eq!(table.probe(key), None);
        for value in [-i32::MAX, -7, 0, 41, i32::MAX] {
            let entry = Entry {
                value,
                bound: Bound::Lower,
                best: 31,
            };
            table.store(key, entry);
            assert_eq!(table.probe(key), Some(entry));
        }
        // The same position at another depth or for the other side is another key.
        assert_ne!(Table::key(0xABCD, 1, 8), key);
        assert_ne!(Table::key(0xABCD, 0, 9), key);
        assert_eq!(table.probe(key ^ 1 << 40), None);
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let table = Table::new();
        let key = Table::key(7, 0, 3);
        let entry = Entry {
            value: 5,
            bound: Bound::Exact,
            best: 2,
        };
        table.store(key, entry);
        // Another thread's data landed without its check word.
        let other = Entry { value: 6, ..entry };
        table.slot(key).data.store(other.pack(), Ordering::Relaxed);
        assert_eq!(table.probe(key), None);
    }
}
