//! Tests of reading and writing WTHOR files: a file assembled byte by byte from the format's
//! description, writer-to-reader round trips of random games and names, the rejection of
//! malformed files, and mangled or random bytes that must never panic.

use yomi_core::{FinalScore, Game, Rng};

use super::*;
use crate::{ggf, Move, Othello, Square};

fn line(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

fn sq(text: &str) -> Square {
    text.parse().unwrap()
}

/// A random game from the start: to the end, or stopped after `max` moves.
fn random_game(rng: &mut Rng, max: usize) -> Vec<Move> {
    let mut pos = Othello::new();
    let mut moves = Vec::new();
    while !pos.is_over() && moves.len() < max {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        moves.push(mv);
        pos = pos.play_unchecked(mv);
    }
    moves
}

/// The header of the fixture: made 17 May 2024, `games` games played in 2024, 8x8, game
/// type 0, theoretical scores from 22 empties.
fn fixture_header(games: u8) -> Vec<u8> {
    vec![20, 24, 5, 17, games, 0, 0, 0, 0, 0, 0xE8, 0x07, 8, 0, 22, 0]
}

/// A game record: tournament, black, white (little-endian u16), the scores, the move bytes
/// padded with 0 to 60.
fn fixture_game(ids: [u16; 3], score: u8, theoretical: u8, moves: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    for id in ids {
        b.extend_from_slice(&id.to_le_bytes());
    }
    b.push(score);
    b.push(theoretical);
    b.extend_from_slice(moves);
    b.resize(68, 0);
    b
}

/// The shortest game (9 moves, black wipes white out 13-0, 51 empty squares: black's score is
/// 64): f5 f4 c3 c6 c5 d6 f3 c4 c7, each square `10 * row + column`.
const WIPEOUT: [u8; 9] = [56, 46, 33, 63, 53, 64, 36, 43, 73];

/// A game where white must pass before black's last move (black wins 18-0, score 64):
/// e6 f6 c4 e7 g7 g5 e8 d8 c8 c3 b2 e3 e2 (white passes) h4.
const WITH_PASS: [u8; 14] = [65, 66, 43, 75, 77, 57, 85, 84, 83, 33, 22, 35, 25, 48];

fn fixture_file() -> Vec<u8> {
    let mut b = fixture_header(2);
    b.extend(fixture_game([3, 1, 0], 64, 64, &WIPEOUT));
    b.extend(fixture_game([0, 0x0102, 1], 64, 60, &WITH_PASS));
    b
}

#[test]
fn the_header_is_read_field_by_field() {
    let bytes = [
        19, 99, 12, 31, 0x10, 0x27, 0, 0, 0x34, 0x12, 0xC7, 0x07, 0, 1, 24, 7,
    ];
    let h = Header::from_bytes(&bytes).unwrap();
    assert_eq!(
        h,
        Header {
            century: 19,
            year: 99,
            month: 12,
            day: 31,
            games: 10_000,
            names: 0x1234,
            game_year: 1991,
            board_size: 0,
            game_type: 1,
            depth: 24,
            reserved: 7,
        }
    );
    assert_eq!(h.created_year(), 1999);
    assert!(h.is_8x8());
    assert_eq!(h.to_bytes(), bytes);
    assert_eq!(
        Header::from_bytes(&bytes[..15]),
        Err(WthorError::TruncatedHeader { len: 15 })
    );
}

#[test]
fn a_file_assembled_byte_by_byte_reads_field_by_field() {
    let bytes = fixture_file();
    assert_eq!(bytes.len(), 16 + 2 * 68);
    let file = GameFile::read(&bytes).unwrap();
    let h = file.header;
    assert_eq!((h.century, h.year, h.month, h.day), (20, 24, 5, 17));
    assert_eq!((h.games, h.names, h.game_year), (2, 0, 2024));
    assert_eq!((h.board_size, h.game_type, h.depth), (8, 0, 22));
    assert_eq!(file.games.len(), 2);

    let g = &file.games[0];
    assert_eq!((g.tournament, g.black, g.white), (3, 1, 0));
    assert_eq!((g.black_score, g.theoretical_score), (64, 64));
    assert_eq!(g.moves(), line("f5 f4 c3 c6 c5 d6 f3 c4 c7"));
    assert!(g.is_finished());
    assert_eq!(g.position().disc_counts(), [13, 0]);
    assert_eq!(g.position().final_score(), Some(64));
    assert_eq!(g.black_margin(), 64);
    assert_eq!(g.positions().len(), 10);

    let g = &file.games[1];
    assert_eq!((g.tournament, g.black, g.white), (0, 0x0102, 1));
    assert_eq!((g.black_score, g.theoretical_score), (64, 60));
    // The pass is not stored: replaying the game puts it back before h4.
    assert_eq!(
        g.moves(),
        line("e6 f6 c4 e7 g7 g5 e8 d8 c8 c3 b2 e3 e2 PA h4")
    );
    assert_eq!(g.squares().count(), 14);
    assert_eq!(g.squares().last(), Some(sq("h4")));
    assert_eq!(g.position().disc_counts(), [18, 0]);

    // The writer gives the same bytes back.
    assert_eq!(file.to_bytes().unwrap(), bytes);
    assert_eq!(file.games[1].to_bytes().to_vec(), bytes[84..]);
}

#[test]
fn name_files_assembled_byte_by_byte() {
    // Two players (20 bytes each; the second in Latin-1 with é = 0xE9), one tournament (26).
    let mut jou = vec![20, 24, 5, 17, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
    let mut rec = b"Sorbet Alain".to_vec();
    rec.resize(20, 0);
    jou.extend(&rec);
    let mut rec = b"Cr\xe9pin Ren\xe9e".to_vec();
    rec.resize(20, 0);
    jou.extend(&rec);
    let players = NameFile::read(NameKind::Players, &jou).unwrap();
    assert_eq!(players.names, ["Sorbet Alain", "Crépin Renée"]);
    assert_eq!(players.name(1), Some("Crépin Renée"));
    assert_eq!(players.name(2), None);
    assert_eq!(players.header.names, 2);
    assert_eq!(players.to_bytes().unwrap(), jou);

    let mut trn = vec![20, 24, 5, 17, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    let mut rec = b"Championnat de France".to_vec();
    rec.resize(26, 0);
    trn.extend(&rec);
    let tournaments = NameFile::read(NameKind::Tournaments, &trn).unwrap();
    assert_eq!(tournaments.names, ["Championnat de France"]);
    assert_eq!(tournaments.to_bytes().unwrap(), trn);

    // A name filling its whole record (no NUL) is read whole; bytes after a NUL are ignored.
    let mut odd = jou[..16].to_vec();
    odd[8] = 2;
    odd.extend(b"ABCDEFGHIJKLMNOPQRST");
    odd.extend(b"Ann\0garbage\0\0\0\0\0\0\0\0\0");
    let names = NameFile::read(NameKind::Players, &odd).unwrap().names;
    assert_eq!(names, ["ABCDEFGHIJKLMNOPQRST", "Ann"]);

    // The games with their names, as GGF.
    let games = GameFile::read(&fixture_file()).unwrap();
    let mut tournaments = tournaments;
    tournaments.names = vec!["a".into(), "b".into(), "c".into(), "Open".into()];
    let record = games.games[0].to_ggf(Some(&players), Some(&tournaments));
    assert_eq!(record.black.as_deref(), Some("Crépin Renée"));
    assert_eq!(record.white.as_deref(), Some("Sorbet Alain"));
    assert_eq!(record.place.as_deref(), Some("Open"));
    assert_eq!(record.result.unwrap().black_margin, 64.0);
    assert_eq!(record.result.unwrap().ending, None);
    assert_eq!(record.line(), games.games[0].moves());
    // Player 0x0102 is not in the file.
    let record = games.games[1].to_ggf(Some(&players), None);
    assert_eq!((&record.black, &record.place), (&None, &None));
    assert_eq!(record.white.as_deref(), Some("Crépin Renée"));
    assert_eq!(record.line(), games.games[1].moves());
}

#[test]
fn random_games_round_trip() {
    let mut rng = Rng::seed_from_u64(39);
    let mut file = GameFile::new(2025);
    file.header.depth = 20;
    let mut with_pass = 0;
    for _ in 0..300 {
        let moves = random_game(&mut rng, usize::MAX);
        with_pass += usize::from(moves.contains(&Move::Pass));
        // Passes left out are put back.
        let stored: Vec<Move> = moves.iter().copied().filter(|&m| m != Move::Pass).collect();
        let mut g = GameRecord::from_line(&stored).unwrap();
        assert_eq!(g.moves(), moves);
        let final_score = g.position().final_score().unwrap();
        assert_eq!(g.black_margin(), final_score);
        g.tournament = rng.below(1000) as u16;
        g.black = rng.below(65_536) as u16;
        g.white = rng.below(65_536) as u16;
        g.theoretical_score = rng.below(65) as u8;
        file.games.push(g);
    }
    assert!(with_pass > 0, "no random game had a pass");
    let bytes = file.to_bytes().unwrap();
    assert_eq!(bytes.len(), 16 + 300 * 68);
    let mut expected = file.clone();
    expected.header.games = 300;
    let read = GameFile::read(&bytes).unwrap();
    assert_eq!(read, expected);
    assert_eq!(read.to_bytes().unwrap(), bytes);
    // Through GGF and back.
    for g in &read.games {
        let mut again = GameRecord::from_ggf(&g.to_ggf(None, None)).unwrap();
        (again.tournament, again.black, again.white) = (g.tournament, g.black, g.white);
        again.theoretical_score = g.theoretical_score;
        assert_eq!(&again, g);
    }

    // Games stopped early round-trip when only the moves are checked.
    let mut short = GameFile::new(1990);
    for _ in 0..100 {
        let max = rng.below(60);
        short
            .games
            .push(GameRecord::from_line(&random_game(&mut rng, max)).unwrap());
    }
    let bytes = short.to_bytes().unwrap();
    let read = GameFile::read_with(&bytes, Check::Moves).unwrap();
    assert_eq!(read.games, short.games);
}

#[test]
fn random_names_round_trip() {
    let mut rng = Rng::seed_from_u64(4);
    for kind in [NameKind::Players, NameKind::Tournaments] {
        let mut file = NameFile::new(kind);
        file.header.century = 20;
        for _ in 0..200 {
            let len = rng.below(kind.record_len());
            let name: String = (0..len)
                .map(|_| char::from(1 + rng.below(255) as u8))
                .collect();
            file.names.push(name);
        }
        let bytes = file.to_bytes().unwrap();
        assert_eq!(bytes.len(), 16 + 200 * kind.record_len());
        let read = NameFile::read(kind, &bytes).unwrap();
        assert_eq!(read.names, file.names);
        assert_eq!(read.header.names, 200);
        assert_eq!(read.to_bytes().unwrap(), bytes);
    }
}

fn read_err(bytes: &[u8]) -> WthorError {
    GameFile::read(bytes).unwrap_err()
}

/// The fixture with byte `at` of game 2 (the pass game) set to `value`.
fn fixture_with(at: usize, value: u8) -> Vec<u8> {
    let mut b = fixture_file();
    b[16 + 68 + at] = value;
    b
}

#[test]
fn malformed_files_are_rejected_with_the_record() {
    let good = fixture_file();
    assert_eq!(read_err(&[]), WthorError::TruncatedHeader { len: 0 });
    assert_eq!(
        read_err(&good[..10]),
        WthorError::TruncatedHeader { len: 10 }
    );
    // Game 2 is cut 34 bytes short; with no games at all, game 1 is cut.
    assert_eq!(
        read_err(&good[..good.len() - 34]),
        WthorError::TruncatedRecord {
            record: 2,
            declared: 2,
            size: 68,
            missing: 34
        }
    );
    assert_eq!(
        read_err(&good[..16]),
        WthorError::TruncatedRecord {
            record: 1,
            declared: 2,
            size: 68,
            missing: 136
        }
    );
    // A count of 4 billion games in a small file.
    let mut huge = good.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        read_err(&huge),
        WthorError::TruncatedRecord { record: 3, .. }
    ));
    let mut long = good.clone();
    long.extend([0; 5]);
    assert_eq!(
        read_err(&long),
        WthorError::TrailingBytes {
            declared: 2,
            size: 68,
            extra: 5
        }
    );
    let mut ten = good.clone();
    ten[12] = 10;
    assert_eq!(read_err(&ten), WthorError::UnsupportedBoard { size: 10 });

    // Move bytes: the third move of game 2.
    for bad in [9, 10, 19, 20, 89, 90, 99, 255] {
        assert_eq!(
            read_err(&fixture_with(8 + 2, bad)),
            WthorError::BadMoveByte {
                game: 2,
                number: 3,
                byte: bad
            }
        );
    }
    // A move after the 0 that ends the moves.
    assert_eq!(
        read_err(&fixture_with(8 + 20, 11)),
        WthorError::MoveAfterEnd {
            game: 2,
            number: 21,
            byte: 11
        }
    );
    // a1 is not legal at the start.
    let e = read_err(&fixture_with(8, 11));
    assert_eq!(
        e,
        WthorError::IllegalMove {
            game: 2,
            number: 1,
            square: sq("a1"),
            position: Othello::new().to_string(),
        }
    );
    assert_eq!(
        e.to_string(),
        "game 2, move 1 (a1) is illegal in position \
         ---------------------------OX------XO--------------------------- X"
    );
    // A move after the end of the game (the pass game ends after 14 moves).
    assert!(matches!(
        read_err(&fixture_with(8 + 14, 11)),
        WthorError::IllegalMove {
            game: 2,
            number: 15,
            ..
        }
    ));
    // The game stops one move early (h4 removed): unfinished, unless only moves are checked.
    let cut = fixture_with(8 + 13, 0);
    assert_eq!(
        read_err(&cut),
        WthorError::Unfinished {
            game: 2,
            moves: 13,
            score: 64
        }
    );
    let read = GameFile::read_with(&cut, Check::Moves).unwrap();
    assert_eq!(read.games[1].squares().count(), 13);
    assert!(!read.games[1].is_finished());
    assert_eq!(
        read.games[1].to_ggf(None, None).result.unwrap().ending,
        Some(ggf::Ending::MutualScore)
    );
    // Scores.
    assert_eq!(
        read_err(&fixture_with(6, 50)),
        WthorError::ScoreMismatch {
            game: 2,
            recorded: 50,
            board: 64
        }
    );
    assert_eq!(
        GameFile::read_with(&fixture_with(6, 50), Check::Moves)
            .unwrap()
            .games[1]
            .black_score,
        50
    );
    assert_eq!(
        read_err(&fixture_with(6, 65)),
        WthorError::BadScore { game: 2, score: 65 }
    );

    // Name files.
    let mut jou = vec![0; 16];
    jou[8] = 3;
    jou.extend([b'a'; 50]);
    assert_eq!(
        NameFile::read(NameKind::Players, &jou),
        Err(WthorError::TruncatedRecord {
            record: 3,
            declared: 3,
            size: 20,
            missing: 10
        })
    );
    assert!(matches!(
        NameFile::read(NameKind::Tournaments, &jou),
        Err(WthorError::TruncatedRecord { record: 2, .. })
    ));
    assert_eq!(
        NameFile::read(NameKind::Players, &jou[..3]),
        Err(WthorError::TruncatedHeader { len: 3 })
    );
}

#[test]
fn what_cannot_be_written_is_refused() {
    let mut players = NameFile::new(NameKind::Players);
    players.names = vec!["ok".into(), "x".repeat(20)];
    assert_eq!(
        players.to_bytes(),
        Err(WthorError::NameTooLong {
            record: 2,
            name: "x".repeat(20),
            max: 19
        })
    );
    players.names = vec!["x".repeat(19), "Łukasz".into()];
    assert!(matches!(
        players.to_bytes(),
        Err(WthorError::NotLatin1 { record: 2, .. })
    ));
    players.names = vec!["a\0b".into()];
    assert!(matches!(
        players.to_bytes(),
        Err(WthorError::NotLatin1 { record: 1, .. })
    ));
    let mut tournaments = NameFile::new(NameKind::Tournaments);
    tournaments.names = vec!["y".repeat(25)];
    assert_eq!(tournaments.to_bytes().unwrap().len(), 16 + 26);
    tournaments.names = vec!["y".repeat(26)];
    assert!(matches!(
        tournaments.to_bytes(),
        Err(WthorError::NameTooLong { max: 25, .. })
    ));

    let mut games = GameFile::new(2000);
    games.header.board_size = 10;
    assert_eq!(
        games.to_bytes(),
        Err(WthorError::UnsupportedBoard { size: 10 })
    );

    let parallel = ggf::Record::new(Othello::start(crate::Start::Parallel));
    assert!(matches!(
        GameRecord::from_ggf(&parallel),
        Err(WthorError::NotStandardStart { .. })
    ));
    // A GGF game that stops early keeps its result as black's score.
    let mut resigned = ggf::Record::from_line(Othello::new(), &line("f5 d6")).unwrap();
    resigned.result = Some(ggf::RecordResult {
        black_margin: -64.0,
        ending: Some(ggf::Ending::Resigned),
    });
    assert_eq!(GameRecord::from_ggf(&resigned).unwrap().black_score, 0);
    assert!(GameRecord::from_line(&line("f5 f5")).is_err());
}

#[test]
fn truncated_mangled_and_random_bytes_never_panic() {
    let good = fixture_file();
    let mut rng = Rng::seed_from_u64(2024);
    let mut read_ok = 0;
    let mut check = |bytes: &[u8]| {
        for c in [Check::Full, Check::Moves] {
            if let Ok(file) = GameFile::read_with(bytes, c) {
                read_ok += 1;
                let again = file.to_bytes().unwrap();
                assert_eq!(GameFile::read_with(&again, c).unwrap(), file);
            }
        }
        for kind in [NameKind::Players, NameKind::Tournaments] {
            if let Ok(names) = NameFile::read(kind, bytes) {
                // Names read from bytes are Latin-1 without NUL: they can always be written.
                let again = names.to_bytes().unwrap();
                assert_eq!(NameFile::read(kind, &again).unwrap(), names);
            }
        }
    };
    for len in 0..=good.len() {
        check(&good[..len]);
    }
    for _ in 0..20_000 {
        let mut bytes = good.clone();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(bytes.len());
            bytes[i] = match rng.below(3) {
                0 => rng.below(256) as u8,
                1 => bytes[i].wrapping_add(1),
                _ => [0, 11, 88, 8, 64, 65][rng.below(6)],
            };
        }
        check(&bytes);
    }
    for _ in 0..5_000 {
        let len = rng.below(300);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        if len >= 16 && rng.below(2) == 0 {
            // A count that fits the length, so that records are decoded.
            let n = (len - 16) / 68;
            bytes.truncate(16 + n * 68);
            bytes[4..8].copy_from_slice(&(n as u32).to_le_bytes());
            bytes[12] = 8;
        }
        check(&bytes);
    }
    assert!(read_ok > 100, "only {read_ok} mangled files read");
}
