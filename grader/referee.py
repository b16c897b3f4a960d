"""A game whose rules are a referee program in any language (rulesets.base.Referee): the `Game` and
`State` the grader drives, over one sandboxed process kept alive and spoken to in JSON lines.

The grader keeps only the move history: a state is (seed, params, moves) and the referee's status
of it, so copying a state and replaying a game seat-swapped cost nothing. The process holds one
position; a state that is not that position is brought there by `new` and its moves
(`RefereeProgram.sync`). Whatever the referee does wrong (it cannot be built, dies, hangs, answers
what is no JSON or contradicts itself) raises `RefereeFailed`, one sentence naming the referee: the
grader's failure, so a game becomes `infra` (retried by the league) and no student is blamed.

The requests, one JSON line each, and the replies (one line):
  {"cmd": "new", "seed": S, "params": {...}}  -> a status
  {"cmd": "play", "move": M}                  -> a status, or {"illegal": "why"} (position unchanged)
  {"cmd": "legal"}                            -> {"moves": [M, ...]}
  {"cmd": "picture"}                          -> {"text": "...", "svg": "<svg ...>"}
A status is {"to_move": 0 | 1 | null, "position": {...}, "outcome": null | {"points": [a, b],
"scores": [a, b], "reason": "code", "detail": "a sentence"}}: `position` is what players are shown.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from rulesets.base import (
    JSON,
    BadParams,
    EngineFailed,
    Game,
    IllegalMove,
    Move,
    Outcome,
    Referee,
    State,
    refuse,
)
from sandbox import Limits, PlayerProcess, java

from . import build_cache
from .builds import build_kind
from .config import ProgramsConfig
from .player_kinds import KINDS, RunJob, detect, program_needs

log = logging.getLogger(__name__)

SEEN = 4096                           # statuses kept per referee (each a position's few hundred bytes)
SHIM = "sandbox.module_shim"          # the bootstrap's own module: a referee is a program, not a Python player


class RefereeFailed(EngineFailed):
    """The referee program failed: the grader's fault, never a player's; str() is one sentence."""


class _Lines:
    """The referee's line adapter: the process is spoken to by `RefereeProgram.ask` alone."""

    def call(self, proc: Any, method: str, args: dict, soft: float) -> Any:
        raise RefereeFailed(f"the referee has no {method} call")


def _its(message: str) -> str:
    """The sandbox's sentence about a player, said of the referee: "its process exited with status 3"."""
    said = message.strip().rstrip(".").replace("The player process", "its process").replace("The player", "it")
    said = said.replace("the player", "it")
    return said[:1].lower() + said[1:]


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:32]


def _stage(sources: Path) -> Path:
    """A copy of the referee's sources the box's own uid may read (the build and the run read it)."""
    staged = Path(tempfile.mkdtemp(prefix="referee-", dir=build_cache.root()))
    shutil.copytree(sources, staged, dirs_exist_ok=True)
    for dirpath, _, files in os.walk(staged):
        os.chmod(dirpath, 0o755)
        for f in files:
            os.chmod(os.path.join(dirpath, f), 0o644)
    return staged


def _hashable(data: JSON) -> Move:
    """A move's JSON as a hashable canonical value: lists become tuples."""
    if isinstance(data, list):
        return tuple(_hashable(x) for x in data)
    if isinstance(data, dict):
        raise IllegalMove("a move is a number, a string or a list, not an object.")
    return data


def _plain(move: Move) -> JSON:
    return [_plain(x) for x in move] if isinstance(move, tuple) else move


def unavailable(referee: Referee) -> str | None:
    """Why this machine cannot run the referee (no sources, no program, its compiler missing), as the
    end of a sentence naming it; None when it can."""
    if not referee.sources.is_dir():
        return f"has no sources folder {referee.sources}"
    kind = detect(referee.sources)
    if kind is None:
        return f"in {referee.sources} is no program this grader can build: it needs {program_needs()}"
    tool = KINDS[kind].tool
    if kind == "javac" and java.unavailable_reason():
        return f"cannot run here: {java.unavailable_reason()}"
    if tool is not None and shutil.which(tool) is None:
        return f"cannot be built here: {tool} is not installed"
    return None


