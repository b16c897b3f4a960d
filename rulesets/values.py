"""Small readers of a player's values that every ruleset needs, on both sides of the sandbox (a
shim imports this module, so it imports nothing)."""
from __future__ import annotations

from typing import Any


def is_int(value: Any, kinds: tuple[type, ...] = (int,)) -> bool:
    """A whole number as the rules mean it: an int (or one of `kinds`, NumPy's integers), never a bool."""
    return isinstance(value, kinds) and not isinstance(value, bool)


def short_repr(value: Any, limit: int = 60, one_line: bool = False) -> str:
    """`repr(value)` cut to `limit` characters (ending "..."), for a sentence about a player's answer.
    `one_line`: runs of whitespace become one space, and a repr that raises is named by its type."""
    if one_line:
        try:
            text = repr(value)
        except Exception:
            text = f"a {type(value).__name__}"
        text = " ".join(text.split())
    else:
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
