"""Random bad input raises ValueError (or TypeError for the wrong kind of object), never
anything else, and never takes the interpreter down."""

import random

import pytest

import yomi

ALPHABET = "ox.XO-/ (),:0123456789abcdefghpPA\n\té"


def random_texts(seed, count, longest):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(longest)))


@pytest.mark.parametrize("cls", [yomi.TicTacToe, yomi.Nim, yomi.Othello])
def test_random_notation(cls):
    for text in random_texts(1, 5000, 70):
        try:
            pos = cls(text)
        except ValueError:
            continue
        assert cls(str(pos)) == pos
    for text in random_texts(2, 2000, 6):
        try:
            cls().play(text)
        except ValueError:
            pass
        try:
            cls().play_line(text)
        except ValueError:
            pass


def test_random_othello_boards_parse_and_round_trip():
    rng = random.Random(3)
    for _ in range(2000):
        board = "".join(rng.choice("XO-") for _ in range(64)) + " " + rng.choice("XO")
        try:
            pos = yomi.Othello(board)
        except ValueError:
            continue
        assert str(yomi.Othello(str(pos))) == str(pos)
        pos.legal_moves()


def test_random_specs():
    rng = random.Random(4)
    pieces = ["pmc2", "ai11s", "blunder", ":", "=", ",", "(", ")", "pnum", "p", "agent", "1", "-3", "0.5", "x"]
    built = 0
    for _ in range(3000):
        spec = "".join(rng.choice(pieces) for _ in range(rng.randrange(8)))
        try:
            agent = yomi.agent(spec)
        except ValueError:
            continue
        built += 1
        assert agent.choose(yomi.TicTacToe()) in yomi.TicTacToe().legal_moves()
    assert built > 0


def test_random_tree_files(tmp_path):
    good = yomi.Tree.bundled("nim")
    path = tmp_path / "nim.tree"
    good.save(path)
    data = bytearray(path.read_bytes())
    rng = random.Random(5)
    for _ in range(300):
        bad = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        cut = rng.choice([len(bad), rng.randrange(len(bad))])
        path.write_bytes(bytes(bad[:cut]))
        try:
            tree = yomi.Tree.load(path, game="nim")
        except ValueError:
            continue
        # A change the checksum cannot see would have to leave a valid tree.
        assert len(tree) == len(good)
