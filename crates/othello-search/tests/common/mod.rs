//! What the solver's test files share.

use yomi_othello::ObfPosition;
use yomi_othello_search::FfoSuite;

/// The positions of an FFO file of the suite (`data/ffo/`), loaded through [`FfoSuite`].
pub fn ffo(file: &str) -> Vec<ObfPosition> {
    let suite = FfoSuite::load().expect("the built-in FFO suite");
    suite.file(file).unwrap_or_else(|e| panic!("{e}")).to_vec()
}
