"""Das Bohnenspiel engine: the final McGill COMP 424 (2017) rules as the grader's referee.

Board: `pits[p][i]` is player p's pit i (0..5 in sowing order), 6 beans each at the start.
Canonical moves are ("pit", i) and ("skip",). The rules, and where they follow the Java code
(`BohnenspielBoardState.java`) or the rules file's recommendations, are in this package's README.
"""
from __future__ import annotations

from collections.abc import Iterable

from rulesets.base import JSON, BadParams, Game, IllegalMove, Move, Outcome, State
from rulesets.values import is_int, short_repr

from .moves import (  # noqa: F401 - this module's API
    CAPTURED,
    DEFAULT_MAX_TURNS,
    PITS,
    SKIP,
    SKIPS,
    START_BEANS,
    move_label,
    parse_wire,
    pit_move,
    settle_end,
    sow,
)
from .render import render_svg, render_text


class BohnenspielState(State):
    """One position. Mutable; `play` applies a move, `copy` branches."""

    game: BohnenspielGame

    def __init__(self, game: BohnenspielGame, pits=None, scores=(0, 0), credit=(SKIPS, SKIPS),
                 barred=(0, 0), turn_player: int = 0, turn_number: int = 0, ply: int = 0,
                 end: dict | None = None):
        self.game = game
        self.max_turns: int = game.params["max_turns"]
        self.pits: list[list[int]] = [list(row) for row in (pits or [[START_BEANS] * PITS] * 2)]
        self.scores = list(scores)
        self.credit = list(credit)
        self.barred = list(barred)           # the Java turnsToSkip: 1 = may not skip this turn
        self.turn_player = turn_player
        self.turn_number = turn_number       # grows after each move of player 1, as in Java
        self.ply = ply
        self.end = dict(end) if end else None   # {"reason": ..., "left": beans, "to": seat}

    # ---- rules -------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.end else self.turn_player

    def moves_of(self, player: int) -> list[Move]:
        """Legal moves of `player` on this board: own non-empty pits ascending, then skip."""
        moves = [pit_move(i) for i in range(PITS) if self.pits[player][i] > 0]
        if self.credit[player] > 0 and not self.barred[player]:
            moves.append(SKIP)
        return moves

    def legal_moves(self) -> list[Move]:
        return [] if self.end else self.moves_of(self.turn_player)

    def why_illegal(self, move: Move) -> str | None:
        """A sentence saying why `move` is illegal here, or None if it is legal."""
        if self.end:
            return "the game is already over."
        p = self.turn_player
        if move == SKIP:
            if self.credit[p] <= 0:
                return f"player {p} has used both skips."
            if self.barred[p]:
                return f"player {p} may not skip right after the opponent skipped."
            return None
        if not (isinstance(move, tuple) and len(move) == 2 and move[0] == "pit" and is_int(move[1])
                and 0 <= move[1] < PITS):
            return f"{short_repr(move)} is not a Bohnenspiel move."
        if self.pits[p][move[1]] == 0:
            return f"pit {move[1]} of player {p} is empty."
        return None

    def play(self, move: Move) -> None:
        why = self.why_illegal(move)
        if why:
            raise IllegalMove(why[0].upper() + why[1:])
        p = self.turn_player
        if move == SKIP:
            self.credit[p] -= 1
            self.barred[1 - p] = 1
        else:
            self._sow_and_capture(p, move[1])
            self.barred[p] = 0
        if p == 1:
            self.turn_number += 1
        self.turn_player = 1 - p
        self.ply += 1
        self._check_end()

    def _sow_and_capture(self, p: int, start: int) -> None:
        sow(self, p, start)

    def _check_end(self) -> None:
        settle_end(self, bool(self.moves_of(self.turn_player)))

    @property
    def outcome(self) -> Outcome | None:
        if not self.end:
            return None
        a, b = self.scores
        points = (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)
        result = (f"player {0 if a > b else 1} wins {max(a, b)}–{min(a, b)}" if a != b
                  else f"a draw at {a}–{b}")
        left = self.end["left"]
        if self.end["reason"] == "no_moves":
            loser = 1 - self.end["to"]
            detail = (f"Player {loser} had no legal move, so the {left} bean(s) left on the board went to "
                      f"player {self.end['to']}: {result}.")
        else:
            detail = (f"The game reached the {self.max_turns}-turn cap with {left} bean(s) left unscored: "
                      f"{result}.")
        return Outcome(points, (float(a), float(b)), self.end["reason"], detail)

    # ---- wire and storage --------------------------------------------------------------------
    def parse_move(self, data: JSON) -> Move:
        move, player = parse_wire(data)
        if player is not None and self.to_move is not None and player != self.to_move:
            raise IllegalMove(f"The move is for player {player}, but it is player {self.to_move}'s turn.")
        return move

    def move_to_json(self, move: Move) -> JSON:
        return list(move)

    def move_text(self, move: Move) -> str:
        return move_label(move)

    def copy(self) -> BohnenspielState:
        return BohnenspielState(self.game, self.pits, self.scores, self.credit, self.barred,
                                self.turn_player, self.turn_number, self.ply, self.end)

    def to_json(self) -> dict:
        return {"pits": [list(r) for r in self.pits], "scores": list(self.scores), "credit": list(self.credit),
                "barred": list(self.barred), "turn_player": self.turn_player, "turn_number": self.turn_number,
                "ply": self.ply, "max_turns": self.max_turns, "end": dict(self.end) if self.end else None}

    def render_text(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return render_text(self, marks)

    def render_svg(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return render_svg(self, marks)


class BohnenspielGame(Game):
    """Parameters: `max_turns` (the Java MAX_TURN, 200): the game ends once turn_number exceeds it."""

    name = "bohnenspiel"
    version = "2017-final"

    @classmethod
    def check_params(cls, params: dict) -> dict:
        unknown = sorted(set(params) - {"max_turns"})
        if unknown:
            raise BadParams(f"Bohnenspiel has no parameter {unknown[0]!r}; the only one is max_turns.")
        max_turns = params.get("max_turns", DEFAULT_MAX_TURNS)
        if not is_int(max_turns) or max_turns < 1:
            raise BadParams(f"max_turns must be a whole number of at least 1, not {max_turns!r}.")
        return {"max_turns": max_turns}

    def new_state(self, seed: int = 0) -> BohnenspielState:
        return BohnenspielState(self)

    def position(self, p0, p1, to_move: int = 0, scores=(0, 0), credit=(SKIPS, SKIPS), barred=(0, 0),
                 turn_number: int = 0) -> BohnenspielState:
        """A position set up by hand (worked examples, probes, tests); the end test is not run."""
        return BohnenspielState(self, [p0, p1], scores, credit, barred, to_move, turn_number)

    def state_from_json(self, data: dict) -> BohnenspielState:
        """Rebuild a position; ValueError with a sentence if `data` is not one."""
        try:
            pits = [[int(x) for x in row] for row in data["pits"]]
            pair = lambda key: [int(x) for x in data[key]]  # noqa: E731
            scores, credit, barred = pair("scores"), pair("credit"), pair("barred")
            turn_player, turn_number = int(data["turn_player"]), int(data["turn_number"])
            end = data.get("end")
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"This is not a Bohnenspiel position (problem with {exc}).") from None
        if (len(pits) != 2 or any(len(r) != PITS or min(r) < 0 for r in pits) or len(scores) != 2
                or len(credit) != 2 or len(barred) != 2 or turn_player not in (0, 1)):
            raise ValueError("This is not a Bohnenspiel position: it needs 2 rows of 6 pits and two of each counter.")
        state = BohnenspielState(self, pits, scores, credit, barred, turn_player, turn_number,
                                 int(data.get("ply", 0)), end)
        if "max_turns" in data:
            state.max_turns = int(data["max_turns"])
        return state
