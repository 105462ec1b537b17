"""yomi: two-player board-game AI (tic-tac-toe, the 15-stone game, Othello) from Rust.

Positions (``TicTacToe``, ``Nim``, ``Othello``), the agent zoo (``agent``, ``agents``), the
exact game tree (``Tree``), the Othello endgame solver (``solve``, ``Solver``) and the match harness
(``play_match``, ``league``). Every behaviour lives in the Rust crates of the yomi
workspace; this package is a thin binding over them (``docs/python.md``).
"""

from yomi._yomi import (
    Agent as Agent,
    Nim as Nim,
    Othello as Othello,
    Solver as Solver,
    TicTacToe as TicTacToe,
    Tree as Tree,
    __version__ as __version__,
    agent as agent,
    agents as agents,
    league as league,
    play_match as play_match,
    solve as solve,
)

__all__ = [
    "Agent",
    "Nim",
    "Othello",
    "Solver",
    "TicTacToe",
    "Tree",
    "agent",
    "agents",
    "league",
    "play_match",
    "solve",
]
