"""The Othello solver: FFO scores, modes, threads, errors, and the GIL released while it runs."""

import threading
import time

import pytest

import yomi


@pytest.fixture(scope="module")
def ffo(root):
    """FFO positions by number: (position, best move, score), from the repository's files."""
    positions = {}
    number = 1
    for name in ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-49.obf"]:
        for line in (root / "data" / "ffo" / name).read_text().splitlines():
            if not line.strip():
                continue
            board, best, *_ = [f.strip() for f in line.split(";")]
            move, score = best.split(":")
            positions[number] = (yomi.Othello(board), move.lower(), int(score))
            number += 1
    return positions


def test_ffo_1_exact_and_wld(ffo):
    pos, move, score = ffo[1]
    assert (move, score) == ("g8", 18)
    r = yomi.solve(pos)
    assert r["score"] == 18 and r["best"] == "g8" and r["mode"] == "exact"
    assert r["stopped"] is None and r["lower"] == r["upper"] == 18
    assert r["nodes"] > 0 and r["seconds"] >= 0
    # The principal variation plays to the end with black winning by 18.
    end = pos.play_line(" ".join(r["pv"]))
    assert end.is_over and end.final_score == 18
    w = yomi.solve(str(pos), mode="wld")
    assert w["score"] == 1 and w["mode"] == "wld"


def test_ffo_1_to_19_every_score(ffo):
    for n in range(1, 20):
        pos, move, score = ffo[n]
        r = yomi.solve(pos, threads=1)
        assert r["score"] == score, n
        # Several moves may share the best score; the one found must reach it.
        after = pos.play(r["best"])
        assert -yomi.solve(after, threads=1)["score"] == score, n


def test_solver_keeps_its_table_and_values_every_move(ffo):
    solver = yomi.Solver(threads=1, hash_mb=16)
    assert repr(solver) == "Solver(threads=1, hash_mb=16)"
    pos, best, score = ffo[2]
    first = solver.solve(pos)
    again = solver.solve(pos)
    assert first["score"] == again["score"] == score
    assert again["nodes"] < first["nodes"]  # the table remembers the first solve
    solver.clear()
    assert solver.solve(pos)["nodes"] == first["nodes"]
    values = solver.move_values(pos)
    assert [v["move"] for v in values] == pos.legal_moves()
    assert max(v["score"] for v in values) == score
    assert next(v for v in values if v["move"] == best)["score"] == score
    wld = solver.move_values(pos, mode="wld")
    assert [v["score"] for v in wld] == [(v["score"] > 0) - (v["score"] < 0) for v in values]
    with pytest.raises(ValueError, match="hash size"):
        yomi.Solver(hash_mb=100_000)


def test_threads_do_not_change_the_score(ffo):
    pos, _, score = ffo[20]
    assert yomi.solve(pos, threads=1)["score"] == score
    assert yomi.solve(pos, threads=2)["score"] == score


def test_finished_game_and_errors():
    full = yomi.Othello("XO" * 32 + " X")
    r = yomi.solve(full)
    assert r["score"] == 0 and r["best"] is None and r["pv"] == []
    with pytest.raises(ValueError, match="unknown solve mode `best`"):
        yomi.solve(yomi.Othello(), mode="best")
    with pytest.raises(ValueError, match="hash size 0 MiB is out of range"):
        yomi.solve(full, hash_mb=0)
    with pytest.raises(ValueError, match="thread count 0 is out of range"):
        yomi.solve(full, threads=0)
    with pytest.raises(ValueError, match="bad othello position"):
        yomi.solve("not a board")
    with pytest.raises(TypeError, match="expected a yomi.Othello"):
        yomi.solve(yomi.TicTacToe())


def test_solve_releases_the_gil(ffo):
    """A second Python thread keeps running while a solve searches."""
    pos, _, score = ffo[40]  # 20 empties: about half a second on one core
    span = {}

    def work():
        span["start"] = time.perf_counter()
        span["result"] = yomi.solve(pos, threads=1)
        span["end"] = time.perf_counter()

    solver = threading.Thread(target=work)
    ticks = []
    solver.start()
    while solver.is_alive():
        ticks.append(time.perf_counter())
    solver.join()
    assert span["result"]["score"] == score
    during = [t for t in ticks if span["start"] < t < span["end"]]
    # Holding the GIL, the solve would leave this thread no tick inside its span but the
    # few before it entered Rust; released, this thread ticks all along.
    assert span["end"] - span["start"] > 0.05
    assert len(during) > 1000, (len(during), span["end"] - span["start"])


def test_limits_return_proved_bounds(ffo):
    # FFO #49 (26 empties, +16) takes far longer than these limits.
    pos, _, score = ffo[49]
    r = yomi.solve(pos, time=0.3, threads=2)
    assert r["stopped"] == "time"
    assert r["lower"] <= score <= r["upper"] and r["score"] == r["lower"]
    assert r["best"] in pos.legal_moves()
    r = yomi.Solver(threads=1).solve(pos, nodes=100_000)
    assert r["stopped"] == "nodes" and r["lower"] <= score <= r["upper"]
    # A solve that finishes within its limits is exact.
    small, _, small_score = ffo[1]
    r = yomi.solve(small, time=60)
    assert r["stopped"] is None and r["lower"] == r["upper"] == small_score
    for bad in [0, -1.0]:
        with pytest.raises(ValueError, match="time limit"):
            yomi.solve(pos, time=bad)
