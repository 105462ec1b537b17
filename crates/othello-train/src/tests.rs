use super::*;
use yomi_core::Shard;

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
    let one = generate(&config, Shard::WHOLE, 1, &picker, &|_| {}).unwrap();
    let two = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
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

#[test]
fn one_phase_fits_as_the_whole_fit_and_learns_extra_entries() {
    use yomi_core::Rng;
    use yomi_othello_eval::Layout;
    let len = Layout::get().compact_len();
    // Ten categories with known values (discs); a row is the bias and its category's entry,
    // at 40-44 discs (phase 7 of 12).
    let values = [-6.0, -4.5, -3.0, -1.0, 0.0, 0.5, 2.0, 3.5, 5.0, 8.0];
    let mut rng = Rng::seed_from_u64(3);
    let make = |first: usize, rng: &mut Rng| -> Vec<Row> {
        (0..2000)
            .map(|_| {
                let c = rng.below(values.len());
                Row {
                    features: vec![0, (first + c) as u32],
                    label: values[c],
                    discs: 40 + rng.below(5) as u32,
                }
            })
            .collect()
    };
    let config = FitConfig {
        l2: 1e-7,
        rate: 0.05,
        epochs: 2000,
        patience: 100,
        ..FitConfig::default()
    };
    // Entries 1-10 of the layout: the same weights as the whole fit's phase 7, rounded.
    let rows = make(1, &mut rng);
    let (train, valid) = rows.split_at(1600);
    let (w, report) = fit_one_phase(7, train, valid, &config, len).unwrap();
    let (whole, reports) = fit(train, valid, &config, "synthetic").unwrap();
    assert_eq!(report, reports[7]);
    let rounded: Vec<i16> = w.iter().map(|x| (x * 100.0).round() as i16).collect();
    assert_eq!(&rounded[..], whole.table(7));
    // Extra entries after the layout's: learned, up to the constant the bias takes.
    let rows = make(len, &mut rng);
    let (train, valid) = rows.split_at(1600);
    let (w, report) = fit_one_phase(7, train, valid, &config, len + values.len()).unwrap();
    assert!(report.valid_mae < 0.05, "{report:?}");
    for (c, v) in values.iter().enumerate() {
        let got = w[0] + w[len + c];
        assert!((got - v).abs() < 0.05, "category {c}: {got} against {v}");
    }
    // Entries beyond the table, a phase beyond the phases and no rows are errors.
    assert!(matches!(
        fit_one_phase(7, train, valid, &config, len),
        Err(TrainError::Mismatch(_))
    ));
    assert!(matches!(
        fit_one_phase(12, train, valid, &config, len + 10),
        Err(TrainError::Mismatch(_))
    ));
    assert!(matches!(
        fit_one_phase(7, &[], valid, &config, len + 10),
        Err(TrainError::NoInput)
    ));
    let empty_rows = [Row {
        features: Vec::new(),
        label: 1.0,
        discs: 42,
    }];
    assert!(matches!(
        fit_one_phase(7, &empty_rows, &[], &config, 0),
        Err(TrainError::Mismatch(_))
    ));
}

