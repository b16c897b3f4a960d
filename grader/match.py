"""One game: the ruleset engine holds the only real state; two sandboxed players are asked in turn.

Each player answers `move` calls through its ruleset's shim; every answer is parsed and checked by
the engine before it changes anything. When a player fails, the assignment's `Policy` says what
happens: forfeit the game, play a random move for it (McGill), or disqualify it (BRUTE). A player
whose process is gone always loses the game. Failures of the grader itself (a player process that
could not even be spawned) are reported as `infra_error` so the league retries them instead of
scoring them against a student. Every reply is checked against the shape its ruleset declares
(grader/replies.py) before the engine reads it, so nothing a player sends can make the game `infra`.

One first-move allowance (`first_move_s`) covers loading the submission, `setup` and the first
move: each of the three calls gets what is left of it as its soft limit (`Allowance`), and the
course's per-move limit applies from the second move on. Where the config gives loading its own
limit (`limits.load_s`), loading is timed on that alone (a player that loads late does not start)
and the allowance covers `setup` and the first move.
"""
from __future__ import annotations

import functools
import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sandbox
from rulesets.base import IllegalMove, NoMove, Ruleset
from sandbox import CallResult, Verdict
from sandbox.player import Player
from sandbox.seeding import seat_seed

from .assignment import Assignment
from .player_kinds import language
from .players import BuildFailed, player_kwargs
from .replies import ask, read
from .submissions import Submission

SEAT_NAMES = ("first player", "second player")

FATAL_REASONS = {
    Verdict.KILLED: "killed",
    Verdict.MEMORY: "memory",
    Verdict.CRASHED: "crash",
    Verdict.EXITED: "exited",
    Verdict.PROTOCOL: "protocol",
}


@dataclass
class PlayerRecord:
    """What one player did in one game: for the store, the reports and the student."""

    id: str
    incidents: list[dict] = field(default_factory=list)
    moves: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    slowest_move_s: float = 0.0
    peak_memory_mb: float | None = None
    output: str = ""
    output_dropped: int = 0
    exit_status: str = ""
    kills: list[str] = field(default_factory=list)      # each SIGKILL the grader sent it, and why


@dataclass
class GameResult:
    points: tuple[float, float]
    scores: tuple[float, float]
    reason: str
    detail: str
    moves: list[Any] = field(default_factory=list)
    move_texts: list[str] = field(default_factory=list)
    times: list[tuple[float, float]] = field(default_factory=list)
    players: list[PlayerRecord] = field(default_factory=list)
    disqualified: dict[int, str] = field(default_factory=dict)
    infra_error: str | None = None

    def to_json(self) -> dict:
        return {"points": list(self.points), "scores": list(self.scores), "reason": self.reason,
                "detail": self.detail, "moves": self.moves, "move_texts": self.move_texts,
                "times": [list(t) for t in self.times], "players": [vars(p) for p in self.players],
                "disqualified": {str(k): v for k, v in self.disqualified.items()},
                "infra_error": self.infra_error}


PlayerFactory = Callable[..., Player]       # sandbox.player.Player: every player class, and the tests' fakes
# (seat, the position it was asked about, what it was told, its answer): told of every turn a player is asked;
# the position is the game's own, so an observer that keeps it keeps a copy
TurnObserver = Callable[[int, Any, list, CallResult], None]


class Allowance:
    """One time allowance shared by several calls (the first move's: start, setup, first move).

    `left` is the soft limit to pass to the next call; `spend` charges a call's result with the
    clock the sandbox limits by (`Limits.clock`, wall-clock unless the limits say "cpu")."""

    def __init__(self, seconds: float, limits=None) -> None:
        self.seconds = seconds
        self.used = 0.0
        self.clock = getattr(limits, "clock", "wall")

    @property
    def left(self) -> float:
        return max(0.0, self.seconds - self.used)

    def spend(self, res: CallResult) -> None:
        self.used += res.cpu_s if self.clock == "cpu" else res.own_s     # own_s: not the wait for a CPU

    def late(self) -> CallResult:
        """The verdict of a call that was not even made: the allowance was used up before it."""
        return CallResult(Verdict.LATE, message=f"The allowance of {self.seconds:g} s was used up before this call.")


