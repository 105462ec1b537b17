"""The Python side of the overhead measurement: the work of
`cargo bench -p yomi-benches --bench python_overhead`, through the `yomi` package.

Each figure is the median of REPEATS timed runs (after one warm-up), as criterion reports a
median; the numbers computed are asserted equal to the Rust bench's.

    python crates/python/bench/overhead.py
"""

import statistics
import time

import yomi

REPEATS = 15


def median_seconds(work, expected):
    assert work() == expected  # warm-up, and the same result as the Rust bench
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
        assert result == expected
    return statistics.median(times)


def pmc2_decisions():
    agent = yomi.agent("pmc2:pnum=1000")
    empty = yomi.TicTacToe()
    return sum(agent.choose(empty, seed=seed) == "(1,1)" for seed in range(1000))


def legal_moves(pos):
    def work():
        return sum(len(pos.legal_moves()) for _ in range(10_000))

    return work


def main():
    rows = [
        ("1000 pmc2:pnum=1000 decisions", pmc2_decisions, 776),
        ("10000 legal_moves, tic-tac-toe start", legal_moves(yomi.TicTacToe()), 90_000),
        ("10000 legal_moves, Othello start", legal_moves(yomi.Othello()), 40_000),
    ]
    for name, work, expected in rows:
        secs = median_seconds(work, expected)
        print(f"{name:40} {secs * 1e3:9.3f} ms (median of {REPEATS})")


if __name__ == "__main__":
    main()
