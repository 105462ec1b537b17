"""Agents: building from specs, choices, explanations, and the CLI's explanation for a seed."""

import json
import threading

import pytest

import yomi
from conftest import run_cli


def test_study_worked_example():
    # The study's example: X to move after O (1,1), X (0,0), O (2,2).
    agent = yomi.agent("ai11s:score_102=0.5")
    assert agent.spec == "ai11s:score_201=1,score_102=0.5,score_012=-1"
    assert agent.game == "tictactoe"
    why = agent.explain("x...o...o")
    assert why["best"] == ["(2,0)", "(0,2)"]
    assert why["chosen"] in why["best"]
    assert why["moves"][1]["note"] == "lines"
    assert list(why["moves"][1]["parts"])[0] == "201"
    assert [m["move"] for m in why["moves"]] == yomi.TicTacToe("x...o...o").legal_moves()


def test_choose_is_explain_chosen_for_every_seed():
    agent = yomi.agent("pmc2:pnum=200")
    pos = yomi.TicTacToe("x...o....")
    for seed in range(30):
        assert agent.choose(pos, seed=seed) == agent.explain(pos, seed=seed)["chosen"]
    # Same seed, same move; the playouts differ between seeds.
    assert len({agent.choose(pos, seed=s) for s in range(30)}) > 1


def test_perfect_play_and_other_games():
    perfect = yomi.agent("perfect")
    assert perfect.choose("oo.xx....") == "(2,0)"  # O completes the top row
    nim = yomi.agent("perfect", game="nim")
    assert nim.choose(yomi.Nim()) == "3"  # leave a multiple of 4
    othello = yomi.agent("othello", game="othello")
    assert othello.choose(yomi.Othello()) in yomi.Othello().legal_moves()
    assert yomi.agent("first", game="othello").choose(yomi.Othello()) == "d3"


def test_explanation_equals_the_cli(cli):
    for spec, pos, seed in [
        ("pmc2:pnum=500", "x...o....", 7),
        ("ai14s", "x...o...o", 3),
        ("perfect-sv", ".........", 1),
        ("mcts:iters=300", "x...o....", 5),
    ]:
        out = json.loads(run_cli(cli, "explain", spec, pos, "--seed", str(seed), "--json"))
        why = yomi.agent(spec).explain(pos, seed=seed)
        assert why["agent"] == out["agent"]
        assert why["chosen"] == out["chosen"]
        assert why["best"] == out["best"]
        assert why["notes"] == out.get("notes", [])
        for ours, theirs in zip(why["moves"], out["moves"], strict=True):
            assert ours["move"] == theirs["move"]
            assert ours["score"] == theirs["score"]
            assert ours["parts"] == {p["label"]: p["value"] for p in theirs["parts"]}
            assert ours["note"] == theirs.get("note")


def test_agent_list_matches_the_zoo():
    names = [a["name"] for a in yomi.agents()]
    assert names[:3] == ["random", "first", "ai1"]
    assert "pmc2" in names and "table" in names
    table = next(a for a in yomi.agents() if a["name"] == "table")
    assert not table["builds_bare"]
    assert [p["name"] for p in table["params"]] == ["file", "scoring"]
    assert "othello" in [a["name"] for a in yomi.agents("othello")]
    assert table["levels"] == []


def test_othello_levels_are_listed_and_build():
    othello = next(a for a in yomi.agents("othello") if a["name"] == "othello")
    levels = othello["levels"]
    assert [lv["level"] for lv in levels] == list(range(1, 31))
    assert levels[0] == {"level": 1, "depth": 1, "probcut": None, "wld": 2, "exact": 2}
    assert levels[9] == {"level": 10, "depth": 10, "probcut": 1.5, "wld": 18, "exact": 16}
    small = next(a for a in yomi.agents("othello6") if a["name"] == "othello")
    assert small["levels"] == []
    agent = yomi.agent("othello:level=3", game="othello")
    assert agent.spec.startswith("othello:level=3,time=0,depth=3,wld=6,exact=6,")
    assert yomi.agent("othello:level=10,depth=6", game="othello").spec.startswith(
        "othello:level=10,time=0,depth=6,wld=18,exact=16,"
    )
    assert agent.choose(yomi.Othello()) in yomi.Othello().legal_moves()
    with pytest.raises(ValueError, match="expected none or a whole number from 1 to 30"):
        yomi.agent("othello:level=31", game="othello")


def test_bad_specs_and_positions_raise():
    with pytest.raises(ValueError, match='unknown agent "frist" for tictactoe; known agents: random, first'):
        yomi.agent("frist")
    with pytest.raises(ValueError, match='agent pmc2 has no parameter "pnun"'):
        yomi.agent("pmc2:pnun=10")
    with pytest.raises(ValueError, match="bad value"):
        yomi.agent("pmc2:pnum=-3")
    with pytest.raises(ValueError, match="unknown game"):
        yomi.agent("random", game="chess")
    with pytest.raises(ValueError, match="the game is over"):
        yomi.agent("random").choose("ooo/xx./...")
    with pytest.raises(TypeError, match="expected a yomi.TicTacToe"):
        yomi.agent("random").choose(yomi.Othello())
    with pytest.raises(ValueError, match="invalid time limit `-1`: expected a positive number of seconds"):
        yomi.agent("othello", game="othello").set_limits(time=-1)
    with pytest.raises(ValueError, match="invalid node limit `0`"):
        yomi.agent("othello", game="othello").set_limits(nodes=0)


def test_an_agent_can_be_shared_between_threads():
    agent = yomi.agent("pmc2:pnum=2000")
    pos = yomi.TicTacToe()
    expected = [agent.choose(pos, seed=s) for s in range(8)]
    got = [None] * 8

    def work(s):
        got[s] = agent.choose(pos, seed=s)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected
