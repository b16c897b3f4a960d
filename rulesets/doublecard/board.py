"""Double Card geometry and notation: cells, the 8 placements (rules file §4.3), lines, move text.

Cells are numbered ``row * 8 + col`` with row 0 at the bottom (the course's row 1) and col 0 = A.
A move is kept internally as ``(source, code, cell)``: ``source`` is None for a regular move, else
the bottom-left cell of the card being recycled; ``cell`` is the new placement's bottom-left cell.
The canonical move (what `State.legal_moves` lists and the wire carries) is the course's text,
upper case, bottom-left cell first: "0 5 A 2", "F 2 F 3 3 A 2".
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NoReturn

from rulesets.base import IllegalMove

WIDTH, HEIGHT = 8, 12
CELLS = WIDTH * HEIGHT
COLUMNS = "ABCDEFGH"
CARDS = 24

RED, WHITE = 0, 1          # colours
FILLED, OPEN = 0, 1        # dots: • and ◦
COLOUR_NAMES = ("red", "white")
DOT_SYMBOLS = ("•", "◦")
DOT_NAMES = ("filled (•)", "open (◦)")
ROLE_TITLES = {"colours": "Colours", "dots": "Dots"}
SEAT_NAMES = ("first player", "second player")

# code -> ((colour, dot) of the first cell, (colour, dot) of the second cell); §4.3
SEGMENTS: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {
    1: ((RED, FILLED), (WHITE, OPEN)),
    2: ((WHITE, OPEN), (RED, FILLED)),
    3: ((WHITE, OPEN), (RED, FILLED)),
    4: ((RED, FILLED), (WHITE, OPEN)),
    5: ((RED, OPEN), (WHITE, FILLED)),
    6: ((WHITE, FILLED), (RED, OPEN)),
    7: ((WHITE, FILLED), (RED, OPEN)),
    8: ((RED, OPEN), (WHITE, FILLED)),
}
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))      # (dcol, drow): row, column, two diagonals


def horizontal(code: int) -> bool:
    return code % 2 == 1


def cell_name(cell: int) -> str:
    """"A2" style, as in sentences."""
    return f"{COLUMNS[cell % WIDTH]}{cell // WIDTH + 1}"


def cell_tokens(cell: int) -> str:
    """"A 2" style, as in the course's notation."""
    return f"{COLUMNS[cell % WIDTH]} {cell // WIDTH + 1}"


def second_cell(code: int, cell: int) -> int | None:
    """The placement's other cell (right neighbour or the cell above), None if off the board."""
    col, row = cell % WIDTH, cell // WIDTH
    if horizontal(code):
        return cell + 1 if col + 1 < WIDTH else None
    return cell + WIDTH if row + 1 < HEIGHT else None


def off_board_name(code: int, cell: int) -> str:
    """The name of the missing second cell, e.g. "I1" or "A13"."""
    col, row = cell % WIDTH, cell // WIDTH
    if horizontal(code):
        return f"{chr(ord('A') + col + 1)}{row + 1}"
    return f"{COLUMNS[col]}{row + 2}"


def move_text(move: tuple) -> str:
    """Internal (source, code, cell) → canonical course text."""
    source, code, cell = move
    target = f"{code} {cell_tokens(cell)}"
    if source is None:
        return f"0 {target}"
    return f"{cell_tokens(source[0])} {cell_tokens(source[1])} {target}"


USAGE = "write '0 5 A 2' for a regular move or 'F 2 F 3 3 A 2' for a recycling move"


def _tokens(text: str) -> list[str]:
    """Upper-case tokens; "A2" and "a,2" split into "A", "2"."""
    return re.findall(r"[A-Z]+|\d+|[^\sA-Z\d,;]+", text.upper())


def _quote(text: str) -> str:
    short = " ".join(text.split())
    return repr(short if len(short) <= 40 else short[:37] + "...")


def _column(token: str, quoted: str) -> int:
    if len(token) == 1 and token in COLUMNS:
        return COLUMNS.index(token)
    return _refuse(f"{quoted} names column {token}; columns are A to H.")


def _row(token: str, quoted: str) -> int:
    if token.isdigit() and 1 <= int(token) <= HEIGHT:
        return int(token) - 1
    return _refuse(f"{quoted} names row {token}; rows are 1 to 12.")


