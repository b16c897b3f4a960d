"""Pictures of a Colosseum position: a text grid for logs and terminals, an SVG for the reports.

`marks` names groups of moves (r, c, d) to highlight, e.g. {"illegal": [move]}: the cell is
tinted and the chosen side drawn in the group's colour; moves off the board are listed only.
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape

from .notation import PLAYER_NAMES, has_wall, move_text

# one symbol and colour per mark group; unknown groups take the spare ones in order
GROUP_STYLE = {"illegal": ("x", "#d62728"), "missing": ("?", "#ff7f0e"), "extra": ("+", "#9467bd")}
SPARE_STYLES = [("*", "#2ca02c"), ("%", "#17becf"), ("@", "#bcbd22")]
PLAYER_COLORS = ("#1f77b4", "#8c564b")        # the course's tab:blue and tab:brown


def _styles(marks: dict[str, Iterable] | None) -> list[tuple[str, str, str, list]]:
    """(group, symbol, colour, moves) for each mark group, in the order given."""
    out, spare = [], iter(SPARE_STYLES)
    for group, moves in (marks or {}).items():
        symbol, colour = GROUP_STYLE.get(group) or next(spare, ("#", "#7f7f7f"))
        out.append((group, symbol, colour, [tuple(m) for m in moves]))
    return out


def _on_board(state, move) -> bool:
    r, c, d = move
    return 0 <= r < state.size and 0 <= c < state.size and 0 <= d <= 3


def _status(state) -> str:
    (r0, c0), (r1, c1) = state.positions
    head = f"{state.size}x{state.size}, K={state.max_step}, A at ({r0},{c0}), B at ({r1},{c1})"
    if state.outcome is not None:
        return f"{head}; game over: {state.outcome.detail}"
    return f"{head}; {PLAYER_NAMES[state.turn]} to move"


def render_text(state, marks: dict[str, Iterable] | None = None) -> str:
    """Walls as +---+ and |, players as A and B, a marked move as its symbol on the cell and side."""
    m = state.size
    styles = _styles(marks)
    cell_mark: dict[tuple[int, int], str] = {}
    side_mark: dict[tuple[int, int, int], str] = {}
    for _, symbol, _, moves in styles:
        for move in moves:
            if _on_board(state, move):
                r, c, d = move
                cell_mark.setdefault((r, c), symbol)
                side_mark.setdefault((r, c, d), symbol)
                dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[d]
                if 0 <= r + dr < m and 0 <= c + dc < m:        # the same wall seen from the neighbour
                    side_mark.setdefault((r + dr, c + dc, (d + 2) % 4), symbol)

    def horizontal(r: int, d: int) -> str:
        """The line above row r (d=0) or below it (d=2)."""
        parts = ["   +"]
        for c in range(m):
            symbol = side_mark.get((r, c, d))
            parts.append(symbol * 3 if symbol else "---" if has_wall(state.walls, m, r, c, d) else "   ")
            parts.append("+")
        return "".join(parts)

    lines = ["    " + "".join(f"{c:^4}" for c in range(m)).rstrip(), horizontal(0, 0)]
    for r in range(m):
        row = [f"{r:>2} "]
        for c in range(m):
            mark = side_mark.get((r, c, 3))
            row.append(mark or ("|" if has_wall(state.walls, m, r, c, 3) else " "))
            who = " "
            for seat in (0, 1):
                if state.positions[seat] == (r, c):
                    who = PLAYER_NAMES[seat]
            row.append(f" {who}{cell_mark.get((r, c), ' ')}")
        mark = side_mark.get((r, m - 1, 1))
        row.append(mark or ("|" if has_wall(state.walls, m, r, m - 1, 1) else " "))
        lines.append("".join(row))
        lines.append(horizontal(r, 2))
    lines.append(_status(state))
    for group, symbol, _, moves in styles:
        for move in moves:
            where = "" if _on_board(state, move) else " (off the board)"
            lines.append(f"{symbol} {group}: {move_text(move)}{where}")
    return "\n".join(lines)


CELL = 40
MARGIN = 24


def render_svg(state, marks: dict[str, Iterable] | None = None) -> str:
    """A self-contained SVG: grid, walls, A and B, marked cells tinted and marked sides dashed."""
    m = state.size
    size = MARGIN + m * CELL + 8
    height = size + 20 + 16 * sum(len(g[3]) for g in _styles(marks))
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
           f'viewBox="0 0 {size} {height}" font-family="sans-serif" font-size="12">'),
           f"<title>{escape(_status(state))}</title>",
           f'<rect x="0" y="0" width="{size}" height="{height}" fill="white"/>']

    def x(c: float) -> float:
        return MARGIN + c * CELL

    def y(r: float) -> float:
        return MARGIN + r * CELL

    def side(r: int, c: int, d: int) -> tuple[float, float, float, float]:
        return ((x(c), y(r), x(c + 1), y(r)), (x(c + 1), y(r), x(c + 1), y(r + 1)),
                (x(c), y(r + 1), x(c + 1), y(r + 1)), (x(c), y(r), x(c), y(r + 1)))[d]

    for i in range(m):
        out.append(f'<text x="{x(i + 0.5)}" y="{MARGIN - 8}" text-anchor="middle">{i}</text>')
        out.append(f'<text x="{MARGIN - 8}" y="{y(i + 0.5) + 4}" text-anchor="middle">{i}</text>')
    for i in range(m + 1):
        out.append(f'<line x1="{x(0)}" y1="{y(i)}" x2="{x(m)}" y2="{y(i)}" stroke="#ddd"/>')
        out.append(f'<line x1="{x(i)}" y1="{y(0)}" x2="{x(i)}" y2="{y(m)}" stroke="#ddd"/>')
    styles = _styles(marks)
    for _, _, colour, moves in styles:
        for r, c, _ in (mv for mv in moves if _on_board(state, mv)):
            out.append(f'<rect x="{x(c)}" y="{y(r)}" width="{CELL}" height="{CELL}" '
                       f'fill="{colour}" fill-opacity="0.25"/>')
    for r in range(m):
        for c in range(m):
            for d in range(4):
                if has_wall(state.walls, m, r, c, d):
                    x1, y1, x2, y2 = side(r, c, d)
                    out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" '
                               f'stroke-width="4" stroke-linecap="round"/>')
    for seat, (r, c) in enumerate(state.positions):
        out.append(f'<circle cx="{x(c + 0.5)}" cy="{y(r + 0.5)}" r="{CELL * 0.32}" '
                   f'fill="{PLAYER_COLORS[seat]}"/>')
        out.append(f'<text x="{x(c + 0.5)}" y="{y(r + 0.5) + 5}" text-anchor="middle" '
                   f'font-size="15" fill="white">{PLAYER_NAMES[seat]}</text>')
    for _, _, colour, moves in styles:
        for r, c, d in (mv for mv in moves if _on_board(state, mv)):
            x1, y1, x2, y2 = side(r, c, d)
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                       f'stroke-width="6" stroke-dasharray="6 3"/>')
    text_y = size + 12
    out.append(f'<text x="4" y="{text_y}">{escape(_status(state))}</text>')
    for group, _, colour, moves in styles:
        for move in moves:
            text_y += 16
            where = "" if _on_board(state, move) else " (off the board)"
            out.append(f'<text x="4" y="{text_y}" fill="{colour}">'
                       f'{escape(group)}: {escape(move_text(move))}{where}</text>')
    out.append("</svg>")
    return "\n".join(out)
