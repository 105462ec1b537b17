//! End-to-end tests of `yomi book`: new from lines, a deviate round whole and in shards (the
//! same bytes), show, stats, export and import, store of match records and GGF, openings for
//! a match, bad input.

mod common;

use common::{fails, fails_with_error, ok};

#[test]
fn a_book_is_built_deviated_in_shards_and_shown() {
    let dir = std::env::temp_dir().join(format!("yomi-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    std::fs::write(
        p("lines.txt"),
        "# two openings, as an openings file writes them (a value after a tab)\nf5 d6 c3 d3 c4\t-1.39\nf5 f6 e6 f4\n",
    )
    .unwrap();
    let text = ok(&[
        "book",
        "new",
        "--lines",
        &p("lines.txt"),
        "--depth",
        "3",
        "--out",
        &p("b.book"),
    ]);
    assert!(text.contains("9 positions from 2 lines"), "{text}");
    let round = ["--min-ply", "2", "--depth", "3"];
    let whole = ok(&[
        &["book", "deviate", &p("b.book"), "--out", &p("w.book")][..],
        &round,
    ]
    .concat());
    assert!(whole.contains("new positions"), "{whole}");
    // On two threads: the same book, byte for byte.
    ok(&[
        &[
            "book",
            "deviate",
            &p("b.book"),
            "--threads",
            "2",
            "--out",
            &p("t.book"),
        ][..],
        &round,
    ]
    .concat());
    assert_eq!(
        std::fs::read(p("t.book")).unwrap(),
        std::fs::read(p("w.book")).unwrap(),
        "two threads make the same round"
    );
    for k in 0..2 {
        let shard = format!("{k}/2");
        let out = p(&format!("s{k}.book"));
        ok(&[
            &[
                "book",
                "deviate",
                &p("b.book"),
                "--shard",
                &shard,
                "--out",
                &out,
            ][..],
            &round,
        ]
        .concat());
    }
    ok(&[
        "book",
        "merge",
        &p("b.book"),
        &p("s1.book"),
        &p("s0.book"),
        "--out",
        &p("m.book"),
    ]);
    assert_eq!(
        std::fs::read(p("m.book")).unwrap(),
        std::fs::read(p("w.book")).unwrap(),
        "the shards merged are the whole round"
    );
    let show = ok(&["book", "show", &p("w.book"), "f5"]);
    assert!(show.contains("in the book: value"), "{show}");
    assert!(show.contains("d6") && show.contains("f6"), "{show}");
    let show = ok(&["book", "show", &p("w.book"), "f5 d6 c3 d3 c4 f4 f6 f3"]);
    assert!(show.contains("not in the book"), "{show}");
    let stats = ok(&["book", "stats", &p("w.book")]);
    assert!(stats.contains("positions by ply"), "{stats}");
    ok(&["book", "export", &p("w.book"), "--out", &p("w.txt")]);
    ok(&["book", "import", &p("w.txt"), "--out", &p("i.book")]);
    assert_eq!(
        std::fs::read(p("i.book")).unwrap(),
        std::fs::read(p("w.book")).unwrap()
    );
    // NBoard's hint answers with `book` lines in the book, over real pipes.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args([
            "engine",
            "--protocol",
            "nboard",
            "--agent",
            &format!("othello:time=0,depth=2,book={}", p("w.book")),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(
                b"nboard 2\nset depth 2\nset game (;GM[Othello]B[f5];)\nhint 3\nset game (;GM[Othello]B[f5]W[d6]B[c3]W[d3]B[c4]W[f4]B[f6]W[f3]B[e6]W[e7];)\nhint 1\nquit\n",
            )?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let book_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book_lines.len(), 3, "{text}");
    assert!(
        book_lines[0].starts_with("book D6 ")
            || book_lines[0].starts_with("book F6 ")
            || book_lines[0].starts_with("book F4 "),
        "{text}"
    );
    // Out of the book (ten plies in): a search line.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("search ")).count(),
        1,
        "{text}"
    );
    let fix = ok(&["book", "fix", &p("w.book")]);
    assert!(fix.contains("0 values changed"), "{fix}");
    // Bad input.
    fails_with_error(&["book", "show", &p("lines.txt")], "not a yomi book file");
    fails_with_error(
        &["book", "deviate", &p("b.book"), "--shard", "0/2"],
        "--shard writes updates: give --out",
    );
    // The check values a sample again: the start alone, by its own settings, is exactly its
    // book value; the whole book against a deeper search differs somewhat.
    ok(&["book", "new", "--depth", "3", "--out", &p("start.book")]);
    let same = ok(&[
        "book",
        "check",
        &p("start.book"),
        "--min-empties",
        "1",
        "--depth",
        "3",
        "--exact",
        "0",
    ]);
    assert!(
        same.contains("1 positions with 1 or more empties"),
        "{same}"
    );
    assert!(
        same.contains("mean absolute difference 0.00 discs"),
        "{same}"
    );
    assert!(
        same.contains("the same sign (win, draw or loss) in 1 of 1"),
        "{same}"
    );
    let deeper = ok(&[
        "book",
        "check",
        &p("w.book"),
        "--positions",
        "4",
        "--min-empties",
        "50",
        "--depth",
        "5",
        "--exact",
        "0",
    ]);
    assert!(
        deeper.contains("4 positions with 50 or more empties (seed 1), valued again at depth 5"),
        "{deeper}"
    );
    fails(
        &["book", "check", &p("w.book"), "--min-empties", "61"],
        "invalid value",
    );
    // A merge takes every part of one round of the book, and nothing else.
    let merge = |parts: &[&str]| {
        let mut args = vec!["book".to_string(), "merge".to_string(), p("b.book")];
        args.extend(parts.iter().map(|s| p(s)));
        args.extend(["--out".to_string(), p("n.book")]);
        args
    };
    let run = |v: Vec<String>, needle: &str| {
        let args: Vec<&str> = v.iter().map(String::as_str).collect();
        fails_with_error(&args, needle);
    };
    run(merge(&["s0.book"]), "shard is 1/2 missing");
    run(merge(&["s0.book", "s0.book"]), "comes twice");
    run(
        merge(&["w.book"]),
        "a whole book, not a part of a deviate round",
    );
    ok(&[
        &[
            "book",
            "deviate",
            &p("b.book"),
            "--shard",
            "1/2",
            "--out",
            &p("d1.book"),
        ][..],
        &["--min-ply", "2", "--depth", "4"],
    ]
    .concat());
    run(merge(&["s0.book", "d1.book"]), "depth 3 against 4");
    run(
        {
            let mut v = merge(&["s0.book", "s1.book"]);
            v[2] = p("w.book");
            v
        },
        "made from another book",
    );
    std::fs::write(p("bad.txt"), "f5 d6 a1\n").unwrap();
    fails_with_error(
        &[
            "book",
            "new",
            "--lines",
            &p("bad.txt"),
            "--out",
            &p("x.book"),
        ],
        "move 3",
    );
    fails_with_error(&["book", "show", &p("w.book"), "f5 z9"], "bad position");
    std::fs::write(
        p("broken.txt"),
        "# yomi book: weights 00, 1 positions\nXX 1 2 3\n",
    )
    .unwrap();
    fails_with_error(
        &["book", "import", &p("broken.txt"), "--out", &p("y.book")],
        "line 2",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn games_are_stored_and_a_match_plays_the_books_openings() {
    let dir = std::env::temp_dir().join(format!("yomi-book-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    std::fs::write(p("lines.txt"), "f5 d6 c3 d3 c4\n").unwrap();
    ok(&[
        "book",
        "new",
        "--lines",
        &p("lines.txt"),
        "--depth",
        "2",
        "--out",
        &p("b.book"),
    ]);
    // A match record of two games from the start (its opening is the start as a board).
    ok(&[
        "match",
        "greedy",
        "random",
        "--game",
        "othello",
        "--rounds",
        "1",
        "--threads",
        "1",
        "--record",
        &p("r.jsonl"),
    ]);
    let text = ok(&[
        "book",
        "store",
        &p("b.book"),
        &p("r.jsonl"),
        "--plies",
        "6",
        "--depth",
        "2",
    ]);
    assert!(text.contains("2 games stored"), "{text}");
    let new: usize = text
        .split(", ")
        .find_map(|part| part.strip_suffix(" new positions"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!((1..=12).contains(&new), "{text}");
    // A GGF game stored too, to another file.
    std::fs::write(
        p("g.ggf"),
        "(;GM[Othello]PC[test]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[f4]B[e3]W[f6]B[d3];)\n",
    )
    .unwrap();
    let text = ok(&[
        "book",
        "store",
        &p("b.book"),
        &p("g.ggf"),
        "--depth",
        "2",
        "--out",
        &p("g.book"),
    ]);
    assert!(text.contains("1 games stored"), "{text}");
    let show = ok(&["book", "show", &p("g.book"), "f5 f4 e3 f6"]);
    assert!(show.contains("in the book"), "{show}");
    // Its openings at 2 plies, within 64 discs, and a match from them.
    ok(&[
        "book",
        "openings",
        &p("g.book"),
        "--ply",
        "2",
        "--within",
        "64",
        "--out",
        &p("o.txt"),
    ]);
    let openings = std::fs::read_to_string(p("o.txt")).unwrap();
    let rows: Vec<&str> = openings.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(rows.len() >= 2, "{openings}");
    assert!(rows.iter().all(|r| r.contains('\t')), "{openings}");
    let text = ok(&[
        "match",
        "random",
        "random",
        "--game",
        "othello",
        "--rounds",
        "2",
        "--openings",
        &p("o.txt"),
    ]);
    assert!(text.contains("total"), "{text}");
    // Bad input: a game set up from a position, a book of other weights.
    std::fs::write(
        p("pos.jsonl"),
        "{\"match\":0,\"index\":0,\"opening\":\"---------------------------OX------XXX-------------------------- O\",\"a_first\":true,\"result\":\"win\",\"moves\":\"d6\"}\n",
    )
    .unwrap();
    fails_with_error(
        &["book", "store", &p("b.book"), &p("pos.jsonl")],
        "start from the start position",
    );
    let exported = ok(&["book", "export", &p("b.book")]);
    let digest = exported
        .strip_prefix("# yomi book: weights ")
        .and_then(|t| t.get(..16))
        .unwrap()
        .to_string();
    std::fs::write(
        p("other.txt"),
        exported.replacen(&digest, "0123456789abcdef", 1),
    )
    .unwrap();
    ok(&["book", "import", &p("other.txt"), "--out", &p("other.book")]);
    fails_with_error(
        &["book", "store", &p("other.book"), &p("lines.txt")],
        "valued with other weights",
    );
    fails_with_error(
        &["book", "store", &p("b.book"), &p("missing.ggf")],
        "cannot read",
    );
    std::fs::remove_dir_all(&dir).ok();
}