/// The exact score from the side to move by plain negamax (no table, no ordering): the slow
/// reference for the labels.
fn negamax(pos: &yomi_othello::Othello, mut alpha: i32, beta: i32) -> i32 {
    use yomi_core::Game;
    if pos.game_over() {
        return pos.final_score_for_mover();
    }
    let mut best = -65;
    for mv in pos.legal_moves() {
        let v = -negamax(&pos.play_unchecked(mv), -beta, -alpha);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

#[test]
fn labels_are_the_exact_scores_and_do_not_depend_on_threads_or_shards() {
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let games = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
    // At 10 empties: every label is the slow reference's score of the game's position.
    let (ten, stats) = label(&games, 10, Shard::WHOLE, 1, 16, &|_| {}).unwrap();
    assert_eq!(ten.positions.len(), 6, "{ten:?}");
    assert_eq!(stats.solves, 6);
    assert!(stats.nodes > 0);
    for (l, g) in ten.positions.iter().zip(&games.games) {
        assert_eq!(l.game, g.index);
        let pos = l.position().unwrap();
        assert_eq!(Some(pos), position_at(g, 10).unwrap());
        assert_eq!(pos.empties().count(), 10);
        assert_eq!(
            i32::from(l.score),
            negamax(&pos, -65, 65),
            "game {}",
            l.game
        );
    }
    // At the games' exact threshold the label is also the game's own (perfectly played)
    // result from that position.
    let (twelve, _) = label(&games, config.exact, Shard::WHOLE, 2, 16, &|_| {}).unwrap();
    assert!(!twelve.positions.is_empty());
    for l in &twelve.positions {
        let g = &games.games[l.game as usize];
        let s = g
            .samples(config.exact)
            .unwrap()
            .into_iter()
            .find(|s| s.pos.empties().count() == config.exact)
            .unwrap();
        assert!(s.exact);
        assert_eq!(s.pos, l.position().unwrap());
        assert_eq!(i32::from(l.score), s.label);
    }
    // Threads and shards do not change the file.
    let (two, _) = label(&games, 10, Shard::WHOLE, 2, 16, &|_| {}).unwrap();
    assert_eq!(two, ten);
    let (a, _) = label(&games, 10, "0/2".parse().unwrap(), 2, 16, &|_| {}).unwrap();
    let (b, _) = label(&games, 10, "1/2".parse().unwrap(), 1, 16, &|_| {}).unwrap();
    assert_eq!(a.positions.len() + b.positions.len(), 6);
    assert_eq!(LabelSet::merge(vec![b, a.clone()]).unwrap(), ten);
    assert!(matches!(
        LabelSet::merge(vec![a.clone(), a.clone()]),
        Err(TrainError::Mismatch(_))
    ));
    assert!(matches!(
        LabelSet::merge(vec![a, twelve.clone()]),
        Err(TrainError::Mismatch(_))
    ));
    assert!(matches!(
        label(&games, MAX_LABEL_EMPTIES + 1, Shard::WHOLE, 1, 16, &|_| {}),
        Err(TrainError::TooManyEmpties(_))
    ));
    // The error of an evaluation is the mean of |value / 100 - score|.
    let hand = HandEval;
    let (n, mae) = ten.error(&hand).unwrap();
    let want: f64 = ten
        .positions
        .iter()
        .map(|l| {
            use yomi_othello_eval::Evaluator;
            let p = l.position().unwrap();
            (f64::from(hand.evaluate(p.player().0, p.opponent().0)) / 100.0 - f64::from(l.score))
                .abs()
        })
        .sum::<f64>()
        / 6.0;
    assert_eq!((n, mae), (6, want));
}

#[test]
fn label_files_round_trip_and_reject_corruption() {
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let games = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
    let (set, _) = label(&games, 10, Shard::WHOLE, 2, 16, &|_| {}).unwrap();
    let bytes = set.encode().unwrap();
    assert_eq!(LabelSet::decode(&bytes).unwrap(), set);
    let path = std::env::temp_dir().join(format!("yomi-train-label-{}.labels", std::process::id()));
    set.write(&path).unwrap();
    assert_eq!(LabelSet::read(&path).unwrap(), set);
    let _ = std::fs::remove_file(&path);
    // A changed byte anywhere is caught by the container.
    for at in [0, 9, bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 1;
        assert!(LabelSet::decode(&bad).is_err(), "byte {at}");
    }
    // A game file is not a labelled position file, and the other way round.
    assert!(matches!(
        LabelSet::decode(&games.encode().unwrap()),
        Err(TrainError::Container(_))
    ));
    assert!(matches!(
        GameSet::decode(&bytes),
        Err(TrainError::Container(_))
    ));
    // Sound containers with unsound contents: each is a typed error.
    let reencode = |f: &dyn Fn(&mut LabelSet)| {
        let mut s = set.clone();
        f(&mut s);
        LABEL_FILE
            .encode(LABEL_TAG, s.positions.len() as u64, &s)
            .unwrap()
    };
    type Corrupt = Box<dyn Fn(&mut LabelSet)>;
    let cases: [(&str, Corrupt); 6] = [
        (
            "overlap",
            Box::new(|s| s.positions[0].white |= s.positions[0].black),
        ),
        ("empties", Box::new(|s| s.config.empties = 11)),
        ("score", Box::new(|s| s.positions[0].score = 65)),
        ("order", Box::new(|s| s.positions.swap(0, 1))),
        ("run", Box::new(|s| s.config.games.games = 1)),
        (
            "no move",
            Box::new(|s| {
                // Black to move with only black discs and ten empties: no legal move.
                s.positions[0].black |= s.positions[0].white;
                s.positions[0].white = 0;
            }),
        ),
    ];
    for (what, f) in &cases {
        let err = LabelSet::decode(&reencode(f.as_ref())).unwrap_err();
        assert!(
            matches!(err, TrainError::BadLabel { .. } | TrainError::Mismatch(_)),
            "{what}: {err:?}"
        );
    }
    let mut more = set.clone();
    more.positions.pop();
    let wrong_count = LABEL_FILE
        .encode(LABEL_TAG, set.positions.len() as u64, &more)
        .unwrap();
    assert!(matches!(
        LabelSet::decode(&wrong_count),
        Err(TrainError::Mismatch(_))
    ));
}

#[test]
fn phase_errors_group_the_held_out_positions_by_phase() {
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let games = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
    let sets = [games.clone()];
    let hand = HandEval;
    // Every game (holdout 1), one phase: the mean over all samples.
    let all: Vec<Sample> = games
        .games
        .iter()
        .flat_map(|g| g.samples(config.exact).unwrap())
        .collect();
    let want = all
        .iter()
        .map(|s| {
            use yomi_othello_eval::Evaluator;
            (f64::from(hand.evaluate(s.pos.player().0, s.pos.opponent().0)) / 100.0
                - f64::from(s.label))
            .abs()
        })
        .sum::<f64>()
        / all.len() as f64;
    let one = phase_errors(&hand, &sets, 1, 1).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].0, all.len());
    assert!((one[0].1 - want).abs() < 1e-9);
    // Twelve phases hold the same positions; holdout 2 keeps the even games only.
    let twelve = phase_errors(&hand, &sets, 1, 12).unwrap();
    assert_eq!(twelve.iter().map(|p| p.0).sum::<usize>(), all.len());
    let even: usize = games
        .games
        .iter()
        .filter(|g| g.index % 2 == 0)
        .map(|g| g.samples(config.exact).unwrap().len())
        .sum();
    let held = phase_errors(&hand, &sets, 2, 12).unwrap();
    assert_eq!(held.iter().map(|p| p.0).sum::<usize>(), even);
    assert!(matches!(
        phase_errors(&hand, &sets, 1, 0),
        Err(TrainError::Mismatch(_))
    ));
}

