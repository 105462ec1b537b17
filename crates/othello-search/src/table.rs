//! The transposition table: one type, [`Table`], a power-of-two array of buckets of slots,
//! with one instance per search (the endgame solver's, shared by its threads; each midgame
//! search's own). The slot type is the policy: it fixes what an entry holds, how many slots a
//! bucket has and which slot a store replaces, so that each search keeps its own.
//!
//! # The solver's slots ([`EndgameSlot`])
//! Buckets of four slots (64 bytes, one cache line). A slot is two atomic words: the entry's
//! packed data and the position's 64-bit hash xor'ed with that data. A reader accepts a slot
//! only when the two words still agree with the hash it looks for, so a slot torn by two
//! threads writing at once reads as a miss, never as another position's entry. Positions are
//! told apart by their 64-bit hash alone; two positions sharing one are possible in principle
//! but have a chance of about one in 2^64 per probe.
//!
//! A store first overwrites the slot that already holds the position; failing that it takes,
//! in order of preference, a slot written by an earlier solve (an older *date*), then the slot
//! with the fewest empty squares (the cheapest work to redo).
//!
//! # The midgame search's slots ([`MidgameSlot`])
//! Buckets of two slots of 32 bytes, keyed by both bitboards (checked in full, so never
//! wrong) and the search's generation (a slot of another generation is empty). Slot 0 keeps
//! the deeper entry of the generation, slot 1 takes the rest: a store of at least the depth of
//! slot 0 (or of its position, or over another generation) takes slot 0 and moves the old
//! entry to slot 1; a shallower one takes slot 1.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bytes per slot of the solver's table.
const SLOT_BYTES: usize = 16;

/// No best move stored.
pub(crate) const NO_MOVE: u8 = 64;

/// What the solver's table knows about one position.
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

/// A slot type of a [`Table`]: its bucket size and its empty value. Its probes and stores
/// (the replacement policy) are methods of `Table<Self>`.
pub(crate) trait Slot {
    /// Slots per bucket.
    const WAYS: usize;
    /// An empty slot.
    fn empty() -> Self;
}

/// A fixed-size array of buckets of `S::WAYS` slots each; a position's bucket is the low bits
/// of its hash.
#[derive(Debug)]
pub(crate) struct Table<S> {
    slots: Box<[S]>,
    /// Bucket count minus one (a power of two minus one).
    mask: usize,
}

impl<S: Slot> Table<S> {
    /// A table of `buckets` buckets (a power of two, at least 1); `None` when the memory cannot
    /// be allocated.
    pub(crate) fn with_buckets(buckets: usize) -> Option<Table<S>> {
        debug_assert!(buckets.is_power_of_two());
        let mut slots = Vec::new();
        slots.try_reserve_exact(buckets * S::WAYS).ok()?;
        slots.extend((0..buckets * S::WAYS).map(|_| S::empty()));
        Some(Table {
            slots: slots.into_boxed_slice(),
            mask: buckets - 1,
        })
    }

    /// The number of slots.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        for slot in self.slots.iter_mut() {
            *slot = S::empty();
        }
    }

    /// Every slot.
    pub(crate) fn slots(&self) -> &[S] {
        &self.slots
    }

    /// The bucket of a position with hash `key`.
    #[inline(always)]
    fn bucket(&self, key: u64) -> &[S] {
        let start = (key as usize & self.mask) * S::WAYS;
        &self.slots[start..start + S::WAYS]
    }

    /// The bucket of a position with hash `key`, to write.
    #[inline(always)]
    fn bucket_mut(&mut self, key: u64) -> &mut [S] {
        let start = (key as usize & self.mask) * S::WAYS;
        &mut self.slots[start..start + S::WAYS]
    }
}

/// A slot of the solver's table: an [`Entry`] packed into one word, and the position's hash
/// xor'ed with it (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct EndgameSlot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot for EndgameSlot {
    const WAYS: usize = 4;
    fn empty() -> EndgameSlot {
        EndgameSlot::default()
    }
}

/// The solver's table, shared by the threads of a solve without locks.
pub(crate) type EndgameTable = Table<EndgameSlot>;

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

