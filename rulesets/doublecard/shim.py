"""The Double Card student API inside the player's process (see docs/ARCHITECTURE.md, "The shim").

The course fixed only the move notation, so the API is the smallest one that fits it: the
submission's ``player.py`` defines ``class Player(role, first)`` (role "dots" or "colours",
first True when it moves first) with ``opponent_move(move_text)`` and ``choose_move() -> str``.
The player keeps its own board: each `move` call first tells it the opponent's moves since its
last turn, in the course's notation, then asks for its own. This process holds no engine and no
board of the grader's: the course left every rule to the student, and the probes' scripted
opponent plays in the grader and its moves come in `move` calls' `last`, as a game's do (probes.py).

A move of this player's own that the grader substituted (only under a "random" policy; the
course's rule, and our default, is that a failing player forfeits) cannot be told to a
``Player``: the course's API has no way to say it, so such moves are not passed on.
"""
from __future__ import annotations

from rulesets.base import check_arity, invalid
from rulesets.entry import import_entry, open_folder

PRELOAD: list[str] = []
ENTRY = "player.py"
MODULE = "player"
ROLES = ("colours", "dots")     # seat 0 plays params["seat0_role"] (colours by default), seat 1 the other


def open_submission(path: str, options: dict) -> DoubleCardHandler:
    """Import the submission's player.py (its folder on sys.path, so helper modules import)."""
    folder = open_folder(path, forget=(MODULE,))
    return DoubleCardHandler(import_entry(folder, ENTRY, MODULE))


def role(seat: int, state: dict | None) -> str:
    """The role of `seat` in the game the position `state` (State.to_json) belongs to."""
    first = ((state or {}).get("params") or {}).get("seat0_role", ROLES[0])
    return first if seat == 0 else ROLES[1 - ROLES.index(first)]


def to_wire(answer):
    """What choose_move returned → the wire text, or {"invalid": sentence}."""
    if isinstance(answer, str):
        return answer
    what = "None" if answer is None else f"a {type(answer).__name__} ({answer!r:.40})"
    return invalid(f"choose_move() returned {what}; it must return text like '0 5 A 2'.", answer)


class DoubleCardHandler:
    """The RPCs of one submission: interface, setup, move (the probes make the same calls as a game)."""

    def __init__(self, module):
        self.module = module
        self.player = None
        self.seat = 0

    def rpc_interface(self) -> list[str]:
        cls = getattr(self.module, "Player", None)
        if not isinstance(cls, type):
            return [f"{ENTRY} must define a class Player (class Player: def __init__(self, role, first): ...)."]
        checks = (check_arity(cls, "__init__", 2), check_arity(cls, "opponent_move", 1),
                  check_arity(cls, "choose_move", 0))
        return [f"Player: {p}" for p in checks if p]

    def rpc_setup(self, seat: int, state: dict | None = None, name: str | None = None,
                  options: dict | None = None) -> None:
        self.seat = int(seat)
        self.player = self.module.Player(role(self.seat, state), self.seat == 0)

    def rpc_move(self, state: dict, last: list | None = None):
        if self.player is None:
            self.rpc_setup(state.get("ply", 0) % 2, state)
        for item in last or []:
            if item.get("seat") != self.seat:
                self.player.opponent_move(item["move"])
        return to_wire(self.player.choose_move())
