"""Bohnenspiel inside the player's process: loads student_player.py and answers the grader's RPCs.

The course package is registered as ``bohnenspiel`` before the student's file is imported. The
player object is built once per process (its constructor may only call super().__init__), gets
its seat through `set_color`, and is shown a fresh `BohnenspielBoardState` on every move.
"""
from __future__ import annotations

import copy
import sys

from rulesets.base import check_arity, invalid
from rulesets.entry import import_entry, open_folder

from . import course

PRELOAD: list[str] = []
ENTRY = "student_player.py"
MODULE = "student_player"


def open_submission(path: str, options: dict) -> BohnenspielHandler:
    folder = open_folder(path, forget=(MODULE,))
    sys.modules["bohnenspiel"] = course
    return BohnenspielHandler(import_entry(folder, ENTRY, MODULE))


class BohnenspielHandler:
    """The RPCs of one submission: interface, setup, move."""

    def __init__(self, module):
        self.module = module
        self.player = None

    def rpc_interface(self) -> list[str]:
        cls = getattr(self.module, "StudentPlayer", None)
        if not isinstance(cls, type):
            return [f"{ENTRY} must define a class StudentPlayer."]
        if not issubclass(cls, course.BohnenspielPlayer):
            return ["StudentPlayer must subclass BohnenspielPlayer (from bohnenspiel import BohnenspielPlayer)."]
        problems = [p for p in (check_arity(cls, "__init__", 0),) if p]
        if cls.choose_move is course.BohnenspielPlayer.choose_move:
            hint = " (chooseMove is the Java name)" if cls.chooseMove is not course.BohnenspielPlayer.chooseMove else ""
            problems.append(f"StudentPlayer must define choose_move(self, board_state){hint}.")
        else:
            problems += [p for p in (check_arity(cls, "choose_move", 1),) if p]
        return problems

    def rpc_setup(self, seat: int, state: dict | None = None, name: str | None = None,
                  options: dict | None = None) -> None:
        if self.player is None:
            self.player = self.module.StudentPlayer()
        self.player.set_color(int(seat))

    def rpc_move(self, state: dict, last: list | None = None):
        board = course.BohnenspielBoardState.from_json(state)
        if self.player is None:
            self.rpc_setup(board.get_turn_player())
        return to_wire(self.player.choose_move(board), self.player.player_id)


def to_wire(move, seat: int):
    """What choose_move returned → the transport string, or {"invalid": sentence}."""
    if isinstance(move, course.BohnenspielMove):
        if move.move_type is course.MoveType.NOTHING:
            return {"invalid": "choose_move returned a NOTHING move; return a pit or a skip."}
        if move.player_id == -1:            # not set: the Java client stamps its own id on it
            move = copy.copy(move)
            move.set_player_id(seat)
        return move.to_transport_string()
    if isinstance(move, str):
        return move
    what = "None" if move is None else f"a {type(move).__name__}"
    return invalid(f"choose_move returned {what}; it must return a BohnenspielMove.", move)
