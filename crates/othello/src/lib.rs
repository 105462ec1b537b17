//! Othello on 64-bit bitboards (work in progress).
#![deny(missing_docs)]