def player_factory(assignment: Assignment) -> PlayerFactory:
    """How this assignment's players are started: forked from a pre-imported template (the
    default, `league.prefork`), or spawned afresh; both are the same sandbox (sandbox/prefork.py)."""
    if assignment.config.league.prefork:
        return functools.partial(sandbox.PlayerProcess, prefork=True)
    return sandbox.PlayerProcess        # looked up now: GRADER_SANDBOX=portable may have been set since the import


class _Seat:
    """One player's process and its bookkeeping during a game."""

    def __init__(self, seat: int, sub: Submission, assignment: Assignment, factory: PlayerFactory, cpu,
                 seed: int):
        self.seat = seat
        self.sub = sub
        self.record = PlayerRecord(id=sub.id)
        self.language = language(assignment.ruleset, sub.staged)
        self.call = move_call(assignment.ruleset, self.language)   # "chooseMove", "step()": for sentences
        self.pending: list[dict] = []       # moves this player has not been told about yet
        self.first = True
        self.stopped = False                # the course's client stopped (policy "random_rest"): never asked again
        limits = assignment.limits(cpu)
        self.allowance = Allowance(assignment.first_move_s, limits)   # start + setup + first move
        self.own_load_limit = assignment.load_s is not None          # then: setup + first move
        self.proc: Any = None
        self.proc = factory(**player_kwargs(assignment, sub, cpu), seed=seed)

    def label(self) -> str:
        return f"{SEAT_NAMES[self.seat]} ({self.sub.display_name})"

    def incident(self, kind: str, message: str, ply: int | None = None) -> None:
        self.record.incidents.append({"kind": kind, "message": message, "ply": ply})

    def account(self, res: CallResult, loading: bool = False) -> None:
        """Note a call's times; `loading`: the start, charged to the first-move allowance unless
        loading has its own limit (`limits.load_s`)."""
        if self.first and not (loading and self.own_load_limit):
            self.allowance.spend(res)
        self.record.wall_s += res.wall_s
        self.record.cpu_s += res.cpu_s
        self.record.slowest_move_s = max(self.record.slowest_move_s, res.wall_s)

    def close(self) -> None:
        if self.proc is None:
            return
        try:
            report = self.proc.close()
        except Exception as exc:
            self.incident("grader", f"closing the player failed: {exc}")
            return
        self.record.peak_memory_mb = report.peak_memory_mb
        self.record.output = report.output
        self.record.output_dropped = report.output_dropped
        self.record.exit_status = report.exit_status
        self.record.kills = list(report.kills)


def _infra(seat: _Seat, res: CallResult) -> GameResult:
    """A player lost to the machine, not to its own doing (sandbox Verdict.INFRA): retried, never scored."""
    return GameResult((0, 0), (0, 0), "infra", f"The {seat.label()}: {res.message}", infra_error=res.message)


def move_call(ruleset: Ruleset, kind: str) -> str:
    """What the student's code that picks a move is called, in the language (`kind`) it is written in."""
    if kind == "java" and ruleset.java is not None:
        return ruleset.java.move_call
    return "program" if kind == "program" else ruleset.move_call


def _failure_sentence(who: str, res: CallResult) -> str:
    msg = res.message or res.verdict.value
    return f"The {who}: {msg}"


def play_game(assignment: Assignment, seat0: Submission, seat1: Submission, seed: int,
              factory: PlayerFactory | None = None, cpu: int | None = None,
              max_plies: int = 100000, key: bytes | None = None, opening: list | None = None,
              on_turn: TurnObserver | None = None) -> GameResult:
    """Play one game between two staged submissions; never raises for anything a player does.
    Each seat's process is seeded with `seat_seed(key, seed, seat)` (key: the league's secret
    unless given), never with the game's seed (grader/seeds.py). `opening`: a recorded game's first
    moves (wire form), played for both seats and told to both before either is asked (a branch).
    `on_turn` is told of every answer a player gives (a check judges its player's turns by it)."""
    key = assignment.league_key() if key is None else key
    if factory is None:
        factory = player_factory(assignment)
    game = _Game(assignment, seed, max_plies, opening or [], on_turn)
    try:
        for i, sub in enumerate((seat0, seat1)):
            try:
                game.seats.append(_Seat(i, sub, assignment, factory, cpu, seed=seat_seed(key, seed, i)))
            except BuildFailed as exc:             # the student's sources: that player loses
                return _Game.lose(i, "start_failed", f"The {SEAT_NAMES[i]} ({sub.display_name}) could not "
                                                     f"start: {exc}")
            except Exception as exc:
                return GameResult((0, 0), (0, 0), "infra", f"could not start a player process: {exc}",
                                  infra_error=str(exc))
        result = game.start() or game.run()
    except Exception as exc:
        result = GameResult((0, 0), (0, 0), "infra", f"the grader failed: {exc}",
                            infra_error=traceback.format_exc(limit=8))
    finally:
        for s in game.seats:
            s.close()
    result.moves, result.move_texts, result.times = game.moves, game.texts, game.times
    result.players = [s.record for s in game.seats]
    result.disqualified = game.disqualified
    return result


