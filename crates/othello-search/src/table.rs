//! The transposition table: bounds on the exact score of positions, shared by every thread of
//! a solve without locks.
//!
//! # Layout
//! Buckets of four slots (64 bytes, one cache line). A slot is two atomic words: the entry's
//! packed data and the position's 64-bit hash xor'ed with that data. A reader accepts a slot
//! only when the two words still agree with the hash it looks for, so a slot torn by two
//! threads writing at once reads as a miss, never as another position's entry.
//!
//! # Replacement
//! A store first overwrites the slot that already holds the position; failing that it takes,
//! in order of preference, a slot written by an earlier solve (an older *date*), then the slot
//! with the fewest empty squares (the cheapest work to redo).
//!
//! Positions are told apart by their 64-bit hash alone; two positions sharing one are possible
//! in principle but have a chance of about one in 2^64 per probe.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots per bucket.
const BUCKET: usize = 4;
/// Bytes per slot.
const SLOT_BYTES: usize = 16;

/// No best move stored.
pub(crate) const NO_MOVE: u8 = 64;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The exact score is at least this.
    pub lower: i8,
    /// The exact score is at most this.
    pub upper: i8,
    /// The best move's square index found by the search that stored the entry, or [`NO_MOVE`].
    pub best: u8,
    /// The number of empty squares (how much work the entry stands for).
    pub empties: u8,
    /// The solve that wrote it.
    pub date: u8,
    /// 0 when the bounds are proved; else the selective pass that wrote them (see
    /// `Search::deep`): its bounds only hold for that pass, and only its best move is used by
    /// the others.
    pub sel: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
            | u64::from(self.date) << 32
            // Bit 40 marks a used slot, so no entry packs to zero (an empty slot).
            | 1 << 40
            | u64::from(self.sel & 7) << 41
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            date: (data >> 32) as u8,
            sel: (data >> 41) as u8 & 7,
        }
    }
}

#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table of [`Entry`]s, indexed by [`hash`].
#[derive(Debug)]
pub(crate) struct Table {
    slots: Box<[Slot]>,
    /// Bucket count minus one (a power of two minus one).
    mask: usize,
}

/// A 64-bit hash of the position with discs `p` for the side to move and `o` for the other.
#[inline(always)]
pub(crate) fn hash(p: u64, o: u64) -> u64 {
    mix(mix(p) ^ o)
}

/// A bijective 64-bit mixer (the finaliser of SplitMix64).
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two of buckets; at least
    /// one bucket); `None` when the memory cannot be allocated.
    pub(crate) fn new(megabytes: usize) -> Option<Table> {
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * SLOT_BYTES)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        let mut slots = Vec::new();
        slots.try_reserve_exact(buckets * BUCKET).ok()?;
        slots.extend((0..buckets * BUCKET).map(|_| Slot::default()));
        Some(Table {
            slots: slots.into_boxed_slice(),
            mask: buckets - 1,
        })
    }

    /// The number of entries the table holds.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        for slot in self.slots.iter_mut() {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot] {
        let start = (key as usize & self.mask) * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.check.load(Relaxed) ^ data == key {
                return Some(Entry::unpack(data));
            }
        }
        None
    }

    /// Stores `entry` for `key` (see the module docs for which slot it replaces).
    #[inline]
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Relaxed);
            if data == 0 || slot.check.load(Relaxed) ^ data == key {
                victim = i;
                break;
            }
            let old = Entry::unpack(data);
            let rank = u32::from(old.date == entry.date) << 8 | u32::from(old.empties);
            if rank < victim_rank {
                victim_rank = rank;
                victim = i;
            }
        }
        let data = entry.pack();
        let slot = &bucket[victim];
        slot.data.store(data, Relaxed);
        slot.check.store(key ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_replace_the_shallowest() {
        let table = Table::new(0).unwrap();
        assert_eq!(table.capacity(), BUCKET);
        let entry = |empties: u8, date: u8| Entry {
            lower: -64,
            upper: 12,
            best: 63,
            empties,
            date,
            sel: (empties % 3) & 7,
        };
        for k in 0..4u64 {
            table.store(k << 8, entry(10 + k as u8, 1));
        }
        for k in 0..4u64 {
            assert_eq!(table.probe(k << 8), Some(entry(10 + k as u8, 1)));
        }
        // A fifth position replaces the one with the fewest empties.
        table.store(99 << 8, entry(20, 1));
        assert_eq!(table.probe(0), None);
        assert_eq!(table.probe(99 << 8), Some(entry(20, 1)));
        // An older date goes first whatever its depth.
        let mut table = Table::new(0).unwrap();
        table.store(1, entry(30, 0));
        for k in 2..5u64 {
            table.store(k, entry(5, 1));
        }
        table.store(7, entry(5, 1));
        assert_eq!(table.probe(1), None);
        table.clear();
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn sizes_are_powers_of_two() {
        assert_eq!(Table::new(1).unwrap().capacity(), (1 << 20) / SLOT_BYTES);
        assert_eq!(Table::new(3).unwrap().capacity(), (2 << 20) / SLOT_BYTES);
    }

    #[test]
    fn hashes_tell_swapped_discs_apart() {
        let (p, o) = (1u64 << 63 | 5, 1u64 << 20);
        assert_ne!(hash(p, o), hash(p ^ 1 << 63, o ^ 1 << 63));
        assert_ne!(hash(p, o), hash(o, p));
    }
}
