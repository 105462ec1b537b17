"""Positions: notation, moves, outcomes, symmetries and perft against published counts."""

import re

import pytest

import yomi
from conftest import run_cli


def test_tictactoe_notation_round_trips_and_plays():
    pos = yomi.TicTacToe("x../.o./..o")
    assert str(pos) == "x...o...o"
    assert pos.pretty() == "x..\n.o.\n..o\nTurn x"
    assert repr(pos) == "TicTacToe('x...o...o')"
    assert pos == yomi.TicTacToe().play_line("(1,1) (0,0) (2,2)")
    assert yomi.TicTacToe(str(pos)) == pos
    assert hash(yomi.TicTacToe(str(pos))) == hash(pos)
    assert pos.side_to_move == "second"
    assert pos.legal_moves() == ["(1,0)", "(2,0)", "(0,1)", "(2,1)", "(0,2)", "(1,2)"]
    end = pos.play_line("(2,0) (1,0) (0,2) (1,2)")
    assert end.outcome == "first" and end.is_over
    assert end.legal_moves() == []
    assert end.pretty() == "xox\n.o.\nxoo\no wins"
    assert yomi.TicTacToe().outcome is None
    assert yomi.TicTacToe.GAME == "tictactoe"
    assert yomi.TicTacToe.player_names == ("o", "x")


def test_children_are_the_positions_after_each_move():
    pos = yomi.TicTacToe()
    kids = pos.children()
    assert len(kids) == 9
    for move, child in kids:
        assert child == pos.play(move)
        assert child.side_to_move == "second"


def test_perft_matches_published_counts():
    # Tic-tac-toe: move sequences of exactly d plies, the published counts by depth.
    at_depth = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    for d, n in enumerate(at_depth):
        assert yomi.TicTacToe().perft_counts(d)[0] == n
    # 255 168 complete games of tic-tac-toe: 127 872 fill the board, 127 296 end earlier.
    assert yomi.TicTacToe().perft_counts(9) == (127872, 127296)
    assert yomi.TicTacToe().perft(9) == 255168
    # Othello's standard perft (a pass is a ply).
    assert [yomi.Othello().perft(d) for d in range(1, 8)] == [4, 12, 56, 244, 1396, 8200, 55092]
    assert yomi.Othello().perft(8) == 390216
    # The generic walk agrees with Othello's fast counter.
    at, early = yomi.Othello().perft_counts(6)
    assert at + early == 8200


def test_nim():
    pos = yomi.Nim()
    assert str(pos) == "15:first" and pos.stones == 15
    assert pos.legal_moves() == ["1", "2", "3"]
    assert pos.play("3") == yomi.Nim("12:second")
    assert yomi.Nim("1:second").play("1").outcome == "second"
    # Sequences of takes that empty a pile of 4: compositions of 4 into parts 1..3.
    assert yomi.Nim("4").perft_counts(4) == (1, 6)


def test_othello_positions():
    start = yomi.Othello()
    assert start.legal_moves() == ["d3", "c4", "f5", "e6"]
    pos = start.play_line("f5d6c3d3c4")
    assert pos == start.play_line("f5 d6 c3 d3 c4")
    assert pos.side_to_move == "second"
    assert yomi.Othello(str(pos)) == pos
    assert start.disc_counts == (2, 2) and start.empties == 60
    full = yomi.Othello("XO" * 32 + " X")
    assert full.is_over and full.final_score == 0 and full.outcome == "draw"
    assert start.final_score is None


def test_symmetries():
    pos = yomi.TicTacToe("x...o...o")
    images = pos.symmetries()
    assert len(images) == 8 and images[0] == pos
    assert all(img.canonical_key == pos.canonical_key for img in images)
    assert pos.transform(1) == images[1]
    assert yomi.TicTacToe.transform_move("(1,1)", 3) == "(1,1)"
    # The move image commutes with play.
    for s in range(8):
        for move in pos.legal_moves():
            assert pos.play(move).transform(s) == pos.transform(s).play(
                yomi.TicTacToe.transform_move(move, s)
            )
    o = yomi.Othello().play("f5")
    assert len({img.canonical_key for img in o.symmetries()}) == 1
    assert o.canonical() == o.transform(5).canonical()
    with pytest.raises(ValueError, match="symmetry 8 does not exist"):
        pos.transform(8)


