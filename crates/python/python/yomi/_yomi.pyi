"""Type stubs of the native module ``yomi._yomi`` (re-exported by ``yomi``).

Kept in step with ``crates/python/src`` by ``tests/test_stubs.py``, which compares every
name, method and parameter here with the compiled module.
"""

from fractions import Fraction
from os import PathLike
from typing import Any, ClassVar, Iterator, Literal, Optional, Sequence, TypedDict, Union

import numpy
import numpy.typing

__version__: str

Side = Literal["first", "second"]
OutcomeName = Literal["first", "second", "draw"]
GameName = Literal["tictactoe", "nim", "othello", "othello4", "othello6"]

def games() -> list[GameName]: ...

class TicTacToe:
    """A tic-tac-toe position: 9 cells of ``o``, ``x``, ``.`` in row-major order
    (``"x...o...o"``); O moves first. Moves are ``"(x,y)"``, column then row."""

    GAME: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    def __init__(self, text: Optional[Union[str, TicTacToe]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def play(self, move: str) -> TicTacToe: ...
    def play_line(self, line: str) -> TicTacToe: ...
    def children(self) -> list[tuple[str, TicTacToe]]: ...
    def perft(self, depth: int) -> int: ...
    def perft_counts(self, depth: int) -> tuple[int, int]: ...
    def random_playout(self, seed: int = 1) -> OutcomeName: ...
    def transform(self, sym: int) -> TicTacToe: ...
    def symmetries(self) -> list[TicTacToe]: ...
    @staticmethod
    def transform_move(move: str, sym: int) -> str: ...
    @property
    def canonical_key(self) -> int: ...
    def pretty(self) -> str: ...

class Nim:
    """A position of the stone game: ``"STONES:SIDE"`` (``"15:first"``); take 1 to 3
    stones, taking the last one wins. Moves are ``"1"``, ``"2"``, ``"3"``."""

    GAME: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    def __init__(self, text: Optional[Union[str, Nim]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def play(self, move: str) -> Nim: ...
    def play_line(self, line: str) -> Nim: ...
    def children(self) -> list[tuple[str, Nim]]: ...
    def perft(self, depth: int) -> int: ...
    def perft_counts(self, depth: int) -> tuple[int, int]: ...
    def random_playout(self, seed: int = 1) -> OutcomeName: ...
    @property
    def stones(self) -> int: ...

class Othello:
    """An Othello position: 64 squares a1..h8 of ``X`` (black), ``O`` (white), ``-``, then
    the side to move (``X`` or ``O``). Moves are squares ``"d3"`` or ``"PA"`` (a pass)."""

    GAME: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    def __init__(self, text: Optional[Union[str, Othello]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def play(self, move: str) -> Othello: ...
    def play_line(self, line: str) -> Othello: ...
    def children(self) -> list[tuple[str, Othello]]: ...
    def perft(self, depth: int) -> int: ...
    def perft_counts(self, depth: int) -> tuple[int, int]: ...
    def random_playout(self, seed: int = 1) -> OutcomeName: ...
    def transform(self, sym: int) -> Othello: ...
    def symmetries(self) -> list[Othello]: ...
    @staticmethod
    def transform_move(move: str, sym: int) -> str: ...
    @property
    def canonical_key(self) -> int: ...
    def pretty(self) -> str: ...
    @property
    def empties(self) -> int: ...
    @property
    def disc_counts(self) -> tuple[int, int]: ...
    @property
    def final_score(self) -> Optional[int]: ...
    def canonical(self) -> Othello: ...

class Othello4:
    """Othello on a 4x4 board: 16 squares a1..d4 of ``X``, ``O``, ``-``, then the side to
    move; or ``"diagonal"`` / ``"parallel"`` for the two starts."""

    GAME: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    def __init__(self, text: Optional[Union[str, Othello4]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def play(self, move: str) -> Othello4: ...
    def play_line(self, line: str) -> Othello4: ...
    def children(self) -> list[tuple[str, Othello4]]: ...
    def perft(self, depth: int) -> int: ...
    def perft_counts(self, depth: int) -> tuple[int, int]: ...
    def random_playout(self, seed: int = 1) -> OutcomeName: ...
    def transform(self, sym: int) -> Othello4: ...
    def symmetries(self) -> list[Othello4]: ...
    @staticmethod
    def transform_move(move: str, sym: int) -> str: ...
    @property
    def canonical_key(self) -> int: ...
    def pretty(self) -> str: ...
    @property
    def empties(self) -> int: ...
    @property
    def disc_counts(self) -> tuple[int, int]: ...
    @property
    def final_score(self) -> Optional[int]: ...
    def canonical(self) -> Othello4: ...

class Othello6:
    """Othello on a 6x6 board: 36 squares a1..f6 of ``X``, ``O``, ``-``, then the side to
    move; or ``"diagonal"`` / ``"parallel"`` for the two starts."""

    GAME: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    def __init__(self, text: Optional[Union[str, Othello6]] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def outcome(self) -> Optional[OutcomeName]: ...
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> list[str]: ...
    def is_legal(self, move: str) -> bool: ...
    def play(self, move: str) -> Othello6: ...
    def play_line(self, line: str) -> Othello6: ...
    def children(self) -> list[tuple[str, Othello6]]: ...
    def perft(self, depth: int) -> int: ...
    def perft_counts(self, depth: int) -> tuple[int, int]: ...
    def random_playout(self, seed: int = 1) -> OutcomeName: ...
    def transform(self, sym: int) -> Othello6: ...
    def symmetries(self) -> list[Othello6]: ...
    @staticmethod
    def transform_move(move: str, sym: int) -> str: ...
    @property
    def canonical_key(self) -> int: ...
    def pretty(self) -> str: ...
    @property
    def empties(self) -> int: ...
    @property
    def disc_counts(self) -> tuple[int, int]: ...
    @property
    def final_score(self) -> Optional[int]: ...
    def canonical(self) -> Othello6: ...

Position = Union[TicTacToe, Nim, Othello, Othello4, Othello6, str]

class MoveScore(TypedDict):
    move: str
    score: float
    parts: dict[str, float]
    note: Optional[str]

class Explanation(TypedDict):
    agent: str
    moves: list[MoveScore]
    best: list[str]
    chosen: str
    notes: list[str]

class Agent:
    """An agent of the zoo; build one with :func:`agent`."""

    @property
    def spec(self) -> str: ...
    @property
    def game(self) -> GameName: ...
    def choose(self, position: Position, seed: int = 1) -> str: ...
    def explain(self, position: Position, seed: int = 1) -> Explanation: ...
    def set_limits(self, time: Optional[float] = None, nodes: Optional[int] = None) -> None: ...

class ParamInfo(TypedDict):
    name: str
    default: str
    help: str

class LevelInfo(TypedDict):
    level: int
    depth: int
    probcut: float | None
    wld: int
    exact: int

class AgentInfo(TypedDict):
    name: str
    summary: str
    params: list[ParamInfo]
    builds_bare: bool
    levels: list[LevelInfo]

def agent(spec: str, game: GameName = "tictactoe") -> Agent: ...
def agents(game: GameName = "tictactoe") -> list[AgentInfo]: ...

class Probabilities(TypedDict):
    first: Fraction
    draw: Fraction
    second: Fraction

class Terminal(TypedDict):
    first: int
    draw: int
    second: int

class TreeCounts(TypedDict):
    per_depth: list[int]
    total: int
    terminal: Terminal

class AuditFinding(TypedDict):
    id: int
    position: Union[TicTacToe, Nim, Othello]
    rank: int
    rule_moves: list[str]
    best_moves: list[str]

class AuditReport(TypedDict):
    rule: str
    scoring: str
    checked: int
    findings: list[AuditFinding]

class Tree:
    """The exact game tree of a small game (see ``docs/python.md``)."""

    def __init__(
        self,
        game: GameName = "tictactoe",
        start: Optional[Position] = None,
        max_positions: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def load(path: Union[str, PathLike[str]], game: GameName = "tictactoe") -> Tree: ...
    @staticmethod
    def bundled(game: GameName = "tictactoe") -> Tree: ...
    def save(self, path: Union[str, PathLike[str]]) -> None: ...
    @property
    def game(self) -> GameName: ...
    def __len__(self) -> int: ...
    def __contains__(self, position: Position) -> bool: ...
    def __iter__(self) -> Iterator[Any]: ...
    @property
    def start(self) -> Any: ...
    def position(self, id: int) -> Any: ...
    def id_of(self, position: Position) -> Optional[int]: ...
    def depth(self, position: Position) -> int: ...
    @property
    def longest_game(self) -> int: ...
    def value(self, position: Position) -> int: ...
    def sv(self, position: Position) -> Fraction: ...
    def probabilities(self, position: Position) -> Probabilities: ...
    def best_moves(self, position: Position, scoring: Literal["plain", "sv"] = "plain") -> list[str]: ...
    def outcome(self, position: Position) -> Optional[OutcomeName]: ...
    def counts(self) -> TreeCounts: ...
    def canonical_count(self) -> Optional[int]: ...
    def to_numpy(self) -> dict[str, numpy.typing.NDArray[Any]]: ...
    def audit(self, rule: str = "pmc2", scoring: Literal["plain", "sv"] = "plain", symmetric: bool = True) -> AuditReport: ...

class SolveResult(TypedDict):
    score: int
    mode: Literal["exact", "wld"]
    best: Optional[str]
    pv: list[str]
    nodes: int
    seconds: float
    stopped: Optional[Literal["time", "nodes", "interrupted"]]
    lower: int
    upper: int

class MoveValue(TypedDict):
    move: str
    score: int
    nodes: int

class Solver:
    """An Othello endgame solver that keeps its transposition table between solves."""

    def __init__(self, threads: Optional[int] = None, hash_mb: int = 64) -> None: ...
    def solve(
        self,
        position: Union[Othello, str],
        mode: Literal["exact", "wld"] = "exact",
        time: Optional[float] = None,
        nodes: Optional[int] = None,
    ) -> SolveResult: ...
    def move_values(
        self, position: Union[Othello, str], mode: Literal["exact", "wld"] = "exact"
    ) -> list[MoveValue]: ...
    def clear(self) -> None: ...

def solve(
    position: Union[Othello, str],
    mode: Literal["exact", "wld"] = "exact",
    threads: Optional[int] = None,
    hash_mb: int = 64,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
) -> SolveResult: ...

class MoveReview(TypedDict):
    number: int
    player: Literal["black", "white"]
    empties: int
    move: str
    value: float
    best: str
    best_value: float
    loss: float
    kind: Literal["estimate", "wld", "exact"]
    depth: Optional[int]
    forced: bool
    decisive: bool

def analyse(
    game: Union[str, list[str]],
    start: Union[Othello, str, None] = None,
    depth: int = 10,
    exact: int = 18,
    wld: Optional[int] = None,
    time: Optional[float] = None,
    threads: int = 1,
    hash_mb: int = 64,
) -> list[MoveReview]: ...

class AnalysedValue(TypedDict):
    kind: Literal["estimate", "exact", "wld"]
    value: float
    text: str
    depth: Optional[int]
    upper_bound: bool

class MoveAnalysis(TypedDict):
    move: str
    value: AnalysedValue
    loss: Optional[float]
    best: bool

class PositionAnalysis(TypedDict):
    position: str
    to_move: Literal["black", "white"]
    analyst: str
    moves: list[MoveAnalysis]
    best: list[str]
    line: list[str]
    value: Optional[AnalysedValue]
    notes: list[str]

def analyse_position(
    position: Union[Othello, str, None] = None,
    moves: Union[str, list[str], None] = None,
    time: float = 1.0,
    agent: str = "othello:probcut=off,root=all",
) -> PositionAnalysis: ...

class BookEntry(TypedDict):
    value: int
    depth: Union[int, Literal["exact", "wld"]]
    leaf: Optional[str]
    leaf_value: Optional[int]
    lines: int

class BookMove(TypedDict):
    move: str
    value: int
    depth: Union[int, Literal["exact", "wld"]]
    lines: int
    leaf: bool

class Book:
    """An Othello opening book written by ``yomi book`` (see ``docs/book.md``)."""

    def __init__(self, path: Union[str, PathLike[str]]) -> None: ...
    def __len__(self) -> int: ...
    def __contains__(self, position: Union[Othello, str]) -> bool: ...
    @property
    def weights(self) -> str: ...
    def get(self, position: Union[Othello, str]) -> Optional[BookEntry]: ...
    def moves(self, position: Union[Othello, str]) -> list[BookMove]: ...
    def entries(self) -> list[tuple[str, BookEntry]]: ...

class Tally(TypedDict):
    win: int
    lose: int
    draw: int

class Ratio(TypedDict):
    value: float
    low: float
    high: float

class RatioRow(TypedDict):
    win: Ratio
    lose: Ratio
    draw: Ratio

class KindCount(TypedDict):
    moves: int
    first: int

class _PhaseTimeBase(TypedDict):
    phase: int
    moves: int
    seconds: float

class PhaseTime(_PhaseTimeBase, total=False):
    kinds: dict[str, KindCount]

class _AgentTimeBase(TypedDict):
    moves: int
    seconds: float

class AgentTime(_AgentTimeBase, total=False):
    phases: list[PhaseTime]

class OpeningsInfo(TypedDict):
    name: str
    count: int
    order: Literal["sequential", "random"]
    digest: str

class EloEstimate(TypedDict):
    model: Literal["pentanomial", "trinomial"]
    n: int
    score: float
    elo: float
    low: float
    high: float
    error: float
    los: float
    nelo: float

class EloEstimates(TypedDict):
    pentanomial: EloEstimate
    trinomial: EloEstimate

class SprtTest(TypedDict):
    elo0: float
    elo1: float
    alpha: float
    beta: float
    kind: Literal["logistic", "normalized"]

class SprtReport(TypedDict):
    test: SprtTest
    llr: float
    lower: float
    upper: float
    accepted: Optional[Literal["H0", "H1"]]

class Forfeit(TypedDict):
    game: int
    agent: Literal["a", "b"]
    reason: str

class MatchResult(TypedDict):
    game: GameName
    agent_a: str
    agent_b: str
    rounds: int
    seed: int
    openings: OpeningsInfo
    complete: bool
    end: Literal["complete", "sprt", "interrupted", "stopped"]
    a_first: Tally
    a_second: Tally
    total: Tally
    ratios: list[RatioRow]
    pairs: list[int]
    elo: EloEstimates
    sprt: Optional[SprtReport]
    forfeits: list[Forfeit]
    time: list[AgentTime]

def play_match(
    a: str = "random",
    b: str = "random",
    game: GameName = "tictactoe",
    rounds: int = 10000,
    seed: int = 1,
    threads: Optional[int] = None,
    start: Optional[Position] = None,
    openings: Optional[Union[str, PathLike[str]]] = None,
    openings_order: Literal["sequential", "random"] = "sequential",
    sprt: Optional[str] = None,
) -> MatchResult: ...
def league(
    agents: Optional[Sequence[str]] = None,
    baseline: str = "random",
    game: GameName = "tictactoe",
    rounds: int = 10000,
    seed: int = 1,
    threads: Optional[int] = None,
    openings: Optional[Union[str, PathLike[str]]] = None,
    openings_order: Literal["sequential", "random"] = "sequential",
) -> list[dict[str, Union[str, int, float]]]: ...
