"""yomi: two-player board-game AI (tic-tac-toe, the 15-stone game, Othello on 8x8, 4x4 and
6x6 boards) from Rust.

Positions (``TicTacToe``, ``Nim``, ``Othello``, ``Othello4``, ``Othello6``; ``games()`` lists
their names, the CLI's ``--game`` values), the agent zoo (``agent``, ``agents``), the exact game
tree (``Tree``), the Othello endgame solver (``solve``, ``Solver``) and the match harness
(``play_match``, ``league``). Every behaviour lives in the Rust crates of the yomi
workspace; this package is a thin binding over them (``docs/python.md``).
"""

from yomi._yomi import (
    Agent as Agent,
    Book as Book,
    Nim as Nim,
    Othello as Othello,
    Othello4 as Othello4,
    Othello6 as Othello6,
    Solver as Solver,
    TicTacToe as TicTacToe,
    Tree as Tree,
    __version__ as __version__,
    agent as agent,
    analyse as analyse,
    analyse_position as analyse_position,
    agents as agents,
    games as games,
    league as league,
    play_match as play_match,
    solve as solve,
)

__all__ = [
    "Agent",
    "Book",
    "Nim",
    "Othello",
    "Othello4",
    "Othello6",
    "Solver",
    "TicTacToe",
    "Tree",
    "agent",
    "analyse",
    "analyse_position",
    "agents",
    "games",
    "league",
    "play_match",
    "solve",
]
