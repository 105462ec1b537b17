//! Whole-game tests: the core contract suite, perft, counts of reachable positions, a
//! cross-check against a slow reference board on every reachable position, notation round
//! trips and parser fuzzing.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

use yomi_core::testing::Contract;
use yomi_core::{
    perft, reference_playout, FinalScore, Game, HashKey, Outcome, Player, Rng, Symmetric,
};
use yomi_tictactoe::{LinePatterns, ParseBoardError, Square, TicTacToe};

/// Every position reachable from the empty board (the empty board included), in DFS order.
fn reachable() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(pos) = stack.pop() {
        if seen.insert(pos) {
            order.push(pos);
            stack.extend(pos.legal_moves().into_iter().map(|m| pos.play_unchecked(m)));
        }
    }
    order
}

// --- The contract suite -------------------------------------------------------------------

#[test]
fn contract_game() {
    let mut contract = Contract::<TicTacToe>::new(Square::ALL.to_vec());
    contract.playouts = 2_000;
    contract.starts = ["x...o....", "oo./xx./...", "oxo/oxx/xoo", "ooo/xx./..."]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    contract.check_game();
}

#[test]
fn contract_symmetries() {
    let mut contract = Contract::<TicTacToe>::new(Square::ALL.to_vec());
    contract.playouts = 2_000;
    contract.check_symmetries();
}

// --- perft and game counts -----------------------------------------------------------------

#[test]
fn perft_counts() {
    let expected = [9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872];
    for (depth, &nodes) in (1..=9).zip(&expected) {
        assert_eq!(
            perft(&TicTacToe::new(), depth).at_depth,
            nodes,
            "depth {depth}"
        );
    }
    // Every game is over after 9 plies, so standard perft at depth 9 counts all complete games.
    assert_eq!(perft(&TicTacToe::new(), 9).leaves(), 255_168);
    assert_eq!(perft(&TicTacToe::new(), 10).at_depth, 0);
}

/// Counts finished games by length and by outcome.
fn count_games(
    pos: &TicTacToe,
    depth: usize,
    by_depth: &mut [u64; 10],
    by_outcome: &mut HashMap<Outcome, u64>,
) {
    if let Some(outcome) = pos.outcome() {
        by_depth[depth] += 1;
        *by_outcome.entry(outcome).or_default() += 1;
        return;
    }
    for mv in pos.legal_moves() {
        count_games(&pos.play_unchecked(mv), depth + 1, by_depth, by_outcome);
    }
}

#[test]
fn complete_games() {
    let mut by_depth = [0u64; 10];
    let mut by_outcome = HashMap::new();
    count_games(&TicTacToe::new(), 0, &mut by_depth, &mut by_outcome);
    assert_eq!(by_depth.iter().sum::<u64>(), 255_168);
    assert_eq!(
        by_depth,
        [0, 0, 0, 0, 0, 1_440, 5_328, 47_952, 72_576, 127_872]
    );
    assert_eq!(by_outcome[&Outcome::Win(Player::First)], 131_184);
    assert_eq!(by_outcome[&Outcome::Win(Player::Second)], 77_904);
    assert_eq!(by_outcome[&Outcome::Draw], 46_080);
    // The same total from perft: the games that ended at each depth.
    let ended: u64 = (1..=9)
        .map(|d| {
            perft(&TicTacToe::new(), d).ended_early - perft(&TicTacToe::new(), d - 1).ended_early
        })
        .sum::<u64>()
        + perft(&TicTacToe::new(), 9).at_depth;
    assert_eq!(ended, 255_168);
}

// --- Reachable positions and symmetry ------------------------------------------------------

#[test]
fn reachable_positions_and_symmetry_classes() {
    let all = reachable();
    assert_eq!(all.len(), 5_478);
    let classes: HashSet<u64> = all.iter().map(Symmetric::canonical_key).collect();
    assert_eq!(classes.len(), 765);
    let finished: Vec<&TicTacToe> = all.iter().filter(|p| p.is_over()).collect();
    assert_eq!(finished.len(), 958);
    let finished_classes: HashSet<u64> = finished.iter().map(|p| p.canonical_key()).collect();
    assert_eq!(finished_classes.len(), 138);

    // The hash key is collision-free, and the canonical key is the least key of the images.
    let keys: HashSet<u64> = all.iter().map(HashKey::hash_key).collect();
    assert_eq!(keys.len(), all.len());
    for pos in &all {
        let least = (0..8).map(|s| pos.transform(s).hash_key()).min().unwrap();
        assert_eq!(pos.canonical_key(), least);
        assert_eq!(
            pos.hash_key(),
            u64::from(pos.o_bits()) | u64::from(pos.x_bits()) << 9
        );
    }
}

