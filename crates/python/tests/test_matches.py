"""Matches and leagues: the CLI's numbers for the same seed, at any thread count."""

import csv
import io
import json
import os
import signal
import threading
import time

import pytest

import yomi
from conftest import run_cli


def without_time(result):
    return {k: v for k, v in result.items() if k != "time"}


@pytest.mark.parametrize(
    "a, b, game, rounds, seed",
    [
        ("ai11s", "ai10s", "tictactoe", 300, 1),
        ("pmc2:pnum=50", "random", "tictactoe", 200, 7),
        ("mcts:iters=50", "minimax:depth=3", "nim", 100, 3),
        ("greedy", "random", "othello", 10, 5),
    ],
)
def test_match_equals_the_cli(cli, a, b, game, rounds, seed):
    ours = yomi.play_match(a, b, game=game, rounds=rounds, seed=seed)
    theirs = json.loads(
        run_cli(cli, "match", a, b, "--game", game, "--rounds", str(rounds), "--seed", str(seed), "--json")
    )
    # The CLI's JSON also carries the harness's openings, pair counts and Elo statistics, which
    # the Python dict does not (yet), and no longer the thinking times (those go to standard
    # error): every other key of the Python dict is the CLI's, with the same value.
    ours = without_time(ours)
    assert set(ours) <= set(theirs)
    assert ours == {k: theirs[k] for k in ours}
    assert ours["total"]["win"] + ours["total"]["lose"] + ours["total"]["draw"] == 2 * rounds


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


def test_league_equals_the_cli_csv(cli):
    agents = ["ai1", "pmc2:pnum=20,alpha=0.25", "blunder:p=0.2,agent=(perfect)"]
    rows = yomi.league(agents, baseline="random", rounds=150, seed=4)
    out = run_cli(cli, "league", "--agents", ",".join(agents), "--rounds", "150", "--seed", "4", "--csv")
    cli_rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(cli_rows) == 3
    for ours, theirs in zip(rows, cli_rows, strict=True):
        # The CLI's columns also hold the harness's pair counts and Elo; every column the
        # Python rows have comes in the CLI's order with the same value.
        assert [k for k in theirs if k in ours] == list(ours)
        for key, value in ((k, v) for k, v in theirs.items() if k in ours):
            if key in ("agent", "spec"):
                assert ours[key] == value
            elif key.endswith(("_ratio", "_low", "_high")):
                assert abs(ours[key] - float(value)) <= 5e-7, key
            else:
                assert ours[key] == int(value), key


def test_default_league_plays_every_bare_agent():
    rows = yomi.league(rounds=2, game="nim")
    names = [a["name"] for a in yomi.agents("nim") if a["builds_bare"]]
    assert [r["agent"] for r in rows] == names
    assert all(r["total_win"] + r["total_lose"] + r["total_draw"] == 4 for r in rows)


def test_errors():
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


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to itself")
def test_ctrl_c_stops_a_match():
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        yomi.play_match("pmc2:pnum=100000", "random", rounds=100_000)
    timer.join()
    assert time.perf_counter() - start < 5
