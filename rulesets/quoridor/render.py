"""Pictures of a Quoridor-like position: ASCII for logs and probe reports, SVG for the HTML reports.

Row 0 is drawn at the top. `marks` names groups of canonical moves, e.g.
{"missing": [("step", 1, 0)], "extra": [("wall", "H", 0, 0)]}: a marked step puts the group's
symbol in its cell, a marked wall is drawn with the group's symbol (text) or colour (SVG).
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape

from . import geometry as G

TEXT_SYMBOL = {"missing": "?", "extra": "!", "illegal": "x", "last": "^"}
SPARE_SYMBOLS = "*%@&"
SVG_STYLE = {"missing": ("#2ca02c", "6,4"), "extra": ("#d62728", ""), "illegal": ("#d62728", "2,3"),
             "last": ("#1f77b4", "")}
SPARE_COLOURS = ["#9467bd", "#ff7f0e", "#17becf", "#bcbd22"]
PAWN_COLOUR = ("#1f77b4", "#2ca02c")


def _groups(marks: dict | None):
    """(group, [canonical moves], [other items]) for each group, moves normalised to tuples."""
    for group, items in (marks or {}).items():
        moves, other = [], []
        for item in items or ():
            move = tuple(item) if isinstance(item, (list, tuple)) else item
            if (isinstance(move, tuple) and len(move) == 3 and move[0] == "step") or \
                    (isinstance(move, tuple) and len(move) == 4 and move[0] == "wall" and move[1] in ("H", "V")):
                moves.append(move)
            else:
                other.append(item)
        yield group, moves, other


def _describe(move: tuple) -> str:
    if move[0] == "step":
        return f"[{move[1]},{move[2]}]"
    return f"{move[1]}({move[2]},{move[3]}) = {G.wall_text(move[1:])}"


def status(state) -> str:
    out = state.outcome
    walls = f"obstacles left: player 1 {state.left[0]}, player 2 {state.left[1]}"
    if out is not None:
        return f"{state.sizex}x{state.sizey}, after ply {state.ply}: {out.detail} ({walls})"
    return f"{state.sizex}x{state.sizey}, ply {state.ply + 1}, player {state.to_move + 1} to move ({walls})"


def render_text(state, marks: dict[str, Iterable] | None = None) -> str:
    """Cells ' . ', pawns ' 1 '/' 2 ', walls '---' and '|', marked moves with their group's symbol."""
    sx, sy = state.sizex, state.sizey
    cells: dict = {}
    edges: dict = {}        # edge -> symbol
    corners: dict = {}      # (x, y) junction right/below cell (x, y) -> symbol
    for wall, _by, _ply in state.walls:
        ori, x, y = wall
        for e in G.wall_edges(wall):
            edges[e] = "-" if ori == "H" else "|"
        corners[(x, y)] = "-" if ori == "H" else "|"
    legend = []
    spare = iter(SPARE_SYMBOLS)
    for group, moves, other in _groups(marks):
        symbol = TEXT_SYMBOL.get(group) or next(spare, "#")
        for move in moves:
            if move[0] == "step":
                cells[(move[1], move[2])] = symbol
            elif G.wall_inside(move[1:], sx, sy):
                for e in G.wall_edges(move[1:]):
                    edges[e] = symbol
                corners[(move[2], move[3])] = symbol
        texts = [_describe(m) for m in moves] + [repr(o) for o in other]
        legend.append(f"{symbol} {group}: " + (", ".join(texts) if texts else "(none)"))
    lines = ["    " + "".join(f"{x:^3} " for x in range(sx)), "   +" + "---+" * sx]
    for y in range(sy):
        row = f"{y:>2} |"
        for x in range(sx):
            mark = cells.get((x, y))
            pawn = "1" if state.pos[0] == (x, y) else "2" if state.pos[1] == (x, y) else None
            inside = pawn or mark or "."
            row += f"{mark or ' '}{inside} " if pawn and mark else f" {inside} "
            if x < sx - 1:
                row += edges.get(((x, y), (x + 1, y)), " ")
        lines.append(row + "|")
        if y < sy - 1:
            gap = "   |"
            for x in range(sx):
                gap += edges.get(((x, y), (x, y + 1)), " ") * 3
                if x < sx - 1:
                    gap += corners.get((x, y), " ")
            lines.append(gap + "|")
    lines.append("   +" + "---+" * sx)
    lines.append(status(state))
    return "\n".join(lines + legend)


