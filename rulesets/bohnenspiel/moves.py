"""Bohnenspiel's board constants and moves on the wire: what the course package and the engine
both read. Student-side: the course module (course.py) imports this, never the engine.
"""
from __future__ import annotations

import re
from typing import Any

from rulesets.base import JSON, IllegalMove, Move, refuse
from rulesets.values import is_int, short_repr

PITS = 6
START_BEANS = 6
SKIPS = 2
CAPTURED = (2, 4, 6)
DEFAULT_MAX_TURNS = 200

SKIP: Move = ("skip",)


def pit_move(i: int) -> Move:
    return ("pit", i)


def move_label(move: Move) -> str:
    """Course-like text of a canonical move: "pit 3" or "skip"."""
    return "skip" if move == SKIP else f"pit {move[1]}"


# possessive quantifiers (*+, ++): no backtracking, so a crafted answer costs time linear in its length
_TRANSPORT = re.compile(r"^\s*+(pit|skip|nothing)\b\s*+(-?\d++)?\s*+(-?\d++)?\s*+$", re.IGNORECASE)


def parse_wire(data: JSON) -> tuple[Move, int | None]:
    """Wire data → (canonical move, player id named in it or None). Raises IllegalMove if it is no move.

    Accepts the course's transport strings ("PIT <player> <pit>", "SKIP <player>", leniently:
    any case, spacing, player left out as in "pit 3"), the canonical JSON (["pit", 3], ["skip"])
    and the student API's move JSON ({"move_type": "PIT", "player_id": 0, "pit": 3}).
    """
    if isinstance(data, dict):
        refuse(data)
        kind = data.get("move_type", data.get("type"))
        player = data.get("player_id", data.get("player"))
        if not isinstance(kind, str) or (player is not None and not is_int(player)):
            raise IllegalMove(f"{short_repr(data)} is not a Bohnenspiel move.")
        return _build(kind, data.get("pit"), player, data)
    if isinstance(data, str):
        m = _TRANSPORT.match(data)
        if not m:
            raise IllegalMove(f"{short_repr(data)} is not a Bohnenspiel move; send \"PIT <player> <pit>\" or "
                              f"\"SKIP <player>\".")
        kind, a, b = m.group(1), m.group(2), m.group(3)
        if kind.lower() == "pit":
            if a is None:
                raise IllegalMove(f"{short_repr(data)} names no pit.")
            player, pit = (int(a), int(b)) if b is not None else (None, int(a))
            return _build(kind, pit, player, data)
        if b is not None:
            raise IllegalMove(f"{short_repr(data)} is not a Bohnenspiel move.")
        return _build(kind, None, None if a is None else int(a), data)
    if isinstance(data, (list, tuple)) and data and isinstance(data[0], str):
        if len(data) == 2 and data[0].lower() == "pit":
            return _build("pit", data[1], None, data)
        if len(data) == 1 and data[0].lower() == "skip":
            return SKIP, None
    raise IllegalMove(f"{short_repr(data)} is not a Bohnenspiel move; send \"PIT <player> <pit>\" or \"SKIP <player>\".")


def _build(kind: str, pit: Any, player: int | None, data: JSON) -> tuple[Move, int | None]:
    """A negative player id is the Java "not set" (-1), so it names no player."""
    kind = kind.lower()
    if player is not None and player < 0:
        player = None
    if kind == "skip":
        return SKIP, player
    if kind == "nothing":
        raise IllegalMove("NOTHING is never a legal move; play a pit or skip.")
    if kind != "pit":
        raise IllegalMove(f"{short_repr(data)} is not a Bohnenspiel move.")
    if not is_int(pit) or not 0 <= pit < PITS:
        raise IllegalMove(f"{short_repr(data)} names pit {short_repr(pit)}; pits are numbered 0 to 5.")
    return pit_move(pit), player


def sow(board, p: int, start: int) -> None:
    """Player `p` sows pit `start` of `board` (pits, scores): one lap counter-clockwise (the origin is
    not skipped), then the backward capture chain while a pit holds 2, 4 or 6. The engine and the
    course's board state both play a move with this, so they cannot disagree."""
    beans, board.pits[p][start] = board.pits[p][start], 0
    side, i = p, start
    for _ in range(beans):
        i += 1
        if i == PITS:
            i, side = 0, 1 - side
        board.pits[side][i] += 1
    while board.pits[side][i] in CAPTURED:
        board.scores[p] += board.pits[side][i]
        board.pits[side][i] = 0
        i -= 1
        if i < 0:
            i, side = PITS - 1, 1 - side


def settle_end(board, has_moves: bool) -> None:
    """The Java updateWinner, with "no legal move" as the end test: a player to move without a move
    ends the game and the beans left go to the other; the turn cap ends it too."""
    nxt = board.turn_player
    if not has_moves:
        left = sum(map(sum, board.pits))
        board.scores[1 - nxt] += left
        board.pits = [[0] * PITS, [0] * PITS]
        board.end = {"reason": "no_moves", "left": left, "to": 1 - nxt}
    elif board.turn_number > board.max_turns:
        board.end = {"reason": "turn_cap", "left": sum(map(sum, board.pits)), "to": None}

