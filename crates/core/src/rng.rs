use std::convert::Infallible;

use rand::rand_core::TryRng;

/// The seeded random generator every agent and the match harness use: Xoshiro256++.
///
/// It is implemented here, not taken from `rand`, so that a seed replays the same games on
/// every platform and with every version of `rand`: the stream and [`Rng::below`] are fixed by
/// this file. It also implements `rand`'s [`TryRng`] (infallible), so `rand`'s distributions
/// can use it.
///
/// Not cryptographically secure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of SplitMix64: advances `state` and returns a well-mixed output.
#[inline]
#[must_use]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator from its raw 256-bit state.
    ///
    /// An all-zero state would only ever produce zeros, so it is replaced by the state of
    /// `Rng::seed_from_u64(0)`.
    #[must_use]
    pub fn from_state(s: [u64; 4]) -> Rng {
        if s == [0; 4] {
            Rng::seed_from_u64(0)
        } else {
            Rng { s }
        }
    }

    /// A generator whose state is four outputs of SplitMix64 started at `seed` (the seeding the
    /// Xoshiro authors recommend).
    #[must_use]
    pub fn seed_from_u64(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng::from_state(s)
    }

    /// The generator of stream `index` under a master `seed`: game `i` of a match uses
    /// `Rng::for_stream(seed, i)`, so any game can be replayed alone and the order in which
    /// threads run games does not matter.
    #[must_use]
    pub fn for_stream(seed: u64, index: u64) -> Rng {
        let mut a = seed;
        let mut b = index ^ 0x6A09_E667_F3BC_C908;
        let mixed = splitmix64(&mut a) ^ splitmix64(&mut b).rotate_left(17);
        Rng::seed_from_u64(mixed)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n`, by Lemire's multiply-and-reject method (exactly uniform).
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    #[track_caller]
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        let n = n as u64;
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as usize
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit_f64() < p
    }

    /// A uniformly chosen element of a non-empty slice, or `None` for an empty one.
    #[inline]
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}

impl TryRng for Rng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_value() {
        // First output of SplitMix64 from state 0, as published with the algorithm.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn xoshiro256plusplus_reference_stream() {
        // The reference implementation's outputs for the state [1, 2, 3, 4].
        let mut rng = Rng::from_state([1, 2, 3, 4]);
        let expected: [u64; 4] = [
            41_943_041,
            58_720_359,
            3_588_806_011_781_223,
            3_591_011_842_654_386,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = Rng::seed_from_u64(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6)] += 1;
        }
        for c in counts {
            assert!((9_400..10_600).contains(&c), "{counts:?}");
        }
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|i| Rng::for_stream(1, i).next_u64()).collect();
        let b: Vec<u64> = (0..4).map(|i| Rng::for_stream(1, i).next_u64()).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
        assert_ne!(Rng::for_stream(1, 0), Rng::for_stream(2, 0));
    }

    #[test]
    fn unit_interval_and_rand_interop() {
        use rand::RngExt;
        let mut rng = Rng::seed_from_u64(3);
        for _ in 0..1000 {
            let x = rng.unit_f64();
            assert!((0.0..1.0).contains(&x));
        }
        let y: u8 = rng.random_range(0..10);
        assert!(y < 10);
        let mut buf = [0u8; 13];
        rng.try_fill_bytes(&mut buf).unwrap();
        assert!(buf.iter().any(|&b| b != 0));
    }
}