class RefereeProgram:
    """One referee process, started when first asked and kept for every game of its thread after
    (restarted when it failed, or in a forked worker): `ask` one request, `sync` to a position."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.lock = threading.RLock()
        self.proc: PlayerProcess | None = None
        self.staged: Path | None = None
        self.pid = 0
        self.at: tuple[int, str, list[JSON]] | None = None     # the position it holds: seed, params, moves
        self.seen: dict[str, dict] = {}             # statuses it sent, by position: a move tried on a copy
        #                                             and then played is asked once
        weakref.finalize(self, RefereeProgram._close_all, self.__dict__)

    def fail(self, what: str) -> RefereeFailed:
        """Stop the process (its state is unknown now) and the sentence that names the referee."""
        self.close()
        return RefereeFailed(f"{self.referee.title} {what}; this is the grader's failure, not a player's.")

    def _start(self) -> None:
        ref = self.referee
        why = unavailable(ref)
        if why is not None:
            raise self.fail(why)
        kind = detect(ref.sources)
        assert kind is not None                    # else `unavailable` said why
        self.staged = _stage(ref.sources)
        row = KINDS[kind]
        built = self.staged
        if row.build is not None:
            made = build_kind(kind, self.staged, SHIM, ProgramsConfig.model_validate({}),
                              key=f"referee-{kind}-{_digest(ref.sources)}", label=ref.title)
            if not made.ok or made.folder is None:
                raise self.fail(f"did not build: {made.message} {made.compiler}".strip())
            built = made.folder
        limits = Limits(memory_mb=ref.memory_mb, start_s=ref.start_s, call_s=ref.call_s,
                        first_call_s=ref.start_s, clock="wall", freeze=False, message_kb=1024)
        self.proc = PlayerProcess(SHIM, self.staged, limits, name=ref.title, prefork=True,
                                  program=row.run(RunJob(self.staged, built, ref.memory_mb)), lines=_Lines())
        self.pid = os.getpid()
        res = self.proc.start()
        if not res.ok:
            raise self.fail(f"did not start ({_its(res.message or res.verdict.value)})")

    def ask(self, request: dict) -> dict:
        """One request, its reply as a dict; RefereeFailed for anything but a line of a JSON object."""
        with self.lock:
            if self.proc is None or self.pid != os.getpid():
                self.proc = None                           # a forked worker's copy: the parent's to close
                self.at = None
                self._start()
            assert self.proc is not None
            first = self.at is None
            res = self.proc.exchange_line([json.dumps(request, separators=(",", ":"))],
                                          self.referee.start_s if first else self.referee.call_s)
            cmd = request.get("cmd")
            if not res.ok:
                raise self.fail(f"failed on {cmd!r} ({_its(res.message or res.verdict.value)})")
            try:
                reply = json.loads(res.value)
            except (TypeError, ValueError):
                raise self.fail(f"answered {cmd!r} with a line that is no JSON: {str(res.value)[:80]!r}") from None
            if not isinstance(reply, dict):
                raise self.fail(f"answered {cmd!r} with {str(res.value)[:80]!r}, not a JSON object")
            return reply

    def sync(self, seed: int, params: dict, moves: list[JSON]) -> dict | None:
        """Bring the process to the position after `moves` from the start of (seed, params); the status
        of that position when moves were played to get there, else None (it was there already).
        A process kept from earlier games that fails here is given one successor, which replays the
        moves from the start: it may have ended while it waited, unasked (a kill from outside, the
        machine), and its state is the move history. A fresh one that fails is the grader's failure."""
        with self.lock:
            kept = self.proc is not None and self.pid == os.getpid()     # started for an earlier request
            try:
                return self._sync(seed, params, moves)
            except RefereeFailed as failed:
                if not kept:
                    raise
                log.warning("%s; a new process replays the game's %d moves", failed, len(moves))
                return self._sync(seed, params, moves)

    def _sync(self, seed: int, params: dict, moves: list[JSON]) -> dict | None:
        with self.lock:
            key = json.dumps(params, sort_keys=True)
            if self.proc is not None and self.pid == os.getpid() and self.at is not None \
                    and self.at[:2] == (seed, key) and moves[:len(self.at[2])] == self.at[2]:
                done = self.at[2]
                status = None
            else:
                status = self.ask({"cmd": "new", "seed": seed, "params": params})
                done = []
                self.at = (seed, key, done)
            for move in moves[len(done):]:
                status = self.ask({"cmd": "play", "move": move})
                if "illegal" in status:
                    raise self.fail(f"refused move {move!r}, which it had accepted in the same position")
                done.append(move)
            return status

    @staticmethod
    def position(seed: int, params: dict, moves: list[JSON]) -> str:
        return json.dumps([seed, params, moves], sort_keys=True, separators=(",", ":"))

    def remember(self, position: str, status: dict) -> None:
        if len(self.seen) >= SEEN:
            self.seen.clear()
        self.seen[position] = status

    def play(self, move: JSON) -> dict:
        """Play `move` where the process stands: its status, or {"illegal": why} (the position kept)."""
        with self.lock:
            reply = self.ask({"cmd": "play", "move": move})
            if "illegal" not in reply and self.at is not None:
                self.at[2].append(move)
            return reply

    def close(self) -> None:
        RefereeProgram._close_all(self.__dict__)

    @staticmethod
    def _close_all(fields: dict) -> None:
        proc, staged = fields.get("proc"), fields.get("staged")
        fields["proc"], fields["staged"], fields["at"] = None, None, None
        if proc is not None and fields.get("pid") == os.getpid():
            proc.close()
        if staged is not None and fields.get("pid") in (0, os.getpid()):
            shutil.rmtree(staged, ignore_errors=True)


