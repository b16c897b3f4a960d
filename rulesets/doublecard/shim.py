"""The Double Card student API inside the player's process (see docs/ARCHITECTURE.md, "The shim").

The course fixed only the move notation, so the API is the smallest one that fits it: the
submission's ``player.py`` defines ``class Player(role, first)`` (role "dots" or "colours",
first True when it moves first) with ``opponent_move(move_text)`` and ``choose_move() -> str``.
The player keeps its own board: each `move` call first tells it the opponent's moves since its
last turn, in the course's notation, then asks for its own.

A move of this player's own that the grader substituted (only under a "random" policy; the
course's rule, and our default, is that a failing player forfeits) cannot be told to a
``Player``: the course's API has no way to say it, so such moves are not passed on.
"""
from __future__ import annotations


from rulesets.base import check_arity
from rulesets.entry import import_entry, open_folder

from .engine import DoubleCardGame
from .scripted import Exchange

PRELOAD: list[str] = []
ENTRY = "player.py"
MODULE = "player"


def open_submission(path: str, options: dict) -> "DoubleCardHandler":
    """Import the submission's player.py (its folder on sys.path, so helper modules import)."""
    folder = open_folder(path, forget=(MODULE,))
    return DoubleCardHandler(import_entry(folder, ENTRY, MODULE))




def to_wire(answer):
    """What choose_move returned → the wire text, or {"invalid": sentence}."""
    if isinstance(answer, str):
        return answer
    what = "None" if answer is None else f"a {type(answer).__name__} ({answer!r:.40})"
    return {"invalid": f"choose_move() returned {what}; it must return text like '0 5 A 2'."}


class DoubleCardHandler:
    """The RPCs of one submission: interface, setup, move, and the probes' probe_step."""

    def __init__(self, module):
        self.module = module
        self.player = None
        self.seat = 0
        self.exchange: Exchange | None = None

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
        game = DoubleCardGame(**(state or {}).get("params", {}))
        start = game.state_from_json(state) if state else game.new_state(0)
        self.player = self.module.Player(game.role(self.seat), self.seat == 0)
        self.exchange = Exchange(start, self.seat)

    def rpc_move(self, state: dict, last: list | None = None):
        if self.player is None:
            self.rpc_setup(state.get("ply", 0) % 2, state)
        for item in last or []:
            if item.get("seat") != self.seat:
                self.player.opponent_move(item["move"])
        return to_wire(self.player.choose_move())

    def rpc_probe_step(self, policy: str, seed: int) -> dict:
        """One turn of a probe case against the scripted opponent (rulesets/doublecard/scripted.py)."""
        return self.exchange.step(policy, seed, self.player, to_wire)
