"""The move that lost the game: for a student's lost or drawn game, the first of its moves after which
the position was no better than the game's result while another move kept it better, and that move.

Only for rulesets that declare an evaluator (`Ruleset.evaluator`, rulesets/base.py): exact where the
ruleset solves positions, else the ruleset's bounded search, labelled "estimate, depth N". A game's
searches share `GAME_NODES` nodes, split evenly over the positions valued, so a game costs about the
same however long it was, and the same game gets the same answer on any machine. Computed after a league's games (`analyse_league`), cached
in the store with the game's key, and shown only to the student and the staff (never on the public site).

Why a pool: a 300-student Bohnenspiel league has ~45,000 lost or drawn seats at ~0.2 s each. Each seat's
answer depends on its moves and the node budget alone (never on time), so `analyse_league` hands the
seats to a pool of processes as many as the league's (`workers`) and gets the same rows as one process.
"""
from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

from rulesets.base import Game, Ruleset, State

from .executors import die_with
from .store import Store

GAME_NODES = 20_000      # one game's bounded searches together (an exact evaluator needs none)
_RESULT_WORDS = {1: "won", 0: "drawn", -1: "lost"}


@dataclass(frozen=True)
class LosingMove:
    """The move (its ply from 0, its text) after which the seat's position fell to `after`, from `before`
    with the move `kept` (its text); exact, or an estimate of a search `depth` plies deep."""

    seat: int
    ply: int
    move: str
    kept: str
    before: int
    after: int
    exact: bool
    depth: int | None = None

    @property
    def label(self) -> str:
        return "exact" if self.exact else f"estimate, depth {self.depth}"

    @property
    def sentence(self) -> str:
        return (f"Move {self.ply + 1} ({self.move}) turned a {_RESULT_WORDS[self.before]} position into a "
                f"{_RESULT_WORDS[self.after]} one; {self.kept} kept it {_RESULT_WORDS[self.before]} ({self.label}).")

    def to_json(self) -> dict:
        return asdict(self) | {"label": self.label, "sentence": self.sentence}

    @classmethod
    def from_json(cls, data: dict) -> LosingMove:
        return cls(**{k: data[k] for k in ("seat", "ply", "move", "kept", "before", "after", "exact", "depth")})


def result_of(points: tuple[float, float] | list[float], seat: int) -> int:
    """+1 won, 0 drawn, -1 lost, from the seat's side."""
    mine, theirs = points[seat], points[1 - seat]
    return (mine > theirs) - (mine < theirs)


def _value(ruleset: Ruleset, state: State, seat: int, nodes: int) -> tuple[int, bool, int | None]:
    """The position's result for `seat` (exact at the end of the game), whether exact, and the depth."""
    outcome = state.outcome
    if outcome is not None:
        return result_of(outcome.points, seat), True, None
    assert ruleset.evaluator is not None
    value = ruleset.evaluator(state, nodes)
    return (value.result if state.to_move == seat else -value.result), value.exact, value.depth


def losing_move(ruleset: Ruleset, game: Game, seed: int, moves: list, seat: int,
                nodes: int = GAME_NODES) -> LosingMove | None:
    """The seat's first move after which its position was no better than the game's end while a move
    it had kept it better; None for a won game, a game the rules did not end (a forfeit, a cap), a
    game lost from its first move on, or a ruleset without an evaluator."""
    if ruleset.evaluator is None:
        return None
    state = game.new_state(seed)
    played, valued = [], 0                  # valued: the positions after the seat's options, each searched
    for wire in moves:
        valued += len(state.legal_moves()) if state.to_move == seat else 0
        played.append(state.parse_move(wire))
        state.play(played[-1])
    if state.outcome is None or (end := result_of(state.outcome.points, seat)) == 1:
        return None
    nodes = max(1, nodes // max(1, valued))
    state = game.new_state(seed)
    for ply, move in enumerate(played):
        if state.to_move == seat:
            values = {}
            for option in state.legal_moves():
                child = state.copy()
                child.play(option)
                values[option] = _value(ruleset, child, seat, nodes)
            best = max(v[0] for v in values.values())
            chosen = values[move]
            if chosen[0] < best and chosen[0] <= end:
                kept = next(m for m, v in values.items() if v[0] == best)
                depths = [d for d in (chosen[2], values[kept][2]) if d is not None]
                return LosingMove(seat, ply, state.move_text(move), state.move_text(kept), best, chosen[0],
                                  chosen[1] and values[kept][1], min(depths) if depths else None)
        state.play(move)
    return None


# a seat to analyse: (game key, seat, seed, the game's moves on the wire)
Seat = tuple[str, int, int, list]
_pooled: tuple[Ruleset, Game, int] | None = None        # a pool process's ruleset, game and node budget


def _init_pool(ruleset: Ruleset, game: Game, nodes: int, manager: int) -> None:
    """A pool process: the ruleset and game sent once, not with every seat; it dies with the league."""
    global _pooled
    die_with(manager)
    _pooled = (ruleset, game, nodes)


def _pooled_seat(seat: Seat) -> dict | None:
    assert _pooled is not None
    ruleset, game, nodes = _pooled
    lost = losing_move(ruleset, game, seat[2], seat[3], seat[1], nodes)
    return lost.to_json() if lost else None


def analyse_seats(ruleset: Ruleset, game: Game, seats: list[Seat], nodes: int = GAME_NODES,
                  workers: int = 1) -> list[dict | None]:
    """Each seat's losing move as JSON (None: none found), in the seats' order; in `workers` processes
    (spawned, as the league's pool is) when there is more than one and more than one seat."""
    if workers <= 1 or len(seats) <= 1:
        return [None if (lost := losing_move(ruleset, game, seed, moves, seat, nodes)) is None else lost.to_json()
                for _, seat, seed, moves in seats]
    workers = min(workers, len(seats))
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_pool,
                             initargs=(ruleset, game, nodes, os.getpid())) as pool:
        return list(pool.map(_pooled_seat, seats, chunksize=max(1, len(seats) // (workers * 8))))


def analyse_league(ruleset: Ruleset, game: Game, store: Store, assignment: str, keys: set[str],
                   nodes: int = GAME_NODES, workers: int = 1) -> int:
    """Find and cache the losing move of every student seat's lost or drawn game among `keys` not yet
    analysed (a built-in's seat is not), in `workers` processes; how many seats were analysed now."""
    if ruleset.evaluator is None:
        return 0
    done = store.analysed_seats(assignment)
    seats: list[Seat] = []
    for g in store.each_game(assignment, keys=keys):
        if g.status != "done":
            continue
        for seat, sid in enumerate((g.seat0, g.seat1)):
            points = (g.points0, g.points1)
            if sid.startswith("builtin:") or (g.key, seat) in done or result_of(points, seat) == 1:
                continue
            seats.append((g.key, seat, g.seed, json.loads(g.moves_json or "{}").get("moves", [])))
    found = analyse_seats(ruleset, game, seats, nodes, workers)
    store.save_losing_moves(assignment, [(key, seat, lost) for (key, seat, _, _), lost in zip(seats, found)])
    return len(seats)
