"""Game review by disc loss: records per move, the same for every way of writing the game,
the exact region checked against the solver, bad input as ValueError."""

import pytest

import yomi


def random_game(seed):
    """A whole game from the start, each move drawn by a small xorshift generator."""
    x = seed | 1
    pos = yomi.Othello()
    moves = []
    while not pos.is_over:
        x ^= (x << 13) & (2**64 - 1)
        x ^= x >> 7
        x ^= (x << 17) & (2**64 - 1)
        legal = pos.legal_moves()
        mv = legal[x % len(legal)]
        moves.append(mv)
        pos = pos.play(mv)
    return moves


def test_a_game_reviews_to_records_with_exact_losses_at_the_end():
    moves = random_game(3)
    review = yomi.analyse(moves, depth=2, exact=10)
    assert len(review) == len(moves)
    assert [r["move"] for r in review] == moves
    assert [r["number"] for r in review] == list(range(1, len(moves) + 1))
    assert yomi.analyse(" ".join(moves), depth=2, exact=10) == review
    pos = yomi.Othello()
    solver = yomi.Solver(threads=1, hash_mb=16)
    for r in review:
        assert r["loss"] >= 0 and r["best_value"] - r["value"] == pytest.approx(r["loss"])
        if r["kind"] == "exact" and not r["forced"]:
            values = {v["move"]: v["score"] for v in solver.move_values(pos)}
            assert r["value"] == values[r["move"]]
            assert r["best_value"] == max(values.values())
        if r["kind"] == "estimate":
            assert r["depth"] == 2
        pos = pos.play(r["move"])
    assert sum(r["decisive"] for r in review) <= 1
    assert {r["kind"] for r in review} >= {"estimate", "exact"}


def test_bad_games_and_settings_raise_value_error():
    with pytest.raises(ValueError, match="move 3"):
        yomi.analyse("f5 d6 a1")
    with pytest.raises(ValueError):
        yomi.analyse("f5 z9")
    with pytest.raises(ValueError):
        yomi.analyse("f5", depth=0)
    with pytest.raises(ValueError):
        yomi.analyse("f5", exact=20, wld=18)
    with pytest.raises(ValueError):
        yomi.analyse("f5", time=-1.0)
