"""The rules of red-blue nim as plain functions, shared by the engine and the reference search.

A position is (red, blue) with the player to move; that player faces the end test first: if a
pile is empty the game is over and the amount 2·red + 3·blue is lost (standard) or won (misère).
"""
from __future__ import annotations

STANDARD = "standard"
MISERE = "misere"
VERSIONS = (STANDARD, MISERE)

# The assignment's child order for the standard version; misère uses the reverse.
STANDARD_ORDER = (("red", 2), ("blue", 2), ("red", 1), ("blue", 1))
MISERE_ORDER = tuple(reversed(STANDARD_ORDER))


def normalize_version(text) -> str:
    """ "standard" or "misere" from the command-line spelling (misère accepted, any case); ValueError else."""
    if text is None:
        return STANDARD
    if isinstance(text, str):
        word = text.strip().lower().replace("è", "e")
        if word in VERSIONS:
            return word
    raise ValueError(f"version must be 'standard' or 'misere' (also spelled 'misère'), not {text!r}.")


def is_terminal(red: int, blue: int) -> bool:
    return red == 0 or blue == 0


def amount(red: int, blue: int) -> int:
    """Points lost or won at the end: 2 for every red marble and 3 for every blue one left."""
    return 2 * red + 3 * blue


def terminal_value(red: int, blue: int, version: str) -> int:
    """The value of an ended position for the player who faces it."""
    return amount(red, blue) if version == MISERE else -amount(red, blue)


def legal_moves(red: int, blue: int, version: str) -> list[tuple[str, int]]:
    """Moves in the prescribed order (standard: 2 red, 2 blue, 1 red, 1 blue; misère reversed)."""
    if is_terminal(red, blue):
        return []
    have = {"red": red, "blue": blue}
    order = MISERE_ORDER if version == MISERE else STANDARD_ORDER
    return [(pile, n) for pile, n in order if have[pile] >= n]


def after(red: int, blue: int, move: tuple[str, int]) -> tuple[int, int]:
    pile, n = move
    return (red - n, blue) if pile == "red" else (red, blue - n)


def describe(move: tuple[str, int]) -> str:
    return f"take {move[1]} {move[0]}"
