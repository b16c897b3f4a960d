"""Red-Blue Nim moves on the wire: what the player's shim and the engine both read.

Student-side: the shim imports this module (never the engine or the search) to check what a
student's choose_move returned.
"""
from __future__ import annotations

import re

from rulesets.base import JSON, IllegalMove, Move
from rulesets.values import is_int, short_repr

PILES = {"red": "red", "r": "red", "blue": "blue", "b": "blue"}
# possessive quantifiers (*+, ++): no backtracking, so a crafted answer costs time linear in its length
_TEXT = re.compile(r"^\s*+([a-z]++)\s*+[,:]?\s*+(\d++)\s*+$|^\s*+(\d++)\s*+[,:]?\s*+([a-z]++)\s*+$", re.IGNORECASE)


def parse_wire(data: JSON) -> Move:
    """[pile, count] (also "red 2", {"pile": "red", "count": 2}) → ("red", 2); IllegalMove if no move."""
    if isinstance(data, dict):
        if "invalid" in data:
            raise IllegalMove(str(data["invalid"]))
        pile, count = data.get("pile"), data.get("count")
    elif isinstance(data, (list, tuple)) and len(data) == 2:
        pile, count = data
    elif isinstance(data, str) and (m := _TEXT.match(data)):
        pile, count = (m.group(1), int(m.group(2))) if m.group(1) else (m.group(4), int(m.group(3)))
    else:
        raise IllegalMove(f"{short_repr(data)} is not a move; a move is [pile, count] such as [\"red\", 2].")
    name = PILES.get(pile.strip().lower()) if isinstance(pile, str) else None
    if name is None:
        raise IllegalMove(f"{short_repr(pile)} is not a pile; the piles are \"red\" and \"blue\".")
    if not is_int(count) or count not in (1, 2):
        raise IllegalMove(f"{short_repr(count)} marbles cannot be taken; take 1 or 2.")
    return (name, count)