def _code(token: str, quoted: str) -> int:
    if token.isdigit() and 1 <= int(token) <= 8:
        return int(token)
    return _refuse(f"{quoted} names rotation {token}; rotations are 1 to 8.")


def _refuse(sentence: str) -> NoReturn:
    raise IllegalMove(sentence)


@lru_cache(maxsize=65536)
def parse_text(text: str) -> tuple:
    """Course text → internal move, leniently (case, spacing, either cell order first).

    Only the form is checked here; whether the move is legal is `State.play`'s question.
    """
    quoted = _quote(text)
    tokens = _tokens(text)
    if len(tokens) == 4:
        if tokens[0] != "0":
            _refuse(f"{quoted} is not a regular move: a regular move starts with 0, as in '0 5 A 2'.")
        code = _code(tokens[1], quoted)
        return None, code, _row(tokens[3], quoted) * WIDTH + _column(tokens[2], quoted)
    if len(tokens) == 7:
        a = _row(tokens[1], quoted) * WIDTH + _column(tokens[0], quoted)
        b = _row(tokens[3], quoted) * WIDTH + _column(tokens[2], quoted)
        a, b = min(a, b), max(a, b)
        adjacent = (b == a + 1 and a % WIDTH + 1 < WIDTH) or b == a + WIDTH
        if not adjacent:
            _refuse(f"{quoted} names {cell_name(a)} and {cell_name(b)}, which are not the two cells of one card.")
        code = _code(tokens[4], quoted)
        return (a, b), code, _row(tokens[6], quoted) * WIDTH + _column(tokens[5], quoted)
    _refuse(f"{quoted} is not a Double Card move; {USAGE}.")


def lines() -> list[tuple[int, ...]]:
    """Every window of 4 consecutive cells in a row, column or diagonal (for heuristics)."""
    out = []
    for row in range(HEIGHT):
        for col in range(WIDTH):
            for dc, dr in DIRECTIONS:
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    out.append(tuple(r * WIDTH + c for c, r in cells))
    return out


def run_through(values: list, cell: int, dc: int, dr: int) -> list[int]:
    """The cells of the run of equal, non-None `values` through `cell` along (dc, dr)."""
    v = values[cell]
    col, row = cell % WIDTH, cell // WIDTH
    run = [cell]
    for sign in (1, -1):
        c, r = col + sign * dc, row + sign * dr
        while 0 <= c < WIDTH and 0 <= r < HEIGHT and values[r * WIDTH + c] == v:
            run.append(r * WIDTH + c)
            c, r = c + sign * dc, r + sign * dr
    return sorted(run)


def _rays() -> list[list[tuple[list[int], list[int]]]]:
    """Per cell, per direction: the cells ahead and the cells behind, nearest first."""
    out = []
    for cell in range(CELLS):
        col, row = cell % WIDTH, cell // WIDTH
        per_cell = []
        for dc, dr in DIRECTIONS:
            ways = []
            for sign in (1, -1):
                ray: list[int] = []
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < WIDTH and 0 <= r < HEIGHT and len(ray) < 3:
                    ray.append(r * WIDTH + c)
                    c, r = c + sign * dc, r + sign * dr
                ways.append(ray)
            per_cell.append((ways[0], ways[1]))
        out.append(per_cell)
    return out


RAYS = _rays()


def makes_line(values: list, cells: tuple[int, ...]) -> bool:
    """Whether a run of ≥ 4 equal values passes through one of `cells` (the fast yes/no of
    `longest_line`, for searches)."""
    for cell in cells:
        v = values[cell]
        if v is None:
            continue
        for ahead, behind in RAYS[cell]:
            n = 1
            for other in ahead:
                if values[other] != v:
                    break
                n += 1
            for other in behind:
                if values[other] != v:
                    break
                n += 1
            if n >= 4:
                return True
    return False


def longest_line(values: list, cells: tuple[int, ...]) -> list[int] | None:
    """A run of ≥ 4 equal values through one of `cells`, or None."""
    for cell in cells:
        if values[cell] is None:
            continue
        for dc, dr in DIRECTIONS:
            run = run_through(values, cell, dc, dr)
            if len(run) >= 4:
                return run
    return None


def span(run: list[int]) -> str:
    """"B3–E3": the two ends of a run, for sentences."""
    ends = sorted(run, key=lambda c: (c % WIDTH, c // WIDTH))
    return f"{cell_name(ends[0])}–{cell_name(ends[-1])}"
