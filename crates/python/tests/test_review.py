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


FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def test_a_position_is_analysed_as_the_page_analyses_it():
    a = yomi.analyse_position(FFO_1, time=5)
    assert a["to_move"] == "black"
    assert a["analyst"].startswith("othello:time=5,")
    assert a["best"] == ["g8"] and a["line"][0] == "g8"
    assert a["value"]["kind"] == "exact" and a["value"]["value"] == 18
    values = {v["move"]: v["score"] for v in yomi.Solver(threads=1, hash_mb=16).move_values(FFO_1)}
    assert {m["move"] for m in a["moves"]} == set(values)
    for m in a["moves"]:
        assert m["value"]["kind"] == "exact"
        assert m["value"]["value"] == values[m["move"]]
        assert m["loss"] == 18 - values[m["move"]]
        assert m["best"] == (m["move"] == "g8")
    start = yomi.analyse_position(moves="f5 d6", time=0.2)
    assert start["to_move"] == "black" and len(start["moves"]) > 1
    assert all(m["value"]["kind"] == "estimate" for m in start["moves"])
    with pytest.raises(ValueError, match="othello"):
        yomi.analyse_position(agent="random")
    with pytest.raises(ValueError, match="foo"):
        yomi.analyse_position(agent="othello:foo=1")
    with pytest.raises(ValueError):
        yomi.analyse_position(moves="f5 a1")
    with pytest.raises(ValueError, match="time"):
        yomi.analyse_position(time=0)


def test_a_book_opens_and_answers_under_every_symmetry(tmp_path, cli):
    from conftest import run_cli

    lines = tmp_path / "lines.txt"
    lines.write_text("f5 d6 c3 d3 c4\nf5 f6 e6 f4\n")
    path = tmp_path / "b.book"
    run_cli(cli, "book", "new", "--lines", str(lines), "--depth", "3", "--out", str(path))
    book = yomi.Book(path)
    assert len(book) == 9 and "positions" in repr(book)
    assert len(book.weights) == 16
    start = yomi.Othello()
    assert start in book
    f5 = start.play("f5")
    d3 = start.play("d3")  # an image of f5
    assert book.get(f5)["value"] == book.get(d3)["value"]
    assert book.get(f5)["lines"] == 2
    moves = book.moves(f5)
    assert [m["value"] for m in moves] == sorted((m["value"] for m in moves), reverse=True)
    assert sum(m["leaf"] for m in moves) <= 1
    assert {m["move"] for m in moves} <= set(f5.legal_moves())
    assert book.get(start.play("f5").play("f4").play("e3")) is None
    assert len(book.entries()) == 9
    with pytest.raises(ValueError, match="not a yomi book"):
        yomi.Book(lines)
