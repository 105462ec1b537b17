//! What the solver's test files share.

use yomi_othello::ObfPosition;

/// The positions of an FFO file shipped under `data/ffo/`.
pub fn ffo(file: &str) -> Vec<ObfPosition> {
    let path = format!("{}/../../data/ffo/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.parse().expect("valid OBF"))
        .collect()
}