_OWN = threading.local()                # each thread its own referee processes, as each its own games


def program(referee: Referee) -> RefereeProgram:
    """This thread's process of this referee: a game (one thread) never waits on another's, and
    threads that validate at once do not move one referee back and forth between their positions.
    It is closed when the thread ends or the grader exits (the weakref finalizer)."""
    programs: dict[tuple[str, str], RefereeProgram] = _OWN.__dict__.setdefault("programs", {})
    key = (str(referee.sources), referee.title)
    if key not in programs:
        programs[key] = RefereeProgram(referee)
    return programs[key]


class RefereeGame(Game):
    """The game a `Referee` plays: parameters checked against the record's, states by history."""

    referee: ClassVar[Referee]

    @classmethod
    def check_params(cls, params: dict) -> dict:
        unknown = sorted(set(params) - set(cls.referee.params))
        if unknown:
            raise BadParams(f"{cls.name}: unknown parameter(s) {', '.join(unknown)}; "
                            f"{cls.referee.title} takes {', '.join(cls.referee.params) or 'none'}.")
        return {**cls.referee.params, **params}

    @classmethod
    def unavailable(cls) -> str | None:
        why = unavailable(cls.referee)
        return None if why is None else f"{cls.referee.title} {why}"

    def new_state(self, seed: int) -> RefereeState:
        return RefereeState(self, seed, [], None)

    def state_from_json(self, data: dict) -> RefereeState:
        return RefereeState(self, int(data["seed"]), list(data["moves"]), None)


