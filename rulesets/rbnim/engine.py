"""Red-Blue Nim engine (UTA CSE 4308/5360, Assignment 2) for the grader.

Seat 0 moves first. Canonical moves are ("red", 1|2) and ("blue", 1|2), listed in the
assignment's order for the game's version; the wire form is [pile, count]. The game is over when
the player to move faces an empty pile; the amount 2·red + 3·blue decides the scores.
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape

from rulesets.base import JSON, BadParams, Game, IllegalMove, Move, Outcome, State
from rulesets.values import is_int, short_repr

from .moves import parse_wire
from .rules import MISERE, after, amount, describe, is_terminal, legal_moves, normalize_version

DEFAULTS = {"red": 8, "blue": 10, "version": "standard"}


class RBNimState(State):
    """A position: the two piles and the seat to move (who faces the end test)."""

    game: RBNimGame

    def __init__(self, game: RBNimGame, red: int, blue: int, turn: int = 0, ply: int = 0):
        self.game = game
        self.version: str = game.params["version"]
        self.red, self.blue, self.turn, self.ply = red, blue, turn, ply

    @property
    def to_move(self) -> int | None:
        return None if is_terminal(self.red, self.blue) else self.turn

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.red, self.blue, self.version)

    def why_illegal(self, move: Move) -> str | None:
        if is_terminal(self.red, self.blue):
            return "the game is already over."
        if move not in (("red", 1), ("red", 2), ("blue", 1), ("blue", 2)):
            return f"{short_repr(move)} is not a move."
        have = self.red if move[0] == "red" else self.blue
        if move[1] > have:
            return f"the {move[0]} pile has only {have} marble{'s' if have != 1 else ''}."
        return None

    def play(self, move: Move) -> None:
        why = self.why_illegal(move)
        if why:
            raise IllegalMove(why[0].upper() + why[1:])
        self.red, self.blue = after(self.red, self.blue, move)
        self.turn = 1 - self.turn
        self.ply += 1

    @property
    def outcome(self) -> Outcome | None:
        if not is_terminal(self.red, self.blue):
            return None
        facing, k = self.turn, amount(self.red, self.blue)
        winner = facing if self.version == MISERE else 1 - facing
        points = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
        scores = (float(k), float(-k)) if winner == 0 else (float(-k), float(k))
        verb = "wins" if self.version == MISERE else "loses"
        detail = (f"Player {facing} faced an empty pile with {self.red} red and {self.blue} blue left and "
                  f"{verb} {k} point{'s' if k != 1 else ''} ({self.version} version): player {winner} wins.")
        return Outcome(points, scores, "empty_pile", detail)

    def parse_move(self, data: JSON) -> Move:
        return parse_wire(data)

    def move_to_json(self, move: Move) -> JSON:
        return [move[0], move[1]]

    def move_text(self, move: Move) -> str:
        return describe(move)

    def copy(self) -> RBNimState:
        return RBNimState(self.game, self.red, self.blue, self.turn, self.ply)

    def to_json(self) -> dict:
        return {"red": self.red, "blue": self.blue, "version": self.version, "to_move": self.turn, "ply": self.ply}

    def _status(self) -> str:
        out = self.outcome
        return out.detail if out else f"Player {self.turn} to move ({self.version} version)."

    def _marks(self, marks):
        return [(name, list(moves)) for name, moves in (marks or {}).items()]

    def render_text(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        lines = [f"red  {self.red:>3}  " + "o" * self.red, f"blue {self.blue:>3}  " + "o" * self.blue, self._status()]
        lines += [f"{name}: " + (", ".join(describe(m) for m in moves) or "none") for name, moves in self._marks(marks)]
        return "\n".join(lines)

    def render_svg(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        per_row, step = 20, 22
        rows = [("red", self.red, "#d62728"), ("blue", self.blue, "#1f77b4")]
        lines_needed = [max(1, -(-n // per_row)) for _, n, _ in rows]
        height = 40 + sum(lines_needed) * step + 30 * 2 + 20 * (1 + len(self._marks(marks)))
        width = 90 + per_row * step
        out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="14">'),
               f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa"/>']
        y = 30
        for (name, n, colour), lines in zip(rows, lines_needed):
            out.append(f'<text x="10" y="{y + 5}" font-weight="bold">{name} {n}</text>')
            for k in range(n):
                cx, cy = 90 + (k % per_row) * step, y + (k // per_row) * step
                out.append(f'<circle cx="{cx}" cy="{cy}" r="9" fill="{colour}"/>')
            y += lines * step + 30
        out.append(f'<text x="10" y="{y}" font-size="12">{escape(self._status())}</text>')
        for name, moves in self._marks(marks):
            y += 20
            text = ", ".join(describe(m) for m in moves) or "none"
            out.append(f'<text x="10" y="{y}" font-size="12">{escape(name)}: {escape(text)}</text>')
        out.append("</svg>")
        return "\n".join(out)


class RBNimGame(Game):
    """Parameters: red, blue (pile sizes, ≥ 0), version ("standard" or "misere"/"misère")."""

    name = "rbnim"
    version = "1"

    @classmethod
    def check_params(cls, params: dict) -> dict:
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise BadParams(f"Red-Blue Nim has no parameter {unknown[0]!r}; it has red, blue and version.")
        out = {**DEFAULTS, **params}
        for pile in ("red", "blue"):
            if not is_int(out[pile]) or out[pile] < 0:
                raise BadParams(f"{pile} must be a whole number of marbles (0 or more), not {out[pile]!r}.")
        try:
            out["version"] = normalize_version(out["version"])
        except ValueError as exc:
            raise BadParams(str(exc)) from None
        return out

    def new_state(self, seed: int = 0) -> RBNimState:
        return RBNimState(self, self.params["red"], self.params["blue"])

    def state_from_json(self, data: dict) -> RBNimState:
        """Rebuild a position; ValueError with a sentence if `data` is not one."""
        try:
            red, blue, turn = int(data["red"]), int(data["blue"]), int(data.get("to_move", 0))
            version = normalize_version(data.get("version", self.params["version"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"This is not a Red-Blue Nim position (problem with {exc}).") from None
        if red < 0 or blue < 0 or turn not in (0, 1):
            raise ValueError("This is not a Red-Blue Nim position: piles must be 0 or more and the seat 0 or 1.")
        game = self if version == self.params["version"] else RBNimGame(red=red, blue=blue, version=version)
        return RBNimState(game, red, blue, turn, int(data.get("ply", 0)))