#[test]
fn from_bits_accepts_exactly_the_reachable_positions() {
    let reachable: HashSet<(u16, u16)> = reachable()
        .iter()
        .map(|p| (p.o_bits(), p.x_bits()))
        .collect();
    let mut accepted = 0;
    for code in 0..3u32.pow(9) {
        let (mut o, mut x, mut c) = (0u16, 0u16, code);
        for i in 0..9 {
            match c % 3 {
                1 => o |= 1 << i,
                2 => x |= 1 << i,
                _ => {}
            }
            c /= 3;
        }
        match TicTacToe::from_bits(o, x) {
            Ok(pos) => {
                accepted += 1;
                assert!(reachable.contains(&(o, x)), "accepted unreachable {pos}");
                assert_eq!((pos.o_bits(), pos.x_bits()), (o, x));
            }
            Err(e) => assert!(
                !reachable.contains(&(o, x)),
                "rejected a reachable board: {e}"
            ),
        }
    }
    assert_eq!(accepted, 5_478);
}

// --- Cross-check against a slow reference board -------------------------------------------

/// An obviously correct board: an array of cells and explicit coordinate lines.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Reference {
    cells: [Option<Player>; 9],
}

impl Reference {
    fn at(&self, x: usize, y: usize) -> Option<Player> {
        self.cells[y * 3 + x]
    }

    /// The 8 lines as lists of `(x, y)` coordinates.
    fn lines() -> Vec<[(usize, usize); 3]> {
        let mut lines = Vec::new();
        for i in 0..3 {
            lines.push([(0, i), (1, i), (2, i)]);
            lines.push([(i, 0), (i, 1), (i, 2)]);
        }
        lines.push([(0, 0), (1, 1), (2, 2)]);
        lines.push([(2, 0), (1, 1), (0, 2)]);
        lines
    }

    fn has_line(&self, player: Player) -> bool {
        Self::lines()
            .iter()
            .any(|line| line.iter().all(|&(x, y)| self.at(x, y) == Some(player)))
    }

    fn count(&self, player: Player) -> usize {
        self.cells.iter().filter(|&&c| c == Some(player)).count()
    }

    fn side(&self) -> Player {
        if self.count(Player::First) == self.count(Player::Second) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(Player::First) {
            Some(Outcome::Win(Player::First))
        } else if self.has_line(Player::Second) {
            Some(Outcome::Win(Player::Second))
        } else if self.cells.iter().all(Option::is_some) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn moves(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        if self.outcome().is_none() {
            for y in 0..3 {
                for x in 0..3 {
                    if self.at(x, y).is_none() {
                        moves.push((x, y));
                    }
                }
            }
        }
        moves
    }

    fn play(&self, (x, y): (usize, usize)) -> Reference {
        let mut next = *self;
        next.cells[y * 3 + x] = Some(self.side());
        next
    }

    fn patterns(&self, me: Player) -> BTreeMap<(u32, u32, u32), u32> {
        let mut counts = BTreeMap::new();
        for line in Self::lines() {
            let cells: Vec<Option<Player>> = line.iter().map(|&(x, y)| self.at(x, y)).collect();
            let mine = cells.iter().filter(|&&c| c == Some(me)).count() as u32;
            let empty = cells.iter().filter(|c| c.is_none()).count() as u32;
            *counts.entry((mine, 3 - mine - empty, empty)).or_insert(0) += 1;
        }
        counts
    }

    fn text(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Some(Player::First) => 'o',
                Some(Player::Second) => 'x',
                None => '.',
            })
            .collect()
    }
}

fn to_square((x, y): (usize, usize)) -> Square {
    Square::new(x as u8, y as u8).unwrap()
}