class RefereeState(State):
    """A position as its history; every question about it is the referee's."""

    game: RefereeGame

    def __init__(self, game: RefereeGame, seed: int, moves: list[JSON], status: dict | None) -> None:
        self.game = game
        self.seed = seed
        self.moves = moves
        self.ply = len(moves)
        self._status = status
        self._legal: list[Move] | None = None

    @property
    def program(self) -> RefereeProgram:
        assert isinstance(self.game, RefereeGame)
        return program(self.game.referee)

    @property
    def status(self) -> dict:
        if self._status is None:
            self.program.at = None                  # ask afresh: a status is what a `new` or `play` answers
            self._status = self.program.sync(self.seed, self.game.params, self.moves)
        status = self._status
        assert status is not None
        seat = status.get("to_move")
        if seat not in (0, 1, None) or not isinstance(status.get("position"), dict):
            raise self.program.fail(f"sent a status without to_move (0, 1 or null) or position: {str(status)[:120]}")
        if (seat is None) == (status.get("outcome") is None):
            raise self.program.fail("sent a status whose to_move and outcome disagree (one must be null, "
                                    "the other not)")
        return status

    @property
    def to_move(self) -> int | None:
        seat = self.status["to_move"]
        return None if seat is None else int(seat)

    @property
    def outcome(self) -> Outcome | None:
        out = self.status.get("outcome")
        if out is None:
            return None
        try:
            points = (float(out["points"][0]), float(out["points"][1]))
            scores = (float(out["scores"][0]), float(out["scores"][1]))
            return Outcome(points, scores, str(out["reason"]), str(out["detail"]))
        except (KeyError, IndexError, TypeError, ValueError):
            raise self.program.fail(f"sent an outcome without two points, two scores, a reason and a detail: "
                                    f"{str(out)[:120]}") from None

    def legal_moves(self) -> list[Move]:
        if self._legal is not None:
            return list(self._legal)
        with self.program.lock:
            self.program.sync(self.seed, self.game.params, self.moves)
            reply = self.program.ask({"cmd": "legal"})
        moves = reply.get("moves")
        if not isinstance(moves, list):
            raise self.program.fail(f"answered 'legal' without a list of moves: {str(reply)[:120]}")
        try:
            self._legal = [_hashable(m) for m in moves]
        except IllegalMove:
            raise self.program.fail("listed a legal move that is a JSON object") from None
        return list(self._legal)

    def play(self, move: Move) -> None:
        wire = _plain(move)
        after = [*self.moves, wire]
        position = RefereeProgram.position(self.seed, self.game.params, after)
        reply = self.program.seen.get(position)
        if reply is None:
            with self.program.lock:
                self.program.sync(self.seed, self.game.params, self.moves)
                reply = self.program.play(wire)
            if "illegal" in reply:
                raise IllegalMove(str(reply["illegal"]).replace("\n", " ") or "the referee refused it.")
            self.program.remember(position, reply)
        self.moves = after
        self.ply = len(self.moves)
        self._status, self._legal = reply, None
        self.status                                 # noqa: B018 (a nonsense status fails here, at its move)

    def why_illegal(self, move: Move) -> str | None:
        try:
            self.copy().play(move)
        except IllegalMove as exc:
            return str(exc)
        return None

    def parse_move(self, data: JSON) -> Move:
        """The move the reply names (a line's text read as JSON where it is JSON); IllegalMove with the
        referee's own sentence when the referee refuses it here: only the referee knows a move."""
        refuse(data)
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                data = data.strip()
        if data is None or isinstance(data, bool):
            raise IllegalMove(f"{data!r} is not a move.")
        move = _hashable(data)
        if move not in self.legal_moves():
            self.copy().play(move)          # IllegalMove with the referee's reason, or it contradicted itself
            raise self.program.fail(f"accepted move {data!r}, which its list of legal moves left out")
        return move

    def move_to_json(self, move: Move) -> JSON:
        return _plain(move)

    def copy(self) -> RefereeState:
        twin = RefereeState(self.game, self.seed, list(self.moves), self._status)
        twin._legal = self._legal
        return twin

    def to_json(self) -> dict:
        position = self.status["position"]
        return {**position, "seed": self.seed, "moves": list(self.moves), "to_move": self.to_move}

    def _picture(self) -> dict:
        with self.program.lock:
            self.program.sync(self.seed, self.game.params, self.moves)
            reply = self.program.ask({"cmd": "picture"})
        if not isinstance(reply.get("text"), str) or not isinstance(reply.get("svg"), str):
            raise self.program.fail(f"answered 'picture' without a text and an svg: {str(reply)[:120]}")
        return reply

    def render_text(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return str(self._picture()["text"])

    def render_svg(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        return str(self._picture()["svg"])