#[test]
fn wthor_games_become_a_game_set_that_replays() {
    use yomi_core::testing::random_game_line;
    use yomi_core::{Game, Rng};
    use yomi_othello::wthor::GameRecord as WthorGame;
    use yomi_othello::Othello;
    // Finished random games (passes included where they fall), one cut short and one whose
    // recorded score is wrong: the last two are left out.
    let mut games = Vec::new();
    for seed in 0..5u64 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        games.push(WthorGame::from_line(&line).unwrap());
        if seed == 0 {
            games.push(WthorGame::from_line(&line[..30]).unwrap());
            let mut wrong = WthorGame::from_line(&line).unwrap();
            wrong.black_score = (wrong.black_score + 2) % 65;
            games.push(wrong);
        }
    }
    let (set, skipped) = GameSet::from_wthor("test.wtb", &games);
    assert_eq!(skipped, 2);
    assert_eq!(set.games.len(), 5);
    assert_eq!(set.config.player, "wthor:test.wtb");
    assert_eq!(set.config.games, 5);
    for (i, g) in set.games.iter().enumerate() {
        assert_eq!(g.index, i as u64);
        let positions = g.positions().unwrap();
        let end = positions.last().unwrap();
        let black = end.final_score_for_mover() * end.side_to_move().sign();
        assert!(end.is_over());
        assert_eq!(black, i32::from(g.score));
        // Every sample is labelled with the result from its side; nothing is exact.
        for s in g.samples(set.config.exact).unwrap() {
            let black = i32::from(g.score);
            let want = if s.pos.side_to_move() == yomi_core::Player::First {
                black
            } else {
                -black
            };
            assert_eq!(s.label, want);
            assert!(!s.exact);
        }
    }
    // The set round-trips through its file format.
    let bytes = set.encode().unwrap();
    assert_eq!(GameSet::decode(&bytes).unwrap(), set);
}

