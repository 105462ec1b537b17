//! The held-out test sets under `data/eval/` (made once by `yomi train label` from games of
//! seeds never trained on; commands and digests in `docs/eval.md`): they load, hold what
//! they should, and the committed evaluations have their documented errors on them.

use std::path::PathBuf;

use yomi_othello_eval::{HandEval, Weights, FEATURES};
use yomi_othello_train::LabelSet;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name)
}

/// Mean absolute errors in hundredths of a disc, rounded as docs/eval.md prints them.
fn centi(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

#[test]
fn the_held_out_sets_load_and_the_committed_evaluations_have_their_documented_errors() {
    let round2 = Weights::read(&data("othello-round2.weights")).unwrap();
    let round3 = Weights::read(&data("othello-round3.weights")).unwrap();
    // The second generation's first file: patterns and the two global features, built in.
    let round4 = Weights::read(&data("othello-round4.weights")).unwrap();
    assert_eq!(&round4, &*Weights::builtin());
    assert_eq!(round4.features(), &FEATURES[..]);
    assert!(round4
        .about()
        .contains("--blend 0.75 --features mobility,potential"));
    // (file, seed, empties, positions, round 2, round 3, round 4, hand), from docs/eval.md.
    let table = [
        ("well7-20.labels", 7, 20, 2397, 635, 598, 590, 1179),
        ("test2-20.labels", 2, 20, 2397, 741, 703, 689, 1440),
        ("well7-24-s4.labels", 7, 24, 600, 578, 551, 540, 1168),
    ];
    for (name, seed, empties, n, r2, r3, r4, hand) in table {
        let path = data("eval").join(name);
        let s = LabelSet::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(s.config.games.seed, seed, "{name}");
        assert_eq!(s.config.empties, empties, "{name}");
        assert_eq!(s.positions.len(), n, "{name}");
        let (count, e2) = s.error(&round2).unwrap();
        assert_eq!(count, n);
        assert_eq!(centi(e2), r2, "{name}: round 2");
        assert_eq!(centi(s.error(&round3).unwrap().1), r3, "{name}: round 3");
        assert_eq!(centi(s.error(&round4).unwrap().1), r4, "{name}: round 4");
        assert_eq!(centi(s.error(&HandEval).unwrap().1), hand, "{name}: hand");
    }
}
