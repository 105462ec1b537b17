"""Matches and leagues: the CLI's numbers for the same seed, at any thread count."""

import csv
import io
import json
import math
import os
import signal
import threading
import time

import pytest

import yomi
from conftest import run_cli


def without_time(result):
    """The match dict as the CLI's JSON has it: without the thinking times (the CLI prints
    them on standard error) and without an empty list of forfeits (which the CLI leaves out)."""
    return {k: v for k, v in result.items() if k != "time" and not (k == "forfeits" and v == [])}


def assert_same(ours, theirs, where="result"):
    """`ours` (Python data) is the CLI's JSON `theirs`: the same keys in the same order, the
    same values exactly, except that an infinite number (the Elo of a sweep) is `inf` in
    Python where JSON has `null`."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        assert list(ours) == list(theirs), where
        for k in theirs:
            assert_same(ours[k], theirs[k], f"{where}.{k}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), where
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_same(o, t, f"{where}[{i}]")
    elif theirs is None and isinstance(ours, float):
        assert math.isinf(ours), (where, ours)
    else:
        assert type(ours) is type(theirs) and ours == theirs, (where, ours, theirs)


def cli_match(cli, a, b, game, rounds, seed, *extra):
    args = ["match", a, b, "--game", game, "--rounds", str(rounds), "--seed", str(seed), *extra]
    return json.loads(run_cli(cli, *args, "--json"))


@pytest.mark.parametrize(
    "a, b, game, rounds, seed",
    [
        ("ai11s", "ai10s", "tictactoe", 300, 1),
        ("pmc2:pnum=50", "random", "tictactoe", 200, 7),
        ("mcts:iters=50", "minimax:depth=3", "nim", 100, 3),
        ("greedy", "random", "othello", 10, 5),
        # A sweep: infinite Elo (null in the CLI's JSON).
        ("perfect", "first", "nim", 20, 2),
    ],
)
def test_match_equals_the_cli(cli, a, b, game, rounds, seed):
    ours = yomi.play_match(a, b, game=game, rounds=rounds, seed=seed)
    theirs = cli_match(cli, a, b, game, rounds, seed)
    # Every key of the CLI's JSON (openings, end, pairs, both Elo estimates, SPRT included),
    # in its order, with its value; the Python dict adds the thinking times, which the CLI
    # prints on standard error, and always has the list of forfeits.
    assert list(ours)[-2:] == ["forfeits", "time"] and len(ours["time"]) == 2
    assert ours["forfeits"] == [] and "forfeits" not in theirs
    assert_same(without_time(ours), theirs)
    assert ours["total"]["win"] + ours["total"]["lose"] + ours["total"]["draw"] == 2 * rounds
    assert sum(ours["pairs"]) == rounds


def test_match_with_openings_and_sprt_equals_the_cli(cli, root, tmp_path):
    # Othello from the committed openings, in the seeded random order.
    book = root / "data" / "openings" / "othello-8ply.txt"
    ours = yomi.play_match("greedy", "random", game="othello", rounds=12, seed=3, openings=book, openings_order="random")
    theirs = cli_match(cli, "greedy", "random", "othello", 12, 3, "--openings", str(book), "--openings-order", "random")
    assert_same(without_time(ours), theirs)
    assert ours["openings"]["count"] == 1000 and ours["openings"]["order"] == "random"
    # The times by phase (empties before the move): 8-ply openings leave at most 52.
    for side in ours["time"]:
        phases = side["phases"]
        assert sum(p["moves"] for p in phases) == side["moves"]
        assert max(p["phase"] for p in phases) <= 52
        assert [p["phase"] for p in phases] == sorted(p["phase"] for p in phases)
    # Tic-tac-toe openings as lines of moves or positions, and an SPRT that decides early.
    lines = tmp_path / "ttt.txt"
    lines.write_text("# two openings\n(1,1)\nx../.o./...\n")
    sprt = "elo0=0,elo1=100,alpha=0.05,beta=0.05"
    ours = yomi.play_match("ai11s", "random", rounds=3000, seed=9, openings=str(lines), sprt=sprt)
    theirs = cli_match(cli, "ai11s", "random", "tictactoe", 3000, 9, "--openings", str(lines), "--sprt", sprt)
    assert_same(without_time(ours), theirs)
    assert ours["end"] == "sprt" and ours["sprt"]["accepted"] == "H1"
    assert ours["openings"]["count"] == 2


def test_threads_and_start_position():
    one = yomi.play_match("pmc2:pnum=30", "ai6", rounds=200, seed=11, threads=1)
    two = yomi.play_match("pmc2:pnum=30", "ai6", rounds=200, seed=11, threads=2)
    assert without_time(one) == without_time(two)
    other = yomi.play_match("pmc2:pnum=30", "ai6", rounds=200, seed=12, threads=1)
    assert without_time(other) != without_time(one)
    # From a won position the first mover always wins with perfect play.
    r = yomi.play_match("perfect", "random", start="oo.xx....", rounds=50)
    assert r["a_first"] == {"win": 50, "lose": 0, "draw": 0}


def test_study_result_ai11s_against_ai10s():
    # The study: ai11s wins 2/9 of its games as O against ai10s and loses half as X.
    r = yomi.play_match("ai11s", "ai10s", rounds=9000, seed=1)
    assert abs(r["a_first"]["win"] / 9000 - 2 / 9) < 0.02
    assert abs(r["a_second"]["lose"] / 9000 - 1 / 2) < 0.02


@pytest.mark.parametrize("extra", [[], ["--openings", "{book}"]])
def test_league_equals_the_cli(cli, tmp_path, extra):
    book = tmp_path / "ttt.txt"
    book.write_text("(0,0)\n(1,1) (0,0)\n(2,2)\n")
    extra = [e.format(book=book) for e in extra]
    agents = ["ai1", "pmc2:pnum=20,alpha=0.25", "blunder:p=0.2,agent=(perfect)", "perfect"]
    rows = yomi.league(agents, baseline="random", rounds=150, seed=4, openings=book if extra else None)
    args = ["league", "--agents", ",".join(agents), "--rounds", "150", "--seed", "4", *extra]
    cli_rows = list(csv.DictReader(io.StringIO(run_cli(cli, *args, "--csv"))))
    json_rows = json.loads(run_cli(cli, *args, "--json"))["rows"]
    assert len(rows) == len(cli_rows) == len(json_rows) == 4
    for ours, theirs, full in zip(rows, cli_rows, json_rows, strict=True):
        # Every column of the CSV, in its order; the CSV rounds, so the values are compared
        # to its precision there and exactly with the JSON rows.
        assert list(ours) == list(theirs)
        for key, value in theirs.items():
            if key in ("agent", "spec"):
                assert ours[key] == value
            elif key.endswith(("_ratio", "_low", "_high", "los")) or key == "elo":
                digits = 3 if key.startswith("elo") else 6
                assert ours[key] == pytest.approx(float(value), abs=0.6 * 10**-digits, nan_ok=False), key
            else:
                assert ours[key] == int(value), key
        assert ours["agent"] == full["agent"] and ours["spec"] == full["spec"]
        for g, group in enumerate(("first", "second", "total")):
            for k in ("win", "lose", "draw"):
                assert ours[f"{group}_{k}"] == full[group][k]
                ratio = full["ratios"][g][k]
                assert (ours[f"{group}_{k}_ratio"], ours[f"{group}_{k}_low"], ours[f"{group}_{k}_high"]) == (
                    ratio["value"],
                    ratio["low"],
                    ratio["high"],
                )
        assert [ours[f"pairs_{i}"] for i in range(5)] == full["pairs"]
        elo = full["elo"]
        assert elo["model"] == "pentanomial"
        assert_same([ours["elo"], ours["elo_low"], ours["elo_high"], ours["los"]], [elo["elo"], elo["low"], elo["high"], elo["los"]])


def test_league_sweep_has_infinite_elo(cli):
    # In the 15-stone game `perfect` wins every game against `first`: Elo +inf, written `inf`
    # in the CSV and `null` in the JSON.
    (row,) = yomi.league(["perfect"], baseline="first", game="nim", rounds=10, seed=2)
    args = ["league", "--game", "nim", "--agents", "perfect", "--baseline", "first", "--rounds", "10", "--seed", "2"]
    (theirs,) = csv.DictReader(io.StringIO(run_cli(cli, *args, "--csv")))
    assert row["total_win"] == 20 and row["pairs_4"] == 10
    assert row["elo"] == row["elo_low"] == row["elo_high"] == math.inf
    assert [float(theirs[k]) for k in ("elo", "elo_low", "elo_high", "los")] == [math.inf] * 3 + [1.0]
    assert row["los"] == 1.0


def test_default_league_plays_every_bare_agent():
    rows = yomi.league(rounds=2, game="nim")
    names = [a["name"] for a in yomi.agents("nim") if a["builds_bare"]]
    assert [r["agent"] for r in rows] == names
    assert all(r["total_win"] + r["total_lose"] + r["total_draw"] == 4 for r in rows)


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="rounds must be from 1"):
        yomi.play_match(rounds=0)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        yomi.play_match(threads=0, rounds=1)
    with pytest.raises(ValueError, match="unknown agent"):
        yomi.league(["ai1", "nobody"])
    with pytest.raises(ValueError, match="already finished"):
        yomi.play_match(start="ooo/xx./...", rounds=1)
    with pytest.raises(ValueError, match="the list is empty"):
        yomi.league([])
    with pytest.raises(TypeError):
        yomi.league("ai1")
    with pytest.raises(ValueError, match="bad SPRT setting"):
        yomi.play_match(rounds=1, sprt="elo0=0")
    with pytest.raises(ValueError, match="openings_order needs openings"):
        yomi.play_match(rounds=1, openings_order="random")
    with pytest.raises(ValueError, match="openings_order|order"):
        yomi.play_match(rounds=1, openings_order="shuffled")
    book = tmp_path / "book.txt"
    book.write_text("(0,0)\n")
    with pytest.raises(ValueError, match="cannot be used together"):
        yomi.play_match(rounds=1, start="x........", openings=book)
    with pytest.raises(OSError, match="cannot read the openings"):
        yomi.league(["ai1"], rounds=1, openings=tmp_path / "missing.txt")
    book.write_text("(0,0)\n(9,9)\n")
    with pytest.raises(ValueError, match="line 2"):
        yomi.play_match(rounds=1, openings=book)


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to itself")
def test_ctrl_c_stops_a_match():
    # Ctrl-C after 0.3 s, pressed again every half second until the call returns. Python's
    # own Ctrl-C handler is installed for the test: a process started in the background by a
    # non-interactive shell inherits SIGINT ignored, and Python then installs no handler (the
    # match ran on in such a run). The match must stop within 5 s.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    done = threading.Event()

    def press():
        time.sleep(0.3)
        while not done.is_set():
            os.kill(os.getpid(), signal.SIGINT)
            done.wait(0.5)

    presser = threading.Thread(target=press, daemon=True)
    start = time.perf_counter()
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            yomi.play_match("pmc2:pnum=100000", "random", rounds=100_000)
    finally:
        done.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 5