fn compare(reference: &Reference, pos: &TicTacToe) {
    let text = reference.text();
    assert_eq!(pos.to_string(), text);
    assert_eq!(text.parse::<TicTacToe>(), Ok(*pos));
    assert_eq!(pos.side_to_move(), reference.side(), "{text}");
    assert_eq!(pos.outcome(), reference.outcome(), "{text}");
    assert_eq!(pos.winner(), reference.outcome().and_then(Outcome::winner));
    assert_eq!(
        pos.final_score(),
        reference.outcome().map(|o| o.value_for(Player::First))
    );
    let moves: Vec<Square> = reference.moves().into_iter().map(to_square).collect();
    assert_eq!(pos.legal_moves().as_slice(), moves.as_slice(), "{text}");
    for sq in Square::ALL {
        assert_eq!(pos.cell(sq), reference.cells[sq.index()]);
        assert_eq!(pos.is_legal(sq), moves.contains(&sq), "{text} {sq}");
    }
    assert_eq!(
        pos.marks() as usize,
        9 - reference.cells.iter().filter(|c| c.is_none()).count()
    );
    for me in Player::BOTH {
        let fast = pos.patterns(me);
        let slow = reference.patterns(me);
        for (m, t, e) in LinePatterns::KEYS {
            let want = slow.get(&(m, t, e)).copied().unwrap_or(0);
            assert_eq!(fast.count(m, t, e), want, "{text} {me} {m}{t}{e}");
        }
        assert_eq!(fast.iter().map(|(_, n)| n).sum::<u32>(), 8);
    }
}

#[test]
fn bitboard_agrees_with_the_reference_everywhere() {
    let start = Reference { cells: [None; 9] };
    let mut seen = HashSet::new();
    let mut stack = vec![(start, TicTacToe::new())];
    while let Some((reference, pos)) = stack.pop() {
        if !seen.insert(reference) {
            continue;
        }
        compare(&reference, &pos);
        for mv in reference.moves() {
            let child = pos.play(to_square(mv)).unwrap();
            assert_eq!(child, pos.play_unchecked(to_square(mv)));
            stack.push((reference.play(mv), child));
        }
    }
    assert_eq!(seen.len(), 5_478);
}

// --- Random playouts -----------------------------------------------------------------------

#[test]
fn fast_playout_matches_the_reference_from_every_position() {
    for (i, pos) in reachable().iter().enumerate() {
        for seed in 0..4 {
            let mut fast_rng = Rng::for_stream(seed, i as u64);
            let mut slow_rng = fast_rng.clone();
            let fast = pos.random_playout(&mut fast_rng);
            assert_eq!(fast, reference_playout(pos, &mut slow_rng), "{pos}");
            assert_eq!(fast_rng, slow_rng, "{pos}");
        }
    }
}

/// The exact probabilities of (O wins, X wins, draw) under uniformly random play.
fn exact_playout(pos: &TicTacToe) -> [f64; 3] {
    match pos.outcome() {
        Some(Outcome::Win(Player::First)) => [1.0, 0.0, 0.0],
        Some(Outcome::Win(Player::Second)) => [0.0, 1.0, 0.0],
        Some(Outcome::Draw) => [0.0, 0.0, 1.0],
        None => {
            let moves = pos.legal_moves();
            let mut total = [0.0; 3];
            for &mv in moves.iter() {
                let p = exact_playout(&pos.play_unchecked(mv));
                for k in 0..3 {
                    total[k] += p[k] / moves.len() as f64;
                }
            }
            total
        }
    }
}

#[test]
fn playouts_are_uniformly_random() {
    let exact = exact_playout(&TicTacToe::new());
    let mut rng = Rng::seed_from_u64(11);
    let n = 400_000;
    let mut counts = [0u32; 3];
    for _ in 0..n {
        let k = match TicTacToe::new().random_playout(&mut rng) {
            Outcome::Win(Player::First) => 0,
            Outcome::Win(Player::Second) => 1,
            Outcome::Draw => 2,
        };
        counts[k] += 1;
    }
    for k in 0..3 {
        let rate = f64::from(counts[k]) / f64::from(n);
        assert!((rate - exact[k]).abs() < 0.004, "{counts:?} vs {exact:?}");
    }
}

// --- Notation ------------------------------------------------------------------------------