impl Table<EndgameSlot> {
    /// A table of at most `megabytes` MiB (rounded down to a power of two of buckets; at least
    /// one bucket); `None` when the memory cannot be allocated.
    pub(crate) fn new(megabytes: usize) -> Option<EndgameTable> {
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = (bytes / (EndgameSlot::WAYS * SLOT_BYTES)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Table::with_buckets(buckets)
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

/// Whether a midgame score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is the score.
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

/// A slot of a midgame search's table, and the entry it holds. `generation` 0 never matches a
/// search, so an empty slot matches nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MidgameSlot {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// The score or bound.
    pub score: i32,
    /// The search that wrote it.
    pub generation: u32,
    /// The depth searched, in plies.
    pub depth: u8,
    /// What `score` is.
    pub bound: Bound,
    /// The best move's square index, or [`NO_MOVE`].
    pub best: u8,
}

impl Slot for MidgameSlot {
    const WAYS: usize = 2;
    fn empty() -> MidgameSlot {
        MidgameSlot {
            player: 0,
            opponent: 0,
            score: 0,
            generation: 0,
            depth: 0,
            bound: Bound::Exact,
            best: NO_MOVE,
        }
    }
}

/// A midgame search's table.
pub(crate) type MidgameTable = Table<MidgameSlot>;

/// The hash of a midgame position (side to move `p`, other side `o`), for
/// [`MidgameTable::probe`] and [`MidgameTable::store`].
#[inline]
pub(crate) fn midgame_hash(p: u64, o: u64) -> u64 {
    let h = (p ^ o.rotate_left(23))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    // The bucket is the low bits above bit 0 (bit 0 chose the slot of a two-slot pair in an
    // earlier layout; the same buckets keep the node counts).
    (h ^ (h >> 31)) >> 1
}

impl Table<MidgameSlot> {
    /// The slot of generation `generation` that holds the position `p`, `o` (whose hash is
    /// `key`), if any.
    #[inline(always)]
    pub(crate) fn probe(&self, key: u64, p: u64, o: u64, generation: u32) -> Option<MidgameSlot> {
        self.bucket(key)
            .iter()
            .find(|e| e.generation == generation && e.player == p && e.opponent == o)
            .copied()
    }

    /// Stores `entry` for the position whose hash is `key` (see the module docs for the slot it
    /// takes).
    #[inline(always)]
    pub(crate) fn store(&mut self, key: u64, entry: MidgameSlot) {
        let bucket = self.bucket_mut(key);
        let first = bucket[0];
        let same = first.player == entry.player && first.opponent == entry.opponent;
        let slot = if first.generation != entry.generation || same || first.depth <= entry.depth {
            if first.generation == entry.generation && !same {
                // The deeper-or-equal newcomer takes slot 0; the old one moves to slot 1.
                bucket[1] = first;
            }
            0
        } else {
            1
        };
        bucket[slot] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_replace_the_shallowest() {
        let table = EndgameTable::new(0).unwrap();
        assert_eq!(table.capacity(), EndgameSlot::WAYS);
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
        let mut table = EndgameTable::new(0).unwrap();
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
        assert_eq!(
            EndgameTable::new(1).unwrap().capacity(),
            (1 << 20) / SLOT_BYTES
        );
        assert_eq!(
            EndgameTable::new(3).unwrap().capacity(),
            (2 << 20) / SLOT_BYTES
        );
    }

    #[test]
    fn midgame_slot_0_keeps_the_deeper_entry() {
        let mut table = MidgameTable::with_buckets(1).unwrap();
        assert_eq!(table.capacity(), 2);
        let entry = |player: u64, depth: u8, generation: u32| MidgameSlot {
            player,
            opponent: 1 << 63,
            score: i32::from(depth),
            generation,
            depth,
            bound: Bound::Lower,
            best: 7,
        };
        let probe = |t: &MidgameTable, player: u64, generation: u32| {
            t.probe(0, player, 1 << 63, generation)
        };
        table.store(0, entry(1, 5, 1));
        assert_eq!(probe(&table, 1, 1), Some(entry(1, 5, 1)));
        assert_eq!(probe(&table, 1, 2), None, "another generation");
        // Shallower: slot 1.
        table.store(0, entry(2, 3, 1));
        assert_eq!(table.slots(), [entry(1, 5, 1), entry(2, 3, 1)]);
        // Deeper: slot 0, the old entry to slot 1.
        table.store(0, entry(3, 6, 1));
        assert_eq!(table.slots(), [entry(3, 6, 1), entry(1, 5, 1)]);
        // The same position again, shallower: still slot 0.
        table.store(0, entry(3, 2, 1));
        assert_eq!(table.slots(), [entry(3, 2, 1), entry(1, 5, 1)]);
        // Another generation's slot 0 is free.
        table.store(0, entry(4, 1, 2));
        assert_eq!(table.slots(), [entry(4, 1, 2), entry(1, 5, 1)]);
        table.clear();
        assert_eq!(probe(&table, 4, 2), None);
    }

    #[test]
    fn hashes_tell_swapped_discs_apart() {
        let (p, o) = (1u64 << 63 | 5, 1u64 << 20);
        assert_ne!(hash(p, o), hash(p ^ 1 << 63, o ^ 1 << 63));
        assert_ne!(hash(p, o), hash(o, p));
    }
}
