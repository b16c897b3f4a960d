"""The Double Card engine (rulesets/base.py's Game/State), rules as in /work/shared/rules/doublecard.md.

Seat 0 moves first and plays `seat0_role` ("colours" by default); seat 1 plays the other role.
Columns stay stacked from the floor (a card needs support and may only be lifted when nothing
rests on it), so a column's height says everything about which of its cells are empty.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulesets.base import BadParams, Game, IllegalMove, Outcome, State, refuse

from . import board as B
from .board import ROLE_TITLES, SEAT_NAMES
from .render import render_svg, render_text

ROLES = ("colours", "dots")
DEFAULT_MAX_MOVES = 60          # the assignment text; 40 was the tournament's setting (rules §4.9.2)
TOURNAMENT_MAX_MOVES = 40


class DoubleCardGame(Game):
    name = "doublecard"
    version = "1"

    @classmethod
    def check_params(cls, params: dict) -> dict:
        known = {"max_moves", "strict_recycle", "seat0_role"}
        unknown = sorted(set(params) - known)
        if unknown:
            raise BadParams(f"Double Card has no parameter {unknown[0]!r}; it knows {', '.join(sorted(known))}.")
        max_moves = params.get("max_moves", DEFAULT_MAX_MOVES)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise BadParams(f"max_moves must be a whole number of moves of at least 1 (the course used 60, "
                            f"the tournament 40), not {max_moves!r}.")
        strict = params.get("strict_recycle", False)
        if not isinstance(strict, bool):
            raise BadParams(f"strict_recycle must be true or false, not {strict!r}.")
        role = params.get("seat0_role", "colours")
        role = {"colors": "colours", "color": "colours", "colour": "colours", "dot": "dots"}.get(role, role)
        if role not in ROLES:
            raise BadParams(f"seat0_role must be 'colours' or 'dots' (the role of the player who moves first), "
                            f"not {role!r}.")
        return {"max_moves": max_moves, "strict_recycle": strict, "seat0_role": role}

    def role(self, seat: int) -> str:
        first = self.params["seat0_role"]
        return first if seat == 0 else ROLES[1 - ROLES.index(first)]

    def new_state(self, seed: int = 0) -> DoubleCardState:
        return DoubleCardState(self)

    def state_from_json(self, data: dict) -> DoubleCardState:
        game = self if data.get("params", self.params) == self.params else DoubleCardGame(**data["params"])
        state = DoubleCardState(game)
        for code, where in data.get("cards", []):
            cell = B.parse_text(f"0 {code} {where}")[2]
            state._place(len(state.cards), code, cell)
        state.ply = int(data.get("ply", 0))
        state.last_card = data.get("last_card")
        state.history = list(data.get("history", []))
        out = data.get("outcome")
        if out is not None:
            state._outcome = Outcome(tuple(out["points"]), tuple(out["scores"]), out["reason"], out["detail"])
        return state


class DoubleCardState(State):
    """One position: the cards on the board, whose turn it is, and which card is locked."""

    game: DoubleCardGame

    def __init__(self, game: DoubleCardGame):
        self.game = game
        self.owner: list[int] = [-1] * B.CELLS            # card id per cell, -1 when empty
        self.colour: list[int | None] = [None] * B.CELLS
        self.dot: list[int | None] = [None] * B.CELLS
        self.heights = [0] * B.WIDTH                      # occupied cells per column
        self.cards: list[tuple[int, int]] = []            # card id -> (code, bottom-left cell)
        self.ply = 0
        self.last_card: int | None = None                 # placed or moved by the previous move
        self.history: list[str] = []
        self._outcome: Outcome | None = None
        self._legal: list[tuple] | None = None

    # ---- the base API ------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.outcome is not None else self.ply % 2

    @property
    def outcome(self) -> Outcome | None:
        if self._outcome is None and self.recycling and not self.internal_moves():
            self._outcome = Outcome((0.5, 0.5), (0.0, 0.0), "no_moves",
                                    f"The {SEAT_NAMES[self.ply % 2]} has no legal recycling move: a draw.")
        return self._outcome

    def legal_moves(self) -> list[str]:
        if self.outcome is not None:
            return []
        return [B.move_text(m) for m in self.internal_moves()]

    def play(self, move) -> None:
        self._apply(self.check(B.parse_text(self.parse_move(move))))

    def parse_move(self, data: Any) -> str:
        refuse(data)
        if not isinstance(data, str):
            what = "nothing" if data is None else f"a {type(data).__name__}"
            raise IllegalMove(f"A move must be text like '0 5 A 2' or 'F 2 F 3 3 A 2'; the player sent {what}.")
        return B.move_text(B.parse_text(data))

    def move_to_json(self, move) -> str:
        return move

    def move_text(self, move) -> str:
        return move

    def copy(self) -> DoubleCardState:
        other = DoubleCardState.__new__(DoubleCardState)
        other.game = self.game
        other.owner, other.colour, other.dot = self.owner[:], self.colour[:], self.dot[:]
        other.heights, other.cards = self.heights[:], self.cards[:]
        other.ply, other.last_card, other.history = self.ply, self.last_card, self.history[:]
        other._outcome, other._legal = self._outcome, self._legal
        return other

    def to_json(self) -> dict:
        out = self._outcome
        return {"params": dict(self.game.params),
                "cards": [[code, B.cell_tokens(cell)] for code, cell in self.cards],
                "ply": self.ply, "last_card": self.last_card, "history": list(self.history),
                "outcome": None if out is None else {"points": list(out.points), "scores": list(out.scores),
                                                     "reason": out.reason, "detail": out.detail}}

    def render_text(self, marks: dict[str, Iterable] | None = None) -> str:
        return render_text(self, marks)

    def render_svg(self, marks: dict[str, Iterable] | None = None) -> str:
        return render_svg(self, marks)

    # ---- Double Card specifics ---------------------------------------------------------------

    @property
    def recycling(self) -> bool:
        """All 24 cards are on the board: only recycling moves from now on."""
        return len(self.cards) == B.CARDS

    def role(self, seat: int) -> str:
        return self.game.role(seat)

    def card_at(self, cell: int) -> int:
        return self.owner[cell]

    def card_cells(self, card: int) -> tuple[int, int]:
        code, cell = self.cards[card]
        second = B.second_cell(code, cell)
        assert second is not None                  # a card on the board lies on two cells
        return cell, second

    def internal_moves(self) -> list[tuple]:
        """Legal moves as (source, code, cell), in canonical order (cached per position)."""
        if self._legal is None:
            self._legal = self._recycling_moves() if self.recycling else self._placements(self.heights)
        return self._legal

    def check(self, move: tuple) -> tuple:
        """The internal move if it is legal here; IllegalMove with the reason otherwise."""
        if self.outcome is not None:
            raise IllegalMove("The game is over; no more moves can be played.")
        source, code, cell = move
        if source is None:
            if self.recycling:
                raise IllegalMove("All 24 cards are on the board, so only recycling moves such as "
                                  "'F 2 F 3 3 A 2' are allowed now.")
            self._placement_problem(code, cell, self.heights)
            return move
        if not self.recycling:
            raise IllegalMove(f"Recycling moves start once all 24 cards are on the board; "
                              f"{len(self.cards)} are there now.")
        a, b = source
        card = self.owner[a]
        if card < 0:
            raise IllegalMove(f"{B.cell_name(a)} is empty, so there is no card to recycle there.")
        if self.owner[b] != card:
            raise IllegalMove(f"{B.cell_name(a)} and {B.cell_name(b)} do not hold the same card.")
        name = f"The card at {B.cell_name(a)}–{B.cell_name(b)} cannot be recycled"
        if card == self.last_card:
            verb = "moved" if self.history and not self.history[-1].startswith("0") else "placed"
            raise IllegalMove(f"{name}: that card was just {verb} by your opponent.")
        resting = self._resting_on(card)
        if resting is not None:
            raise IllegalMove(f"{name}: a card rests on {B.cell_name(resting)}.")
        old_code, old_cell = self.cards[card]
        if (code, cell) == (old_code, old_cell):
            raise IllegalMove(f"{name} into the same placement ({code} at {B.cell_name(cell)}); "
                              f"a recycling move must change it.")
        target = {cell, B.second_cell(code, cell)}
        if self.game.params["strict_recycle"] and target == {a, b}:
            raise IllegalMove(f"{name} back into the same cells: strict recycling is on.")
        self._placement_problem(code, cell, self._heights_without(card))
        return move

    def winner_if(self, move: tuple) -> int | None:
        """Who would win if the legal internal `move` were played now (None: nobody).

        Searches call this for every reply, so it only paints the move's segments into the
        colour and dot lists, looks for lines, and paints them back (no copy)."""
        source, code, cell = move
        second = B.second_cell(code, cell)
        assert second is not None                  # a legal move lies on the board
        placed = (cell, second)
        touched = list(source or ()) + list(placed)
        saved = [(c, self.colour[c], self.dot[c]) for c in touched]
        for c in source or ():
            self.colour[c] = self.dot[c] = None
        for c, (colour, dot) in zip(placed, B.SEGMENTS[code]):
            self.colour[c], self.dot[c] = colour, dot
        try:
            found = self._line_made(self.ply % 2, placed)
        finally:
            for c, colour, dot in reversed(saved):
                self.colour[c], self.dot[c] = colour, dot
        return None if found is None else found[0]

    # ---- internals ---------------------------------------------------------------------------

    def _placement_problem(self, code: int, cell: int, heights: list[int]) -> None:
        second = B.second_cell(code, cell)
        if second is None:
            raise IllegalMove(f"{B.cell_name(cell)} with rotation {code} would need "
                              f"{B.off_board_name(code, cell)}, outside the board.")
        needs_support = (cell, second) if B.horizontal(code) else (cell,)
        for c in (cell, second):
            if heights[c % B.WIDTH] > c // B.WIDTH:
                raise IllegalMove(f"{B.cell_name(c)} is already taken.")
        for c in needs_support:
            if heights[c % B.WIDTH] < c // B.WIDTH:
                raise IllegalMove(f"{B.cell_name(c)} has nothing under it.")

    def _placements(self, heights: list[int], skip: tuple | None = None) -> list[tuple]:
        """Every legal placement (None, code, cell) on a board with these column heights."""
        out = []
        for col in range(B.WIDTH):
            row = heights[col]
            if row >= B.HEIGHT:
                continue
            cell = row * B.WIDTH + col
            flat = col + 1 < B.WIDTH and heights[col + 1] == row
            tall = row + 1 < B.HEIGHT
            for code in range(1, 9):
                if (flat if code % 2 else tall):
                    out.append((None, code, cell))
        out.sort(key=lambda m: (m[2], m[1]))
        return out

    def _resting_on(self, card: int) -> int | None:
        """A cell of `card` that has another card on top of it, or None."""
        code, cell = self.cards[card]
        tops = (cell, cell + 1) if B.horizontal(code) else (cell + B.WIDTH,)
        for top in tops:
            if top + B.WIDTH < B.CELLS and self.owner[top + B.WIDTH] >= 0:
                return top
        return None

    def _heights_without(self, card: int) -> list[int]:
        code, cell = self.cards[card]
        heights = self.heights[:]
        col, row = cell % B.WIDTH, cell // B.WIDTH
        if B.horizontal(code):
            heights[col] = heights[col + 1] = row
        else:
            heights[col] = row
        return heights

    def _recycling_moves(self) -> list[tuple]:
        strict = self.game.params["strict_recycle"]
        out = []
        for card in sorted(range(len(self.cards)), key=lambda k: self.cards[k][1]):
            if card == self.last_card or self._resting_on(card) is not None:
                continue
            old_code, old_cell = self.cards[card]
            source = (old_cell, B.second_cell(old_code, old_cell))
            for _, code, cell in self._placements(self._heights_without(card)):
                if (code, cell) == (old_code, old_cell):
                    continue
                if strict and {cell, B.second_cell(code, cell)} == set(source):
                    continue
                out.append((source, code, cell))
        return out

    def _place(self, card: int, code: int, cell: int) -> tuple[int, int]:
        second = B.second_cell(code, cell)
        assert second is not None                  # legal_moves only lists placements on the board
        (c1, d1), (c2, d2) = B.SEGMENTS[code]
        for where, colour, dot in ((cell, c1, d1), (second, c2, d2)):
            self.owner[where], self.colour[where], self.dot[where] = card, colour, dot
            self.heights[where % B.WIDTH] += 1
        if card == len(self.cards):
            self.cards.append((code, cell))
        else:
            self.cards[card] = (code, cell)
        return cell, second

    def _lift(self, card: int) -> None:
        for where in self.card_cells(card):
            self.owner[where], self.colour[where], self.dot[where] = -1, None, None
            self.heights[where % B.WIDTH] -= 1

    def _apply(self, move: tuple) -> None:
        """Play a move already known to be legal, and settle the outcome."""
        source, code, cell = move
        mover = self.ply % 2
        if source is None:
            card = len(self.cards)
        else:
            card = self.owner[source[0]]
            self._lift(card)
        placed = self._place(card, code, cell)
        self.last_card = card
        self.history.append(B.move_text(move))
        self.ply += 1
        self._legal = None
        self._outcome = self._judge(mover, placed)

    def _line_made(self, mover: int, placed: tuple[int, int]) -> tuple[int, list[int], bool] | None:
        """(winner, the line, whether both kinds of line appeared) if the placed cells make a line."""
        if not (B.makes_line(self.colour, placed) or B.makes_line(self.dot, placed)):
            return None
        colour_line = B.longest_line(self.colour, placed)
        dot_line = B.longest_line(self.dot, placed)
        mine = colour_line if self.role(mover) == "colours" else dot_line
        winner = mover if mine else 1 - mover
        line = mine or colour_line or dot_line
        assert line is not None                    # makes_line said one of them is a line
        return winner, line, bool(colour_line and dot_line)

    def _judge(self, mover: int, placed: tuple[int, int]) -> Outcome | None:
        found = self._line_made(mover, placed)
        if found is not None:
            winner, line, both = found
            return self._win(winner, mover, line, both)
        if self.ply >= self.game.params["max_moves"]:
            return Outcome((0.5, 0.5), (0.0, 0.0), "move_limit",
                           f"Nobody made a line in {self.ply} moves: a draw.")
        return None

    def _win(self, winner: int, mover: int, line: list[int], both: bool) -> Outcome:
        role = self.role(winner)
        values = self.colour if role == "colours" else self.dot
        kind = values[line[0]]
        assert kind is not None                    # a line is made of filled cells
        what = B.COLOUR_NAMES[kind] if role == "colours" else B.DOT_NAMES[kind] + " dots"
        detail = (f"{ROLE_TITLES[role]} ({SEAT_NAMES[winner]}) win: {len(line)} {what} in a line at "
                  f"{B.span(line)} after move {self.ply}, {self.history[-1]}")
        if both:
            detail += ", which made lines of both kinds; the mover wins."
        elif winner != mover:
            detail += ", made by their opponent."
        else:
            detail += "."
        points = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
        return Outcome(points, points, "line", detail)