/// Plain minimax to `depth` plies with the hand-made evaluation, as the midgame search counts
/// them (a pass uses no ply; finished games score their disc difference times
/// `FINAL_SCALE`): the slow reference for search values.
fn minimax(pos: &yomi_othello::Othello, depth: u32) -> i32 {
    use yomi_core::Game;
    use yomi_othello_eval::Evaluator;
    if pos.game_over() {
        return pos.final_score_for_mover() * yomi_othello_search::FINAL_SCALE;
    }
    let moves = pos.legal_moves();
    if moves.len() == 1 && moves[0] == yomi_othello::Move::Pass {
        return -minimax(&pos.play_unchecked(moves[0]), depth);
    }
    if depth == 0 {
        return HandEval.evaluate(pos.player().0, pos.opponent().0);
    }
    moves
        .into_iter()
        .map(|mv| -minimax(&pos.play_unchecked(mv), depth - 1))
        .max()
        .expect("a legal move")
}

#[test]
fn search_values_are_minimax_values_and_do_not_depend_on_threads_or_shards() {
    use std::sync::Arc;
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let games = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
    let hand: Arc<dyn yomi_othello_eval::Evaluator> = Arc::new(HandEval);
    let name = evaluator_name(None).unwrap();
    assert_eq!(name, "hand");
    let run = |shard: &str, threads| {
        let shard = shard.parse().unwrap();
        search_values(
            &games,
            3,
            None,
            hand.clone(),
            &name,
            shard,
            threads,
            &|_| {},
        )
        .unwrap()
    };
    let (one, stats) = run("0/1", 1);
    assert_eq!(one.games.len(), 6);
    assert_eq!(one.config.depth, 3);
    assert_eq!(one.config.games, config);
    let mut positions = 0;
    for (v, g) in one.games.iter().zip(&games.games) {
        assert_eq!(v.game, g.index);
        let open: Vec<_> = g
            .samples(config.exact)
            .unwrap()
            .into_iter()
            .filter(|s| !s.exact)
            .collect();
        assert_eq!(v.values.len(), open.len());
        assert!(!open.is_empty());
        for (s, &value) in open.iter().zip(&v.values) {
            let m = minimax(&s.pos, 3);
            let want = if m.abs() >= yomi_othello_search::FINAL_SCALE / 2 {
                m / yomi_othello_search::FINAL_SCALE * 100
            } else {
                m
            };
            assert_eq!(i32::from(value), want, "game {}", g.index);
        }
        positions += open.len() as u64;
    }
    assert_eq!(stats.positions, positions);
    assert!(stats.nodes > 0);
    // Threads and shards do not change the file.
    assert_eq!(run("0/1", 2).0, one);
    let (a, _) = run("0/2", 2);
    let (b, _) = run("1/2", 1);
    assert_eq!(a.games.len(), 3);
    let merged = ValueSet::merge(vec![b, a.clone()]).unwrap();
    assert_eq!(merged.encode().unwrap(), one.encode().unwrap());
    assert!(matches!(
        ValueSet::merge(vec![a.clone(), a.clone()]),
        Err(TrainError::Mismatch(_))
    ));
    // Shards of another search are refused.
    let other = search_values(
        &games,
        2,
        None,
        hand.clone(),
        &name,
        "1/2".parse().unwrap(),
        1,
        &|_| {},
    )
    .unwrap()
    .0;
    assert!(matches!(
        ValueSet::merge(vec![a, other]),
        Err(TrainError::Mismatch(_))
    ));
    assert!(matches!(
        search_values(&games, 0, None, hand, &name, Shard::WHOLE, 1, &|_| {}),
        Err(TrainError::Mismatch(_))
    ));
    // The file round-trips; corruption, truncation and a foreign file are typed errors.
    let bytes = one.encode().unwrap();
    assert_eq!(ValueSet::decode(&bytes).unwrap(), one);
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(matches!(
        ValueSet::decode(&bad),
        Err(TrainError::Container(_))
    ));
    assert!(matches!(
        ValueSet::decode(&bytes[..bytes.len() - 3]),
        Err(TrainError::Container(_))
    ));
    assert!(matches!(
        ValueSet::decode(&games.encode().unwrap()),
        Err(TrainError::Container(_))
    ));
}

