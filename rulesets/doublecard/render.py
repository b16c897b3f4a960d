"""Pictures of a Double Card position: a text board for logs, an SVG for the HTML reports.

`marks` names groups of moves to highlight, e.g. {"illegal": ["0 5 H 1"]}: the cells a move
would occupy (and, for a recycling move, the card it lifts) carry the group's symbol and colour;
cells off the board and text that is not a move at all are listed under the picture.
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape

from rulesets.base import IllegalMove

from . import board as B

GROUP_STYLE = {"illegal": ("x", "#d62728"), "missing": ("?", "#ff7f0e"), "extra": ("+", "#9467bd"),
               "last": ("^", "#1f77b4")}
SPARE_STYLES = [("*", "#2ca02c"), ("%", "#17becf"), ("@", "#bcbd22")]
COLOUR_FILL = ("#d9382c", "#ffffff")
COLOUR_LETTER = ("R", "W")


def _mark_cells(marks: dict[str, Iterable] | None) -> tuple[dict[int, tuple[str, str]], list[str]]:
    """cell -> (symbol, colour) of the first group naming it; legend lines for every group."""
    cells: dict[int, tuple[str, str]] = {}
    legend = []
    spare = iter(SPARE_STYLES)
    for group, moves in (marks or {}).items():
        symbol, colour = GROUP_STYLE.get(group) or next(spare, ("#", "#7f7f7f"))
        texts = []
        for move in moves:
            text = move if isinstance(move, str) else repr(move)
            texts.append(text)
            try:
                source, code, cell = B.parse_text(text)
            except (IllegalMove, TypeError):
                continue
            named = [cell, B.second_cell(code, cell)] + list(source or ())
            for c in named:
                if c is not None:
                    cells.setdefault(c, (symbol, colour))
        if texts:
            legend.append(f"{symbol} {group}: {', '.join(texts)}")
    return cells, legend


def status(state) -> str:
    roles = f"{B.ROLE_TITLES[state.role(0)]} (first) vs {B.ROLE_TITLES[state.role(1)]} (second)"
    phase = "recycling" if state.recycling else f"{len(state.cards)} of 24 cards placed"
    out = state.outcome
    if out is not None:
        return f"{roles}; after move {state.ply}: {out.detail}"
    seat = state.to_move
    return (f"{roles}; move {state.ply + 1} of {state.game.params['max_moves']} ({phase}), "
            f"{B.SEAT_NAMES[seat]} ({state.role(seat)}) to move")


def render_text(state, marks: dict[str, Iterable] | None = None) -> str:
    """Cells as R•/W◦ (colour letter and dot), '-' and '|' joining the two halves of a card."""
    marked, legend = _mark_cells(marks)
    lines = [status(state)]
    for row in range(B.HEIGHT - 1, -1, -1):
        parts = [f"{row + 1:>2} "]
        for col in range(B.WIDTH):
            cell = row * B.WIDTH + col
            if state.owner[cell] < 0:
                body = " ."
            else:
                body = COLOUR_LETTER[state.colour[cell]] + B.DOT_SYMBOLS[state.dot[cell]]
            right = cell + 1
            joined = col + 1 < B.WIDTH and state.owner[cell] >= 0 and state.owner[right] == state.owner[cell]
            join = "-" if joined else " "
            parts.append(body + (marked[cell][0] if cell in marked else join) + join)
        lines.append("".join(parts).rstrip())
        if row > 0:
            joins = ["   "]
            for col in range(B.WIDTH):
                cell, below = row * B.WIDTH + col, (row - 1) * B.WIDTH + col
                same = state.owner[cell] >= 0 and state.owner[cell] == state.owner[below]
                joins.append(" |  " if same else "    ")
            lines.append("".join(joins).rstrip())
    lines.append("    " + "   ".join(B.COLUMNS))
    lines.extend(legend)
    return "\n".join(lines)


def render_svg(state, marks: dict[str, Iterable] | None = None) -> str:
    """Red/white segments with filled/open dots, card outlines, coordinates, marked cells outlined."""
    marked, legend = _mark_cells(marks)
    size, left, top = 34, 26, 8
    width = left + B.WIDTH * size + 8
    height = top + B.HEIGHT * size + 24 + 16 * len(legend) + 16
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'),
           f'<title>{escape(status(state))}</title>']

    def xy(cell: int) -> tuple[int, int]:
        return left + (cell % B.WIDTH) * size, top + (B.HEIGHT - 1 - cell // B.WIDTH) * size

    for cell in range(B.CELLS):
        x, y = xy(cell)
        if state.owner[cell] < 0:
            out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#eeeeee" stroke="#cccccc"/>')
            continue
        fill = COLOUR_FILL[state.colour[cell]]
        out.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="#999999"/>')
        dot_fill = "#000000" if state.dot[cell] == B.FILLED else "none"
        out.append(f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="{size / 5}" fill="{dot_fill}" '
                   f'stroke="#000000" stroke-width="2"/>')
    for code, cell in state.cards:
        x, y = xy(cell)
        w, h = (2 * size, size) if B.horizontal(code) else (size, 2 * size)
        y = y if B.horizontal(code) else y - size
        out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" stroke="#333333" '
                   f'stroke-width="2"/>')
    for cell, (_symbol, colour) in marked.items():
        x, y = xy(cell)
        out.append(f'<rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}" fill="none" '
                   f'stroke="{colour}" stroke-width="3" stroke-dasharray="5,3"/>')
    for row in range(B.HEIGHT):
        y = top + (B.HEIGHT - 1 - row) * size + size // 2 + 4
        out.append(f'<text x="{left - 6}" y="{y}" text-anchor="end">{row + 1}</text>')
    base = top + B.HEIGHT * size + 16
    for col, name in enumerate(B.COLUMNS):
        out.append(f'<text x="{left + col * size + size / 2}" y="{base}" text-anchor="middle">{name}</text>')
    for i, line in enumerate(legend):
        colour = next((c for s, c in [*GROUP_STYLE.values(), *SPARE_STYLES] if line.startswith(s)), "#000000")
        out.append(f'<text x="4" y="{base + 18 + 16 * i}" fill="{colour}">{escape(line)}</text>')
    out.append("</svg>")
    return "".join(out)
