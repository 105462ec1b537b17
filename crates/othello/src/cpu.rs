//! The CPU layer: which compiled copy of the hot code runs.
//!
//! The workspace's hot code (perft, the endgame solver, the midgame search, the learned
//! evaluation) is compiled twice: for the target's baseline (on x86-64, a CPU of 2003), and on
//! x86-64 for the *x86-64-v3* features it needs, AVX2, BMI1, BMI2, POPCNT and LZCNT (most
//! x86-64 CPUs since 2013-2015). Which copy runs is a [`Cpu`]: [`Cpu::Portable`] runs
//! everywhere, [`Cpu::X86v3`] carries an [`X86v3`] token.
//!
//! # Safety argument
//! An [`X86v3`] token is a proof that this CPU has the five features: its field is private,
//! and its only constructor, [`X86v3::detect`], returns one only after the standard library's
//! run-time detection found all five. A function compiled with
//! `#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]` needs nothing else to be
//! sound, so every `unsafe` call of such a function in the workspace is made by code that
//! holds a token (as an argument, or inside the value it runs on), and its `SAFETY` comment
//! refers to this paragraph.
//!
//! The detection runs once per process, and honours [`PORTABLE_ENV`]: with `YOMI_PORTABLE=1`
//! [`Cpu::detect`] is [`Cpu::Portable`], to compare both copies on one machine.
//!
//! ```
//! use yomi_othello::cpu::{Cpu, X86v3};
//! let cpu = Cpu::detect();
//! assert_eq!(cpu.x86v3(), X86v3::detect());
//! assert!(["portable", "x86-64-v3"].contains(&cpu.name()));
//! assert_eq!(Cpu::Portable.to_string(), "portable");
//! ```

use std::fmt;
use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
pub use crate::movegen_v3::{flips_x86v3, moves_x86v3};

/// The environment variable that, set to anything but `0` or the empty string, makes
/// [`Cpu::detect`] (and so every default choice of the workspace) choose the portable copies,
/// to compare both copies on one machine. Read once per process.
pub const PORTABLE_ENV: &str = "YOMI_PORTABLE";

/// Proof that this CPU has the x86-64-v3 features AVX2, BMI1, BMI2, POPCNT and LZCNT (see
/// the module's safety argument). Zero-sized; made only by [`X86v3::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct X86v3 {
    _proof: (),
}

/// What the detection found: the token, and whether `pext` runs at full speed.
#[derive(Clone, Copy, Debug)]
struct Detected {
    token: Option<X86v3>,
    fast_pext: bool,
}

/// The detection, run once.
fn detected() -> Detected {
    static DETECTED: OnceLock<Detected> = OnceLock::new();
    *DETECTED.get_or_init(|| {
        let forced = std::env::var_os(PORTABLE_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        let token = (!forced && has_x86v3()).then_some(X86v3 { _proof: () });
        Detected {
            token,
            fast_pext: token.is_some() && !slow_pext(),
        }
    })
}

/// Whether the CPU has all five features (run-time detection of the standard library).
#[cfg(target_arch = "x86_64")]
fn has_x86v3() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("lzcnt")
}

/// No x86-64-v3 copy outside x86-64.
#[cfg(not(target_arch = "x86_64"))]
fn has_x86v3() -> bool {
    false
}

/// Whether this CPU has `pext` only in microcode: AMD's before Zen 3 (families 0x15 to 0x18:
/// Excavator, Zen 1 and 2, and Hygon's Zen 1 derivatives) take tens to hundreds of cycles per
/// `pext`, where Intel's since Haswell and AMD's since Zen 3 take one to three.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    let vendor = std::arch::x86_64::__cpuid(0);
    // "AuthenticAMD" in ebx, edx, ecx; "Hygon" (Zen 1 derivatives) too.
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
    let hygon = vendor.ebx == 0x6F67_7948;
    let eax = std::arch::x86_64::__cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    };
    (amd || hygon) && family < 0x19
}

/// No `pext` outside x86-64.
#[cfg(not(target_arch = "x86_64"))]
fn slow_pext() -> bool {
    true
}

impl X86v3 {
    /// The token when this CPU has the five features and [`PORTABLE_ENV`] does not ask for the
    /// portable copies, else `None` (always `None` outside x86-64). Detected once per process.
    #[must_use]
    pub fn detect() -> Option<X86v3> {
        detected().token
    }

    /// Whether this CPU runs `pext` at full speed (one to three cycles): `false` on AMD CPUs
    /// before Zen 3, which have it only in microcode. The learned evaluation's x86-64-v3 copy
    /// gathers every pattern with a `pext`, so such CPUs run its portable copy instead.
    #[must_use]
    pub fn fast_pext(self) -> bool {
        detected().fast_pext
    }
}

/// Which compiled copy of the hot code runs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cpu {
    /// The copy compiled for the target's baseline: runs on every CPU.
    Portable,
    /// The copy compiled for AVX2, BMI1/2, POPCNT and LZCNT, with the token that proves the
    /// CPU has them.
    X86v3(X86v3),
}

impl Cpu {
    /// The fastest copy this CPU runs: [`Cpu::X86v3`] when [`X86v3::detect`] finds the
    /// features (and [`PORTABLE_ENV`] is not set), else [`Cpu::Portable`]. Detected once per
    /// process.
    #[must_use]
    pub fn detect() -> Cpu {
        X86v3::detect().map_or(Cpu::Portable, Cpu::X86v3)
    }

    /// The token of [`Cpu::X86v3`], `None` for [`Cpu::Portable`].
    #[must_use]
    pub fn x86v3(self) -> Option<X86v3> {
        match self {
            Cpu::Portable => None,
            Cpu::X86v3(token) => Some(token),
        }
    }

    /// The copy's name in reports: `"portable"` or `"x86-64-v3"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Cpu::Portable => "portable",
            Cpu::X86v3(_) => "x86-64-v3",
        }
    }
}

impl fmt::Display for Cpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_is_consistent() {
        let cpu = Cpu::detect();
        assert_eq!(cpu, Cpu::detect());
        assert_eq!(cpu.x86v3(), X86v3::detect());
        assert_eq!(Cpu::Portable.x86v3(), None);
        let forced = std::env::var_os(PORTABLE_ENV).is_some_and(|v| !v.is_empty() && v != "0");
        if forced || !has_x86v3() {
            assert_eq!(cpu, Cpu::Portable);
        } else {
            assert_eq!(cpu.name(), "x86-64-v3");
        }
        if let Some(token) = cpu.x86v3() {
            assert_eq!(token.fast_pext(), !slow_pext());
        }
    }
}