class _Game:
    """The loop of one game; `play_game` owns the processes' lifetime around it."""

    def __init__(self, assignment: Assignment, seed: int, max_plies: int, opening: list,
                 on_turn: TurnObserver | None = None):
        self.a = assignment
        self.on_turn = on_turn
        self.opening = opening
        self.state = assignment.game.new_state(seed)
        self.rng = random.Random(seed ^ 0x5EED)
        self.max_plies = max_plies
        self.seats: list[_Seat] = []
        self.moves: list[Any] = []
        self.texts: list[str] = []
        self.times: list[tuple[float, float]] = []
        self.disqualified: dict[int, str] = {}

    @staticmethod
    def lose(seat: int, reason: str, detail: str) -> GameResult:
        return GameResult((0.0, 1.0) if seat == 0 else (1.0, 0.0), (0.0, 0.0), reason, detail)

    def start(self) -> GameResult | None:
        """Start and set up both players; a player that cannot load loses (both: both lose)."""
        failed = []
        for s in self.seats:
            res = s.proc.start()
            s.account(res, loading=True)
            if res.ok and s.allowance.left > 0:   # else the first move is late: the shim sets up then
                res = ask(s.proc, self.a.ruleset.replies, "setup",
                          {"seat": s.seat, "state": self.state.to_json(), "name": s.sub.display_name,
                           "options": self.a.config.options}, soft=s.allowance.left)
                s.account(res)
            if res.verdict is Verdict.INFRA:
                return _infra(s, res)
            if res.verdict is Verdict.LATE and s.own_load_limit:
                res = CallResult(Verdict.LATE, message=f"Loading the submission took longer than its limit of "
                                                       f"{self.a.load_s:g} s: {res.message}")
                s.incident("timeout", res.message)
                failed.append((s, res))
                continue
            if not res.verdict.answered:
                s.incident(res.verdict.value, res.message or "failed to start")
                failed.append((s, res))
        if len(failed) == 2:
            return GameResult((0.0, 0.0), (0.0, 0.0), "start_failed", "Neither player could start. " + " ".join(
                _failure_sentence(s.label(), r) for s, r in failed))
        if failed:
            s, r = failed[0]
            return self.lose(s.seat, "start_failed", _failure_sentence(s.label(), r))
        return None

    def run(self) -> GameResult:
        state = self.state
        for wire in self.opening:                  # a recorded game's first moves: nobody is asked
            seat = state.to_move
            assert seat is not None                # a branch's opening ends before the game does
            self.play(self.seats[seat], state.parse_move(wire), CallResult(Verdict.OK), substituted=True,
                      recorded=True)
        while not state.is_over:
            if state.ply >= self.max_plies:
                return GameResult((0.5, 0.5), (0.0, 0.0), "grader_cap",
                                  f"The grader stopped the game after {self.max_plies} plies.")
            outcome = self.turn()
            if outcome is not None:
                return outcome
        out = state.outcome
        assert out is not None                     # the loop ends only when the game is over
        return GameResult(out.points, out.scores, out.reason, out.detail)

    def turn(self) -> GameResult | None:
        """Ask the player to move, apply the policy on failure; a GameResult if the game ends here."""
        state = self.state
        seat = state.to_move
        assert seat is not None                    # asked only while the game goes on
        s = self.seats[seat]
        if s.stopped:                              # the course's client stopped: its server moves for it
            move = state.random_move(self.rng)
            s.incident("substituted", f"a random move was played for it (the course's client had stopped): "
                                      f"{state.move_text(move)}", state.ply)
            self.play(s, move, CallResult(Verdict.OK), substituted=True)
            return None
        first = s.first
        soft = s.allowance.left if first else self.a.move_s
        if soft > 0:
            res = ask(s.proc, self.a.ruleset.replies, "move", {"state": state.to_json(), "last": s.pending},
                      soft=soft)
        else:
            res = s.allowance.late()
        s.account(res)
        if self.on_turn is not None:
            self.on_turn(seat, state, s.pending, res)
        s.first = False
        s.record.moves += 1
        ply = state.ply
        where = f"(move {ply + 1})"

        if res.verdict is Verdict.INFRA:
            return _infra(s, res)
        if res.verdict.fatal:
            s.incident(res.verdict.value, res.message, ply)
            return self.lose(seat, FATAL_REASONS.get(res.verdict, res.verdict.value),
                             f"{_failure_sentence(s.label(), res)} {where}")
        failure = None                                   # (policy key, reason code, sentence)
        move = None
        if res.verdict is Verdict.ERROR and res.java_error and self.a.policy.on_uncaught:
            thrown = res.message.split(":", 1)[0]
            said = f"threw {thrown} in {s.call}, a Java Error, which the course's client did not catch"
            failure = ("on_uncaught", "uncaught", f"{said} (it caught Exceptions only)")
        elif res.verdict is Verdict.ERROR:
            threw = "threw" if s.language == "java" else "raised"
            failure = ("on_error", "error", f"{threw} an exception in {s.call}: {res.message.rstrip('.')}")
        elif res.verdict is Verdict.LATE:
            failure = ("on_late", "timeout", self.late_sentence(s, res, first))
        else:
            try:
                move, unreadable = read(self.legal, state, res.value, expected=IllegalMove)
            except NoMove as exc:
                move, failure = None, ("on_none", "none", f"returned no move ({str(exc).rstrip('.')})")
            except IllegalMove as exc:
                move, failure = None, ("on_illegal", "illegal", f"made an illegal move: {str(exc).rstrip('.')}")
            else:
                if unreadable:
                    s.incident(Verdict.PROTOCOL.value, unreadable, ply)
                    return self.lose(seat, FATAL_REASONS[Verdict.PROTOCOL],
                                     f"The {s.label()}: {unreadable} {where}")

        if failure is not None:
            key, reason, sentence = failure
            s.incident(reason, f"{sentence}; {self.a.policy.consequence(key)}.", ply)
            action = getattr(self.a.policy, key)
            if action not in ("random", "random_rest"):
                detail = f"The {s.label()} {sentence} {where}."
                if action == "disqualify":
                    self.disqualified[seat] = detail
                return self.lose(seat, reason, detail)
            s.stopped = action == "random_rest"
            move = state.random_move(self.rng)
            s.incident("substituted", f"a random move was played instead: {state.move_text(move)}", ply)
        self.play(s, move, res, substituted=failure is not None)
        return None

    def play(self, s: _Seat, move: Any, res: CallResult, substituted: bool, recorded: bool = False) -> None:
        """Play `move` for seat `s` and tell the other seat; a substituted move is told to `s` too, and
        a recorded one (a branch's opening) after the others `s` has not been told yet."""
        state = self.state
        seat = s.seat
        state.play(move)
        wire = state.move_to_json(move)
        self.moves.append(wire)
        self.texts.append(state.move_text(move))
        self.times.append((round(res.wall_s, 4), round(res.cpu_s, 4)))
        told = {"seat": seat, "move": wire}
        other = self.seats[1 - seat]
        other.pending = other.pending + [told]
        s.pending = s.pending + [told] if recorded else [told] if substituted else []

    @staticmethod
    def legal(state, value):
        """The canonical move `value` names; IllegalMove when the rules refuse it (tried on a copy)."""
        move = state.parse_move(value)
        state.copy().play(move)
        return move

    @staticmethod
    def late_sentence(s: _Seat, res: CallResult, first: bool) -> str:
        """The sandbox's own sentence (which clock, how much, with the digits that show the excess);
        for the first move, what the whole allowance covered."""
        said = res.message[:1].lower() + res.message[1:].rstrip(".") if res.message else "was late"
        if first:
            return (f"used {s.allowance.used:.3f} s of the first-move allowance of {s.allowance.seconds:g} s "
                    f"(loading, setup and the first move together): {said}")
        return said
