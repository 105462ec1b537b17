use super::*;

fn small() -> GameConfig {
    GameConfig {
        seed: 7,
        games: 6,
        random_min: 20,
        random_max: 24,
        depth: 2,
        exact: 12,
        player: "hand".into(),
    }
}

#[test]
fn games_replay_and_do_not_depend_on_threads_or_shards() {
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let one = generate(&config, Shard::ALL, 1, &picker, &|_| {}).unwrap();
    let two = generate(&config, Shard::ALL, 2, &picker, &|_| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.games.len(), 6);
    let a = generate(&config, "0/2".parse().unwrap(), 2, &picker, &|_| {}).unwrap();
    let b = generate(&config, "1/2".parse().unwrap(), 1, &picker, &|_| {}).unwrap();
    assert_eq!(a.games.len(), 3);
    let merged = GameSet::merge(vec![b.clone(), a.clone()]).unwrap();
    assert_eq!(merged, one);
    assert!(matches!(
        GameSet::merge(vec![a.clone(), a.clone()]),
        Err(TrainError::Mismatch(_))
    ));
    for g in &one.games {
        let samples = g.samples(config.exact).unwrap();
        assert!(samples.iter().all(|s| s.label.abs() <= 64));
        // From `exact` empties on both sides play perfectly: the label is the solved value.
        let mut solver =
            yomi_othello_search::Solver::new(yomi_othello_search::SolverConfig::default()).unwrap();
        let s = samples.iter().find(|s| s.exact).unwrap();
        assert_eq!(
            solver.solve(&s.pos, yomi_othello_search::Mode::Exact).score,
            s.label
        );
    }
    // The file round-trips; a changed byte is caught.
    let bytes = one.encode().unwrap();
    assert_eq!(GameSet::decode(&bytes).unwrap(), one);
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(GameSet::decode(&bad).is_err());
}

#[test]
fn shards_parse() {
    assert_eq!(
        "3/4".parse::<Shard>().unwrap(),
        Shard { index: 3, count: 4 }
    );
    assert_eq!(Shard { index: 3, count: 4 }.to_string(), "3/4");
    for bad in ["4/4", "1/0", "x", "1", "-1/2", "1/2/3"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
}

#[test]
fn fitting_synthetic_labels_recovers_the_weights_that_made_them() {
    use yomi_core::{Game, Rng};
    use yomi_othello::Othello;
    use yomi_othello_eval::{Evaluator, Layout, Weights};
    let layout = Layout::get();
    // Known weights: one phase, a bias and a few corner and edge configurations, in hundredths.
    let mut t = vec![0i16; layout.compact_len()];
    t[0] = 150;
    let mut rng = Rng::seed_from_u64(8);
    // Every 3x3-corner configuration with at most two discs gets a random weight.
    let mut chosen = Vec::new();
    for i in 0..19_683usize {
        let discs = (0..9).filter(|k| (i / 3usize.pow(*k)) % 3 != 0).count();
        if discs <= 2 && layout.canonical(1, i) == i {
            let v = rng.below(801) as i16 - 400;
            t[layout.compact_index(1, i)] = v;
            chosen.push(i);
        }
    }
    let truth = Weights::from_tables("truth", vec![t.clone()]).unwrap();
    // Positions from random games before move 24 (corners then hold few discs), labelled by
    // the true weights, in discs. The labels are exact, so the fit can reach them.
    let mut rows = Vec::new();
    for _ in 0..3000 {
        let mut pos = Othello::new();
        for _ in 0..rng.below(24) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let (p, o) = (pos.player().0, pos.opponent().0);
        // The bias and the four 3x3 corners (after the four edges): the model the labels
        // came from, so its weights are what the fit must find.
        let all = layout.features(p, o);
        let features = std::iter::once(all[0]).chain(all[5..9].iter().copied());
        rows.push(Row {
            features: features.map(|i| i as u32).collect(),
            label: f64::from(truth.evaluate(p, o)) / 100.0,
            discs: 64 - pos.empties().count(),
        });
    }
    let (train, valid) = rows.split_at(2500);
    let config = FitConfig {
        phases: 1,
        l2: 1e-7,
        rate: 0.02,
        epochs: 3000,
        patience: 200,
        ..FitConfig::default()
    };
    let (w, reports) = fit(train, valid, &config, "synthetic").unwrap();
    assert!(reports[0].valid_mae < 0.05, "{reports:?}");
    // The differences between configurations of one placement are identifiable (a constant
    // may move between a pattern and the bias): compare each seen configuration's weight
    // against the empty corner's, in truth and as fitted.
    let fitted = w.table(0);
    let empty = layout.compact_index(1, 0);
    let mut compared = 0;
    for &i in &chosen {
        let c = layout.compact_index(1, i);
        let seen = train
            .iter()
            .filter(|r| r.features.contains(&(c as u32)))
            .count();
        if seen >= 30 {
            let want = i32::from(t[c]) - i32::from(t[empty]);
            let got = i32::from(fitted[c]) - i32::from(fitted[empty]);
            assert!(
                (want - got).abs() <= 5,
                "configuration {i}: {want} vs {got}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 10, "{compared}");
    // The same rows give the same weights with more threads.
    let again = fit(
        train,
        valid,
        &FitConfig {
            threads: 2,
            ..config
        },
        "synthetic",
    )
    .unwrap();
    assert_eq!(again.0, w);
}