def test_random_playouts_are_seeded():
    pos = yomi.TicTacToe()
    assert [pos.random_playout(seed=s) for s in range(20)] == [
        pos.random_playout(seed=s) for s in range(20)
    ]
    outcomes = {pos.random_playout(seed=s) for s in range(200)}
    assert outcomes == {"first", "second", "draw"}


def test_bad_input_raises_value_error_with_the_library_message():
    with pytest.raises(ValueError, match="bad tictactoe position"):
        yomi.TicTacToe("ooo/xxx/...")
    with pytest.raises(ValueError, match=r"illegal move \(1,1\)"):
        yomi.TicTacToe("....o....").play("(1,1)")
    with pytest.raises(ValueError, match="bad move"):
        yomi.TicTacToe().play("centre")
    with pytest.raises(ValueError, match="the game is over"):
        yomi.TicTacToe("ooo/xx./...").play("(2,1)")
    with pytest.raises(ValueError, match=r"move 2 \(f5\) is illegal"):
        yomi.Othello().play_line("f5f5")
    with pytest.raises(ValueError, match="bad nim position"):
        yomi.Nim("many")
    with pytest.raises(TypeError, match="expected a yomi.Othello"):
        yomi.Othello(42)
    with pytest.raises(TypeError):
        yomi.Othello(yomi.TicTacToe())


def test_games_are_the_clis_list(cli):
    # One list of games (yomi_agents::known_games): the CLI's `--game` values, the package's
    # games() and its position classes name the same games in the same order.
    help_text = run_cli(cli, "perft", "-h")
    found = re.search(r"--game <GAME>.*?\[possible values: ([^\]]*)\]", help_text, re.S)
    assert found, help_text
    cli_games = [g.strip() for g in found.group(1).split(",")]
    assert yomi.games() == cli_games
    assert yomi.games() == ["tictactoe", "nim", "othello", "othello4", "othello6"]
    classes = [yomi.TicTacToe, yomi.Nim, yomi.Othello, yomi.Othello4, yomi.Othello6]
    assert [c.GAME for c in classes] == yomi.games()


@pytest.mark.parametrize("cls, game", [(yomi.Othello4, "othello4"), (yomi.Othello6, "othello6")])
def test_small_othello_boards_match_the_cli(cli, cls, game):
    start = cls()
    assert start == cls("diagonal")
    assert cls("parallel") != start
    assert repr(cls(str(start))) == f"{cls.__name__}('{start}')"
    assert len(str(start)) == {"othello4": 16, "othello6": 36}[game] + 2
    assert start.empties == len(str(start)) - 2 - 4
    assert start.disc_counts == (2, 2)
    assert len(start.legal_moves()) == 4
    assert len(start.symmetries()) == 8
    assert all(s.canonical() == start.canonical() for s in start.symmetries())
    for depth in (4, 6):
        out = run_cli(cli, "perft", "--game", game, str(depth))
        leaves = int(re.search(r"leaves \(perft\)\s+(\d+)", out).group(1))
        assert start.perft(depth) == leaves
    with pytest.raises(ValueError):
        cls(str(yomi.Othello()))


def test_small_othello_trees_and_agents():
    tree = yomi.Tree("othello4")
    assert tree.game == "othello4"
    start = yomi.Othello6()
    assert yomi.agent("random", game="othello6").choose(start) in start.legal_moves()
    expected = 'unknown game "chess": expected one of tictactoe, nim, othello, othello4, othello6'
    with pytest.raises(ValueError, match=re.escape(expected)):
        yomi.agent("random", game="chess")