#[test]
fn rows_blend_search_values_and_leave_out_test_positions() {
    use std::sync::Arc;
    let config = small();
    let picker = || Box::new(SearchPicker::hand()) as Box<dyn MovePicker + Send>;
    let games = generate(&config, Shard::WHOLE, 2, &picker, &|_| {}).unwrap();
    let hand: Arc<dyn yomi_othello_eval::Evaluator> = Arc::new(HandEval);
    let (values, _) = search_values(
        &games,
        2,
        None,
        hand.clone(),
        "hand",
        Shard::WHOLE,
        2,
        &|_| {},
    )
    .unwrap();
    let sets = [games.clone()];
    let (train, valid) = rows(&sets, 3).unwrap();
    // Blend 0 is the games' results; the counts say how many labels had a value.
    let source = |blend| RowSource {
        values: vec![values.clone()],
        blend,
        ..RowSource::default()
    };
    let (t0, v0, c0) = rows_from(&sets, 3, &source(0.0)).unwrap();
    assert_eq!((&t0, &v0), (&train, &valid));
    let open: usize = values.games.iter().map(|g| g.values.len()).sum();
    assert_eq!(
        c0,
        RowCounts {
            blended: open,
            excluded: 0
        }
    );
    // Blend 1 is the search value where a label is not exact, the result where it is; a
    // quarter is the mix.
    let (t1, _, _) = rows_from(&sets, 3, &source(1.0)).unwrap();
    let (tq, _, _) = rows_from(&sets, 3, &source(0.25)).unwrap();
    let mut expected = Vec::new();
    for g in games.games.iter().filter(|g| g.index % 3 != 0) {
        let mut vals = values.game(g.index).unwrap().values.iter();
        for s in g.samples(config.exact).unwrap() {
            let v = if s.exact {
                None
            } else {
                Some(f64::from(*vals.next().unwrap()) / 100.0)
            };
            expected.push((f64::from(s.label), v));
        }
    }
    assert_eq!(expected.len(), t1.len());
    for ((result, value), (r1, rq)) in expected.iter().zip(t1.iter().zip(&tq)) {
        assert_eq!(r1.label, value.unwrap_or(*result));
        assert_eq!(
            rq.label,
            value.map_or(*result, |v| 0.25 * v + 0.75 * result)
        );
    }
    assert!(expected.iter().any(|e| e.1.is_some_and(|v| v != e.0)));
    // Values that do not belong to the games are refused.
    let mut short = values.clone();
    short.games[1].values.pop();
    let mut missing = values.clone();
    missing.games.remove(2);
    let (other, _) =
        search_values(&games, 2, None, hand, "hand", Shard::WHOLE, 2, &|_| {}).unwrap();
    let mut foreign = other;
    foreign.config.games.seed += 1;
    for bad in [short, missing, foreign] {
        let s = RowSource {
            values: vec![bad],
            blend: 0.5,
            ..RowSource::default()
        };
        assert!(matches!(
            rows_from(&sets, 3, &s),
            Err(TrainError::Mismatch(_))
        ));
    }
    assert!(matches!(
        rows_from(&sets, 3, &source(1.5)),
        Err(TrainError::Mismatch(_))
    ));
    // A test position is left out under any of its symmetries.
    let (set10, _) = label(&games, 10, Shard::WHOLE, 1, 16, &|_| {}).unwrap();
    let mut images = set10.clone();
    for (k, l) in images.positions.iter_mut().enumerate() {
        let p = yomi_core::Symmetric::transform(&l.position().unwrap(), k % 8);
        *l = Labelled::new(l.game, &p, i32::from(l.score));
    }
    for test in [set10, images] {
        let s = RowSource {
            exclude: RowSource::exclusions(std::slice::from_ref(&test)).unwrap(),
            ..RowSource::default()
        };
        let (t, v, c) = rows_from(&sets, 3, &s).unwrap();
        assert_eq!(c.excluded, test.positions.len());
        assert_eq!(t.len() + v.len() + c.excluded, train.len() + valid.len());
    }
}

