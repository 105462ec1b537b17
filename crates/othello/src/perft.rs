//! Fast perft on the bitboards, with a copy compiled for x86-64-v3 CPUs (see [`crate::cpu`]).

use crate::cpu::Cpu;
use crate::movegen::{flips_bits, moves_bits};
use crate::Othello;

/// Defines a perft walk `$name(p, o, depth)`: the leaves below the position where the side
/// with discs `p` moves against `o`, for `depth >= 1`. The macro lets the same body be compiled
/// twice: portably, and with more CPU features enabled.
macro_rules! walk_fn {
    ($(#[$attr:meta])* $vis:vis fn $name:ident) => {
        $(#[$attr])*
        $vis fn $name(p: u64, o: u64, depth: u32) -> u64 {
            let mut m = moves_bits(p, o);
            if depth == 1 {
                // Moves, or one leaf for the pass or the end of the game.
                return u64::from(m.count_ones()).max(1);
            }
            if m == 0 {
                return if moves_bits(o, p) == 0 {
                    1
                } else {
                    $name(o, p, depth - 1)
                };
            }
            let mut total = 0;
            if depth == 2 {
                // Bulk counting: each child counts its moves (or one leaf) without playing them.
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = flips_bits(p, o, sq);
                    let (np, no) = (o ^ f, p | f | 1 << sq);
                    total += u64::from(moves_bits(np, no).count_ones()).max(1);
                }
                return total;
            }
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips_bits(p, o, sq);
                total += $name(o ^ f, p | f | 1 << sq, depth - 1);
            }
            total
        }
    };
}

walk_fn!(fn walk_portable);

/// The walk compiled for the x86-64-v3 features, with their move generator and flips
/// ([`moves_x86v3`](crate::cpu::moves_x86v3), [`flips_x86v3`](crate::cpu::flips_x86v3)).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use crate::cpu::X86v3;
    use crate::movegen_v3::{flips_x86v3 as flips_bits, moves_x86v3 as moves_bits};

    walk_fn!(
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        fn walk_x86v3
    );

    /// The x86-64-v3 walk, entered with the token that proves the CPU has its features.
    pub(super) fn walk(_token: X86v3, p: u64, o: u64, depth: u32) -> u64 {
        // SAFETY: `walk_x86v3` needs only the features it is compiled with, which the token
        // proves this CPU has (see the safety argument of `crate::cpu`).
        unsafe { walk_x86v3(p, o, depth) }
    }
}

/// Standard Othello perft: the number of leaves of the game tree `depth` plies below `pos`,
/// where a pass is a ply and a game that ends before `depth` is one leaf.
///
/// The last ply is bulk-counted: a node one ply above the leaves counts its moves with a
/// popcount (or one leaf for its pass or its end of game) without playing them. It agrees with
/// `yomi_core::perft(pos, depth).leaves()`, only faster. It runs the copy of the walk that
/// [`Cpu::detect`] picks: [`perft_with`] with that choice.
///
/// ```
/// use yomi_othello::{perft, Othello};
/// assert_eq!(perft(&Othello::new(), 4), 244);
/// ```
#[must_use]
pub fn perft(pos: &Othello, depth: u32) -> u64 {
    perft_with(Cpu::detect(), pos, depth)
}

/// [`perft`] in the compiled copy `cpu` ([`Cpu::Portable`] on every machine, [`Cpu::X86v3`]
/// with its token): the same count whichever runs, only the speed differs.
///
/// ```
/// use yomi_othello::cpu::Cpu;
/// use yomi_othello::{perft_with, Othello};
/// assert_eq!(perft_with(Cpu::Portable, &Othello::new(), 4), 244);
/// assert_eq!(perft_with(Cpu::detect(), &Othello::new(), 4), 244);
/// ```
#[must_use]
pub fn perft_with(cpu: Cpu, pos: &Othello, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o) = (pos.player().0, pos.opponent().0);
    match cpu {
        #[cfg(target_arch = "x86_64")]
        Cpu::X86v3(token) => x86::walk(token, p, o, depth),
        _ => walk_portable(p, o, depth),
    }
}