def render_svg(state, marks: dict[str, Iterable] | None = None) -> str:
    """Grid, pawns, walls (dark), marked walls and steps in their group's colour, and a legend."""
    sx, sy = state.sizex, state.sizey
    c, m = 40, 24
    width = 2 * m + sx * c
    groups = list(_groups(marks))
    height = 2 * m + sy * c + 18 * (len(groups) + 1)
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for x in range(sx):
        out.append(f'<text x="{m + x * c + c / 2}" y="{m - 6}" text-anchor="middle">{x}</text>')
    for y in range(sy):
        out.append(f'<text x="{m - 6}" y="{m + y * c + c / 2 + 4}" text-anchor="end">{y}</text>')
    for y in range(sy):
        for x in range(sx):
            out.append(f'<rect x="{m + x * c}" y="{m + y * c}" width="{c}" height="{c}" '
                       f'fill="#f7f3e8" stroke="#c8c0a8" stroke-width="1"/>')

    def wall_line(wall, colour, dash="", width=6):
        ori, x, y = wall
        if ori == "H":
            x1, y1, x2, y2 = m + x * c + 2, m + (y + 1) * c, m + (x + 2) * c - 2, m + (y + 1) * c
        else:
            x1, y1, x2, y2 = m + (x + 1) * c, m + y * c + 2, m + (x + 1) * c, m + (y + 2) * c - 2
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                f'stroke-width="{width}" stroke-linecap="round"{extra}/>')

    for wall, _by, _ply in state.walls:
        out.append(wall_line(wall, "#3b2f2f"))
    for seat in (0, 1):
        x, y = state.pos[seat]
        out.append(f'<circle cx="{m + x * c + c / 2}" cy="{m + y * c + c / 2}" r="{c * 0.32}" '
                   f'fill="{PAWN_COLOUR[seat]}"/>')
        out.append(f'<text x="{m + x * c + c / 2}" y="{m + y * c + c / 2 + 4}" text-anchor="middle" '
                   f'fill="#ffffff" font-weight="bold">{seat + 1}</text>')
    spare = iter(SPARE_COLOURS)
    ly = 2 * m + sy * c
    caption = status(state)
    longest = len(caption)
    out.append(f'<text x="{m}" y="{ly}">{escape(caption)}</text>')
    for group, moves, other in groups:
        colour, dash = SVG_STYLE.get(group) or (next(spare, "#7f7f7f"), "")
        for move in moves:
            if move[0] == "step":
                x, y = move[1], move[2]
                if 0 <= x < sx and 0 <= y < sy:
                    d = f' stroke-dasharray="{dash}"' if dash else ""
                    out.append(f'<rect x="{m + x * c + 5}" y="{m + y * c + 5}" width="{c - 10}" '
                               f'height="{c - 10}" fill="none" stroke="{colour}" stroke-width="3"{d}/>')
            elif G.wall_inside(move[1:], sx, sy):
                out.append(wall_line(move[1:], colour, dash, 4))
        ly += 18
        texts = [_describe(mv) for mv in moves] + [repr(o) for o in other]
        legend = f'{group}: {", ".join(texts) if texts else "(none)"}'
        longest = max(longest, len(legend))
        out.append(f'<text x="{m}" y="{ly}" fill="{colour}">{escape(legend)}</text>')
    out.append("</svg>")
    # widen the picture so the caption and the legend are not cut off (about 7 px per character)
    wide = max(width, min(1200, int(m + 7 * longest)))
    if wide != width:
        out[0] = out[0].replace(f'width="{width}"', f'width="{wide}"', 1).replace(
            f'viewBox="0 0 {width} ', f'viewBox="0 0 {wide} ', 1)
        out[1] = out[1].replace(f'width="{width}"', f'width="{wide}"', 1)
    return "\n".join(out)