#[test]
fn fitting_synthetic_labels_recovers_the_mobility_weights_that_made_them() {
    use yomi_core::{Game, Rng};
    use yomi_othello::Othello;
    use yomi_othello_eval::{table_len, Evaluator, Feature, Layout, Weights};
    let layout = Layout::get();
    let features = [Feature::Mobility];
    // Known weights: one phase, a bias, and a mobility curve for each side.
    let mut t = vec![0i16; table_len(&features)];
    t[0] = 50;
    let m = layout.compact_len();
    for k in 0..41 {
        t[m + k] = (30 * k as i32 - (k * k) as i32) as i16;
        t[m + 41 + k] = -(20 * k as i16);
    }
    let truth = Weights::with_features("truth", &features, vec![t.clone()]).unwrap();
    let mut rng = Rng::seed_from_u64(9);
    let mut rows = Vec::new();
    for _ in 0..3000 {
        let mut pos = Othello::new();
        for _ in 0..rng.below(40) {
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            if pos.game_over() {
                break;
            }
        }
        if pos.game_over() {
            continue;
        }
        let (p, o) = (pos.player().0, pos.opponent().0);
        // The bias and the mobility entries only: the model the labels came from.
        let sample = Sample {
            pos,
            label: 0,
            exact: false,
        };
        let all = Row::with_features(&sample, &features);
        assert_eq!(all.features.len(), 47 + 2);
        let mut row = Row {
            features: vec![all.features[0], all.features[47], all.features[48]],
            label: f64::from(truth.evaluate(p, o)) / 100.0,
            discs: all.discs,
        };
        row.features.sort_unstable();
        rows.push(row);
    }
    let (train, valid) = rows.split_at(2500);
    let config = FitConfig {
        phases: 1,
        l2: 1e-7,
        rate: 0.02,
        epochs: 3000,
        patience: 200,
        features: features.to_vec(),
        ..FitConfig::default()
    };
    let (w, reports) = fit(train, valid, &config, "synthetic").unwrap();
    assert!(reports[0].valid_mae < 0.05, "{reports:?}");
    assert_eq!(w.features(), &features[..]);
    // Differences between mobility values seen often are identifiable.
    let fitted = w.table(0);
    let seen = |e: usize| {
        train
            .iter()
            .filter(|r| r.features.contains(&(e as u32)))
            .count()
    };
    let mut compared = 0;
    for side in [0, 41] {
        let base = (0..41)
            .map(|k| m + side + k)
            .max_by_key(|&e| seen(e))
            .unwrap();
        for k in 0..41 {
            let e = m + side + k;
            if seen(e) >= 30 {
                let want = i32::from(t[e]) - i32::from(t[base]);
                let got = i32::from(fitted[e]) - i32::from(fitted[base]);
                assert!((want - got).abs() <= 5, "entry {e}: {want} vs {got}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "{compared}");
    // Rows without the features' entries do not fit a model without room for them.
    let plain = FitConfig {
        features: Vec::new(),
        ..config
    };
    assert!(matches!(
        fit(train, valid, &plain, "x"),
        Err(TrainError::Mismatch(_))
    ));
}