#[test]
fn notation_round_trips_for_every_reachable_position() {
    for pos in reachable() {
        let text = pos.to_string();
        assert_eq!(text.len(), 9);
        assert_eq!(text.parse::<TicTacToe>(), Ok(pos));
        let rows = format!("{}/{}/{}", &text[..3], &text[3..6], &text[6..]);
        assert_eq!(rows.parse::<TicTacToe>(), Ok(pos));
        assert_eq!(rows.to_uppercase().replace('/', " ").parse(), Ok(pos));
        // The pretty form's first three lines are the rows.
        let pretty = pos.pretty();
        let lines: Vec<&str> = pretty.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[..3].join("/"), rows);
        let status = match pos.outcome() {
            None => format!(
                "Turn {}",
                TicTacToe::PLAYER_NAMES[pos.side_to_move().index()]
            ),
            Some(Outcome::Win(Player::First)) => "o wins".to_string(),
            Some(Outcome::Win(Player::Second)) => "x wins".to_string(),
            Some(Outcome::Draw) => "draw".to_string(),
        };
        assert_eq!(lines[3], status);
    }
}

/// Parses `text` as a position and a square, failing the test (with the input) on a panic;
/// successful parses must round-trip.
fn parse_without_panic(text: &str) -> (bool, bool) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let board = text.parse::<TicTacToe>();
        if let Ok(pos) = board {
            assert_eq!(pos.to_string().parse::<TicTacToe>(), Ok(pos));
        }
        if let Err(e) = &board {
            assert!(!e.to_string().is_empty());
        }
        let square = text.parse::<Square>();
        if let Ok(sq) = square {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        if let Err(e) = &square {
            assert!(!e.to_string().is_empty());
        }
        (board.is_ok(), square.is_ok())
    }));
    result.unwrap_or_else(|_| panic!("parsing {text:?} panicked"))
}

#[test]
fn fuzz_parsers_with_random_bytes() {
    let mut rng = Rng::seed_from_u64(0xF022);
    for _ in 0..100_000 {
        let len = rng.below(24);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        parse_without_panic(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn fuzz_parsers_with_random_strings_of_the_alphabet() {
    const BOARD: &[char] = &['o', 'x', '.', 'O', 'X', '/', ' ', '-'];
    const SQUARE: &[char] = &['0', '1', '2', '(', ')', ',', ' ', '-'];
    const JUNK: &[char] = &[
        '3', '9', 'a', 'é', '\0', '\n', '\t', '\u{200B}', '🦀', '\u{FFFD}', '+', '#',
    ];
    let mut rng = Rng::seed_from_u64(0xA1FA);
    let (mut boards_ok, mut squares_ok) = (0, 0);
    for round in 0..200_000 {
        let alphabet = if round % 2 == 0 { BOARD } else { SQUARE };
        let len = if round % 2 == 0 {
            7 + rng.below(7)
        } else {
            rng.below(9)
        };
        let text: String = (0..len)
            .map(|_| {
                if rng.chance(0.03) {
                    JUNK[rng.below(JUNK.len())]
                } else {
                    alphabet[rng.below(alphabet.len())]
                }
            })
            .collect();
        let (board, square) = parse_without_panic(&text);
        boards_ok += u32::from(board);
        squares_ok += u32::from(square);
    }
    // The fuzzing reaches the success paths too.
    assert!(boards_ok > 100, "{boards_ok}");
    assert!(squares_ok > 1_000, "{squares_ok}");
}

#[test]
fn every_parse_error_variant_is_reachable() {
    let errors: Vec<ParseBoardError> = [
        "x...o...",
        "x...o...o?",
        "ooo......",
        "ooo/xxx/...",
        "ooo/xx./x..",
    ]
    .iter()
    .map(|t| t.parse::<TicTacToe>().unwrap_err())
    .chain([
        TicTacToe::from_bits(0x200, 0).unwrap_err(),
        TicTacToe::from_bits(1, 1).unwrap_err(),
    ])
    .collect();
    let kinds: HashSet<String> = errors
        .iter()
        .map(|e| {
            let debug = format!("{e:?}");
            debug[..debug.find([' ', '{']).unwrap_or(debug.len())].to_string()
        })
        .collect();
    let expected: HashSet<String> = [
        "Length",
        "BadChar",
        "Counts",
        "BothWin",
        "WinnerCounts",
        "OffBoard",
        "Overlap",
    ]
    .map(String::from)
    .into();
    assert_eq!(kinds, expected);
}
