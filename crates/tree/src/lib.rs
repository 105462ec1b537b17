//! Exact game-tree builder (work in progress).
#![deny(missing_docs)]
