"""The exact tree: known values, exact Fractions, numpy arrays, data files, the CLI's audit."""

from fractions import Fraction

import pytest

import yomi
from conftest import run_cli


@pytest.fixture(scope="module")
def tree():
    return yomi.Tree("tictactoe")


def test_root_probabilities_are_exact(tree):
    p = tree.probabilities(yomi.TicTacToe())
    assert p == {
        "first": Fraction(737, 1260),
        "draw": Fraction(8, 63),
        "second": Fraction(121, 420),
    }
    assert sum(p.values()) == 1
    assert tree.value(".........") == 0  # a draw with perfect play
    assert tree.sv(".........") == 0


def test_tree_shape(tree):
    assert len(tree) == 5478
    assert tree.canonical_count() == 765
    counts = tree.counts()
    assert counts["total"] == 549946
    assert counts["per_depth"] == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert counts["terminal"] == {"first": 131184, "draw": 46080, "second": 77904}
    assert tree.longest_game == 9
    assert tree.start == yomi.TicTacToe()
    assert tree.game == "tictactoe"
    positions = list(tree)
    assert len(positions) == 5478 and positions[0] == tree.start
    assert all(tree.id_of(p) == i for i, p in enumerate(positions[:500]))
    assert tree.position(17) == positions[17]
    assert "x...o...o" in tree and tree.id_of(yomi.TicTacToe("x...o...o")) is not None


def test_values_and_best_moves(tree):
    # O to move can win at once: shortest victory prefers the immediate win.
    pos = "oo.xx...."
    assert tree.value(pos) == 1
    assert tree.best_moves(pos, scoring="sv") == ["(2,0)"]
    assert "(2,0)" in tree.best_moves(pos)
    # A win with d marks on the board is worth (11 - d)/2 to O.
    assert tree.sv(tree.position(0).play_line("(0,0) (1,0) (1,1) (2,0) (2,2)")) == Fraction(3)
    assert tree.outcome("ooo/xx./...") == "first" and tree.outcome(".........") is None
    # The centre's exact playout probabilities for O (the study's first-move table).
    centre = tree.probabilities(yomi.TicTacToe().play("(1,1)"))
    assert centre["first"] + Fraction(1, 2) * centre["draw"] == Fraction(3, 4)


def test_numpy_arrays_agree_with_the_exact_values(tree):
    np = pytest.importorskip("numpy")
    a = tree.to_numpy()
    n = len(tree)
    assert set(a) == {"depth", "mover", "moves", "finished", "outcome", "value", "sv",
                      "p_first", "p_draw", "p_second"}
    assert all(len(col) == n for col in a.values())
    assert a["p_first"][0] == 737 / 1260
    assert a["p_second"][0] == 121 / 420
    assert np.allclose(a["p_first"] + a["p_draw"] + a["p_second"], 1.0)
    assert int(a["finished"].sum()) == 958  # distinct finished positions
    assert np.bincount(a["depth"]).tolist() == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    for i in range(0, n, 97):
        p = tree.probabilities(tree.position(i))
        assert a["p_draw"][i] == float(p["draw"])
        assert a["value"][i] == tree.value(tree.position(i))
        assert a["sv"][i] == float(tree.sv(tree.position(i)))


def test_bundled_and_loaded_files_equal_the_built_tree(tree, root, tmp_path):
    bundled = yomi.Tree.bundled()
    loaded = yomi.Tree.load(root / "data" / "tictactoe.tree")
    assert len(bundled) == len(loaded) == len(tree)
    for pos in list(tree)[::53]:
        assert bundled.probabilities(pos) == tree.probabilities(pos) == loaded.probabilities(pos)
        assert bundled.best_moves(pos, "sv") == tree.best_moves(pos, "sv")
    # Save and load again.
    path = tmp_path / "t.tree"
    tree.save(path)
    assert path.read_bytes() == (root / "data" / "tictactoe.tree").read_bytes()
    nim = yomi.Tree.bundled("nim")
    assert len(nim) == 30 and nim.value("15") == 1 and nim.best_moves("15") == ["3"]
    assert nim.canonical_count() is None


def test_other_starts_and_games():
    t = yomi.Tree("tictactoe", start="x...o...o")
    assert t.start == yomi.TicTacToe("x...o...o")
    assert t.probabilities(t.start) == yomi.Tree().probabilities("x...o...o")
    nim = yomi.Tree("nim", start="7")
    assert nim.value("7") == 1 and nim.best_moves("7") == ["3"]

def test_othello_endgame_tree_agrees_with_the_solver():
    # FFO #1 after eight moves of its principal variation: 6 empties, a small exact tree.
    ffo1 = yomi.Othello("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
    pos = ffo1.play_line("g8h7a8a6a4a7b6a2")
    assert pos.empties == 6
    small = yomi.Tree("othello", start=pos)
    assert len(small) > 100
    # Every unfinished position: the minimax sign (black's side) is the solver's WLD result.
    checked = 0
    solver = yomi.Solver(threads=1, hash_mb=1)
    for p in small:
        if p.is_over:
            continue
        wld = solver.solve(p, mode="wld")["score"]
        sign = 1 if p.side_to_move == "first" else -1
        assert small.value(p) == sign * wld, str(p)
        checked += 1
    assert checked > 50


def test_audit_equals_the_cli(tree, cli):
    for rule in ["pmc", "pmc2", "pmc2:alpha=1/3"]:
        report = tree.audit(rule)
        out = run_cli(cli, "tree", "audit", "--rule", rule).splitlines()
        rows = [line.split() for line in out[1:-2]]
        assert report["checked"] == int(out[-2].split()[-1])
        assert len(report["findings"]) == int(out[-1].split()[-1])
        for f, row in zip(report["findings"], rows, strict=True):
            assert str(f["position"]) == row[0]
            rule_at = row.index("rule")
            best_at = row.index("best")
            assert f["rule_moves"] == row[rule_at + 1:best_at]
            assert f["best_moves"] == row[best_at + 1:]


def test_errors(tree, tmp_path):
    with pytest.raises(ValueError, match="is not in the tree data"):
        yomi.Tree("tictactoe", start="x...o...o").value(".........")
    with pytest.raises(ValueError, match="more than 100 distinct positions"):
        yomi.Tree("tictactoe", max_positions=100)
    with pytest.raises(OSError, match="cannot access"):
        yomi.Tree.load(tmp_path / "missing.tree")
    with pytest.raises(ValueError, match="not a regular file"):
        yomi.Tree.load(tmp_path)
    bad = tmp_path / "bad.tree"
    bad.write_bytes(b"not a tree at all, just some bytes that are long enough to read a header")
    with pytest.raises(ValueError):
        yomi.Tree.load(bad)
    with pytest.raises(ValueError, match="no tree file of othello ships"):
        yomi.Tree.bundled("othello")
    with pytest.raises(IndexError):
        tree.position(len(tree))
    with pytest.raises(ValueError, match="bad scoring"):
        tree.best_moves(".........", scoring="best")
