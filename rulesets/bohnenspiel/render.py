"""Pictures of a Bohnenspiel position for reports: a text board and a self-contained SVG.

Player 1's row is drawn on top from pit 5 to pit 0 and player 0's row below from pit 0 to 5, so
sowing runs counter-clockwise with player 0 at the bottom, as on the course's board panel.
Marked moves (pits of the player to move, or skip) carry one symbol/colour per mark group.
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from rulesets.base import Move

from .moves import PITS, move_label

if TYPE_CHECKING:
    from .engine import BohnenspielState

SYMBOLS = "*+!?#%"
COLOURS = ("#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")


def _groups(marks: dict[str, Iterable[Move]] | None) -> list[tuple[str, list[Move]]]:
    return [(name, list(moves)) for name, moves in (marks or {}).items()][: len(SYMBOLS)]


def _mark_of(groups, move: Move) -> int | None:
    for k, (_, moves) in enumerate(groups):
        if move in moves:
            return k
    return None


def _status(state: BohnenspielState) -> str:
    if state.end and state.outcome is not None:
        return state.outcome.detail
    return f"Player {state.turn_player} to move (turn {state.turn_number}, ply {state.ply})."


def render_text(state: BohnenspielState, marks: dict[str, Iterable[Move]] | None = None) -> str:
    groups = _groups(marks)
    mover = state.to_move

    def cell(side: int, i: int) -> str:
        k = _mark_of(groups, ("pit", i)) if side == mover else None
        n = state.pits[side][i]
        return f"{SYMBOLS[k]}{n:>2}{SYMBOLS[k]}" if k is not None else f" {n:>2} "

    def info(p: int) -> str:
        return f"  score {state.scores[p]:>2}  skips {state.credit[p]}" + ("  (may not skip)" if state.barred[p] else "")

    top = "".join(cell(1, i) for i in reversed(range(PITS)))
    bottom = "".join(cell(0, i) for i in range(PITS))
    lines = [
        "pit        " + "".join(f" {i:>2} " for i in reversed(range(PITS))),
        f"player 1  |{top}|" + info(1),
        f"player 0  |{bottom}|" + info(0),
        "pit        " + "".join(f" {i:>2} " for i in range(PITS)),
        _status(state),
    ]
    for k, (name, moves) in enumerate(groups):
        lines.append(f"{SYMBOLS[k]} {name}: " + (", ".join(move_label(m) for m in moves) or "none"))
    return "\n".join(lines)


def render_svg(state: BohnenspielState, marks: dict[str, Iterable[Move]] | None = None) -> str:
    groups = _groups(marks)
    mover = state.to_move
    step, r, x0 = 70, 28, 120
    rows = {1: 60, 0: 140}
    width = x0 + PITS * step + 150
    height = 220 + 20 * len(groups)
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbf6ec"/>',
           f'<rect x="{x0 - 40}" y="20" width="{PITS * step + 10}" height="160" rx="20" fill="#c8a070"/>']
    for side, y in rows.items():
        for i in range(PITS):
            x = x0 + (PITS - 1 - i if side == 1 else i) * step
            k = _mark_of(groups, ("pit", i)) if side == mover else None
            stroke = (f'stroke="{COLOURS[k]}" stroke-width="5"' if k is not None
                      else 'stroke="#7a5230" stroke-width="2"')
            out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="#e8d2a8" {stroke}/>')
            out.append(f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-weight="bold">'
                       f'{state.pits[side][i]}</text>')
            label_y = y - r - 4 if side == 1 else y + r + 14
            out.append(f'<text x="{x}" y="{label_y}" text-anchor="middle" font-size="10" fill="#5a4020">{i}</text>')
        turn = " ◀" if side == mover else ""
        out.append(f'<text x="10" y="{y + 5}" font-weight="bold">Player {side}{turn}</text>')
        sx = x0 + PITS * step - 10
        barred = ", barred" if state.barred[side] else ""
        out.append(f'<text x="{sx}" y="{y - 4}">score {state.scores[side]}</text>')
        out.append(f'<text x="{sx}" y="{y + 14}" font-size="12">skips {state.credit[side]}{barred}</text>')
    out.append(f'<text x="10" y="205" font-size="12">{escape(_status(state))}</text>')
    for k, (name, moves) in enumerate(groups):
        y = 225 + 20 * k
        names = ", ".join(move_label(m) for m in moves) or "none"
        out.append(f'<circle cx="18" cy="{y - 5}" r="7" fill="none" stroke="{COLOURS[k]}" stroke-width="3"/>')
        out.append(f'<text x="32" y="{y}" font-size="12">{escape(name)}: {escape(names)}</text>')
    out.append("</svg>")
    return "\n".join(out)
