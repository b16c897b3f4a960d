"""The engine API every game implements, so the grader drives all games the same way.

Modelled on OpenSpiel's Game/State split: a `Game` holds the parameters that affect play and
makes states; a `State` is one position with its legal moves. Moves are plain hashable Python
values (tuples, strings) in a canonical form chosen by each game; `State.parse_move` turns what a
player sent over the wire into that form (leniently) and `State.move_to_json` back.

A ruleset package (``rulesets/<name>/``) exposes one `Ruleset` value named ``RULESET``.
Nothing here imports the grader or the sandbox.
"""
from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:     # types only: the shim imports this module, and must not load the manager-side adapters
    from .console import ConsoleProgram
    from .lines import LineAdapter

# A move is a hashable plain value in the game's canonical form (a tuple, an int, a string):
# each game has its own, so the shared API types it loosely.
Move = Any
JSON = Any


class IllegalMove(ValueError):
    """A move the rules refuse. ``str(exc)`` is one sentence a student understands."""


class EngineFailed(RuntimeError):
    """The rules' own machinery failed (a referee program died, hung, answered nonsense): the
    grader's failure, never a player's. ``str(exc)`` is one sentence naming what failed; nothing
    that reads a player's reply turns it into the player's fault (grader/replies.py `read`)."""


class NoMove(IllegalMove):
    """The player's code returned nothing (None, Java's null): the course's `on_none` rule applies."""


def refuse(data: JSON) -> None:
    """Raise for a shim's sentence about a bad return value, `{"invalid": sentence}` (IllegalMove)
    or `{"invalid": sentence, "returned": "none"}` (NoMove); return for anything else."""
    if isinstance(data, dict) and "invalid" in data:
        sentence = str(data["invalid"]).replace("\n", " ")
        raise NoMove(sentence) if data.get("returned") == "none" else IllegalMove(sentence)


def invalid(sentence: str, value: object = "") -> dict:
    """What a shim sends for a bad return value `value`: a None is marked, for the on_none rule."""
    return {"invalid": sentence, "returned": "none"} if value is None else {"invalid": sentence}


class BadParams(ValueError):
    """Game parameters from config that make no sense; ``str(exc)`` says which and why."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, from the rules' point of view.

    points: league points per seat (1 win, 0.5 draw, 0 loss; (0, 0) when both lose).
    scores: the game's own score per seat (region sizes, beans, amounts), for reports.
    reason: a short code ("goal", "board_decided", "ply_cap", "no_moves", ...).
    detail: one sentence for people ("Player 1 reached row 8.").
    """

    points: tuple[float, float]
    scores: tuple[float, float]
    reason: str
    detail: str

    @property
    def winner(self) -> int | None:
        a, b = self.points
        return 0 if a > b else 1 if b > a else None


class State(ABC):
    """One position. Mutable: `play` changes it in place; use `copy` to branch."""

    game: Game
    ply: int = 0

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """Seat (0 or 1) whose turn it is; None once the game is over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in the game's canonical order."""

    @abstractmethod
    def play(self, move: Move) -> None:
        """Apply a canonical move; raise IllegalMove(reason) and leave the state untouched if illegal."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @abstractmethod
    def parse_move(self, data: JSON) -> Move:
        """Wire data from a player → canonical move. Raise IllegalMove if it is not a move at all."""

    @abstractmethod
    def move_to_json(self, move: Move) -> JSON:
        """Canonical move → plain JSON (what the store and replays keep)."""

    def move_text(self, move: Move) -> str:
        """A move in the course's own notation, for people."""
        return str(self.move_to_json(move))

    @abstractmethod
    def copy(self) -> State:
        ...

    @abstractmethod
    def to_json(self) -> dict:
        """Everything needed to rebuild this position with `Game.state_from_json`."""

    @abstractmethod
    def render_text(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        """A small text picture. `marks` names move groups to highlight, e.g. {"missing": [...], "extra": [...]}."""

    @abstractmethod
    def render_svg(self, marks: dict[str, Iterable[Move]] | None = None) -> str:
        """A self-contained <svg> element of the board (no external resources)."""

    def why_illegal(self, move: Move) -> str | None:
        """A sentence saying why the canonical `move` is illegal here, None if it is legal (games
        override it to say which rule it breaks)."""
        return None if move in self.legal_moves() else "it is not one of the legal moves here."

    def random_move(self, rng: random.Random) -> Move:
        """The move the "substitute a random move" policy plays for a failing player."""
        return rng.choice(self.legal_moves())


class Game(ABC):
    """Parameters that affect play, and a factory of states."""

    name: ClassVar[str]
    version: ClassVar[str]

    def __init__(self, **params: Any) -> None:
        self.params = self.check_params(params)

    @classmethod
    @abstractmethod
    def check_params(cls, params: dict) -> dict:
        """Fill defaults and validate; return the canonical params dict or raise BadParams."""

    @abstractmethod
    def new_state(self, seed: int) -> State:
        """The start position; any randomness (board size, barriers) comes from `seed` only."""

    @abstractmethod
    def state_from_json(self, data: dict) -> State:
        ...

    @classmethod
    def unavailable(cls) -> str | None:
        """Why this machine cannot play the game (a referee program whose language is not installed),
        as one sentence; None when it can (every game written in Python)."""
        return None

    def largest(self) -> Game:
        """This game on the largest start position its params can draw (a range of board sizes:
        the largest size), which a check's smoke games cover, so a player that is slow only on the
        course's largest boards cannot pass them on small ones; itself where nothing is drawn."""
        return self


@dataclass(frozen=True)
class Policy:
    """What the course did when a player failed, as data: each field is "forfeit" (the game is
    lost), "random" (a random legal move is played for the player and the game goes on),
    "random_rest" (the course's client stopped: its server played a random move on each of the
    player's remaining turns, never asking the player again) or "disqualify" (lost, and the player
    leaves the league). The match applies it and tells the student which rule applied (`consequence`).

    on_late:     answered after the soft time limit but before the hard kill.
    on_illegal:  answered in time with an illegal or unparsable move.
    on_error:    the player's code raised an exception (the process is still alive).
    on_none:     the player's code returned nothing (None, Java's null) where a move was due.
    on_uncaught: the player's Java code threw a java.lang.Error (StackOverflowError, AssertionError,
                 ...), which a course client that catches only Exceptions did not catch; "" (the
                 default) when the course handled it as any exception (on_error applies).
    A player whose process died (killed, memory, crashed, exited) always loses the game.
    """

    on_late: str = "forfeit"
    on_illegal: str = "forfeit"
    on_error: str = "forfeit"
    on_none: str = "forfeit"
    on_uncaught: str = ""

    KEYS: ClassVar[tuple[str, ...]] = ("on_late", "on_illegal", "on_error", "on_none", "on_uncaught")
    ACTIONS: ClassVar[dict[str, str]] = {
        "random": "the course plays a random move instead and the game goes on",
        "random_rest": ("the course's client stops there, so the course's server plays a random move on each of "
                        "the player's remaining turns and the game goes on"),
        "forfeit": "the course scores the game as lost",
        "disqualify": "the course scores the game as lost and disqualifies the player",
    }

    def __post_init__(self) -> None:
        for key in self.KEYS:
            value = getattr(self, key)
            if key == "on_uncaught" and value == "":
                continue
            if value not in self.ACTIONS:
                raise BadParams(f"policy {key}: {value!r} is not one of {', '.join(self.ACTIONS)}.")

    def consequence(self, key: str) -> str:
        """What the course does on this failure, as the end of a sentence."""
        return self.ACTIONS[getattr(self, key)]


@dataclass(frozen=True)
class Defaults:
    """The course's own limits and policies; config may override any of them."""

    first_move_s: float = 30.0
    move_s: float = 2.0
    kill_after_s: float = 1.0      # hard kill this long after the soft limit
    kill_factor: float = 1.0       # ... or at soft * kill_factor + kill_after_s
    clock: str = "cpu"             # what the course's harness timed: "wall" (its own wall-clock time) or "cpu"
    memory_mb: int = 500
    max_submission_mb: float = 10.0
    policy: Policy = field(default_factory=Policy)


@dataclass(frozen=True)
class ProbeResult:
    """One correctness stage's result for the validation report."""

    name: str
    passed: bool
    points: float
    max_points: float
    message: str                       # one paragraph: what was checked, what failed
    picture: str | None = None         # render_text of the failing position, with marks
    svg: str | None = None             # render_svg of the same, for the HTML report
    details: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Value:
    """What a ruleset's evaluator says of a position, for the player to move: `result` +1 won, 0 drawn,
    -1 lost with best play; `exact` where the rules solved it, else an estimate of a search `depth` plies deep."""

    result: int
    exact: bool
    depth: int | None = None


# (a position not over, a node budget) → its Value: the search stops within the budget, so the same
# position gets the same answer on any machine (grader/losing_move.py). Any: the ruleset's own State subclass
Evaluator = Callable[[Any, int], Value]


@dataclass(frozen=True)
class Ruleset:
    """Everything the grader needs to know about one game: every extension point is a field here
    (none is looked up by name), and `rulesets.load` finds the record as `RULESET` of the game's
    package. Optional fields default to "the game does not offer it"."""

    name: str
    title: str
    version: str
    game: type[Game]
    shim: str                          # module imported inside the sandbox (see docs/ARCHITECTURE.md)
    entry: str                         # the submission's entry file, e.g. "player.py"
    defaults: Defaults
    players: dict[str, Path]           # built-in players: name -> folder with the entry file
    probes: Callable[..., list] | None = None   # see rulesets/<name>/probes.py
    description: str = ""
    blunder: Callable[..., bool | None] | None = None   # (state, move) → an obviously losing move? (collusion check)
    replies: dict = field(default_factory=dict)  # RPC -> rulesets.replies.Shape of its reply
    java: JavaApi | None = None      # Java players too: the course's Java API (sandbox/java.py)
    lines: type[LineAdapter] | None = None   # programs in any language: the line protocol's manager-side adapter
    console: ConsoleProgram | None = None    # a command-line program the course asked for (grader/console_driver.py)
    move_call: str = "move function"   # what the student's code that picks a move is called, for sentences
    requirements: Path | None = None   # the course's packages (a requirements file): grader/course_env.py
    python: tuple[int, int] | None = None   # the Python the course ran, where it fixed one: a submission whose
    #                                         grammar that Python refuses fails its interface (python_source.too_new)
    board_script: Path | None = None   # positions drawn in the browser's replay viewer (see grader/report.py)
    # the start position (of new_state(seed)) in the compact form the board script reads, where the
    # script cannot derive it from the seed and the params (Python's RNG drew it): stored in each record
    board_start: Callable[[Any], JSON] | None = None
    # replies the shim itself makes, per RPC (each fits `replies`): the cross-game tests fuzz from them
    sample_replies: dict[str, tuple[JSON, ...]] = field(default_factory=dict)
    # further replies `parse_move` and the probes' checks read that the shim never makes (other forms)
    loose_replies: dict[str, tuple[JSON, ...]] = field(default_factory=dict)
    # how the shim sends an engine move, where not as State.move_to_json (the course's transport text)
    move_reply: Callable[[Move], JSON] | None = None
    evaluator: Evaluator | None = None   # positions valued, for the move that lost a game (grader/losing_move.py)


@dataclass(frozen=True)
class Referee:
    """A game whose rules are a trusted program in any language, the course's own referee: built
    as a player program is (grader/player_kinds.py), run in its own box and kept alive for a game,
    speaking JSON lines (grader/referee.py, docs/NEW_GAME.md "A referee in any language"). Its
    failures are the grader's, never a student's."""

    sources: Path                      # the folder of its sources (Main.java, referee.cpp, a script ...)
    title: str                         # how sentences name it: "the Connect Four referee (Java)"
    params: dict = field(default_factory=dict)   # the parameters of a new game; config may set these keys
    memory_mb: int = 1000
    start_s: float = 60.0              # starting it (a JVM) and its first answer
    call_s: float = 10.0               # each later answer


@dataclass(frozen=True)
class JavaApi:
    """A ruleset whose course was taught in Java: players are `<package>/<entry>` compiled against
    this project's own classes of the course API (`sources`, package folders below it), run by
    the Java shim with `bridge` (a grader_shim.Handler in those sources) answering the RPCs."""

    sources: Path
    bridge: str
    package: str = "student_player"
    entry: str = "StudentPlayer.java"
    move_call: str = "chooseMove"


@dataclass
class Mismatch:
    """Why one probe case failed: a sentence, and moves to mark on the picture."""

    message: str
    marks: dict[str, list] = field(default_factory=dict)   # e.g. {"missing": [...], "extra": [...]}


@dataclass
class ProbeCase:
    """One position a probe asks the submission about.

    The validator sends RPC `method` with JSON `args` to the submission's shim and hands the
    reply to `check`, which returns None when the answer is right. With `fresh=True` the case
    runs in a new player process after the `setup` RPCs (for players that keep their own board
    and must be brought to the position by replaying moves). The args of a setup RPC or of the
    case's own may be a function of the case's replies so far (a list, oldest first) returning
    the JSON args: an opponent that answers the player's moves is played here, in the grader.
    With `reuse=True` the case is asked of the player instance an earlier case of the stage built
    (its `setup` is skipped), as later turns of a game are: only an instance's first call gets the
    course's first-move allowance, so a player that uses it is checked in the time of a game, not
    of one first move per position.
    `game` names the game the position belongs to: an instance is reused only within one game (one
    board size, one seat, positions in the order that game produced them), as a course's agent
    instance lived for one game; a case of another game starts a fresh instance.
    A wrong answer, an exception or a stop (late, killed) from a reused instance is asked again of
    a fresh one and counts only if that one fails too, so a player that keeps state between turns
    is never failed by the reuse.
    With `judge_all=True` the case is a whole game: an args function may return None (the game is
    over before that call, so it and the rest are not made) and `check` is given the list of every
    reply of the case, oldest first (its setup calls' included), instead of the last one.
    Fresh cases that share a `line` are one game cut at different lengths (each one's calls are the
    first calls of the longest one's): the validator plays the longest once and judges each shorter
    one on the replies to its own calls (grader/probe_lines.py), so a position costs no game of its own.
    """

    label: str
    state: State
    method: str
    args: dict | Callable[[list], dict | None]
    check: Callable[[JSON], Mismatch | None]
    fresh: bool = False
    setup: list[tuple[str, dict | Callable[[list], dict | None]]] = field(default_factory=list)
    reuse: bool = False
    game: str | None = None
    judge_all: bool = False
    line: str | None = None

    @staticmethod
    def resolve(args: dict | Callable[[list], dict | None], replies: list) -> dict | None:
        """The JSON args to send, given the replies to the case's earlier RPCs (None: no more calls)."""
        return args(replies) if callable(args) else args


@dataclass
class Probe:
    """A correctness stage: many cases, points for getting them right.

    scoring "all": full points only if every case is right (BRUTE's generator checks);
    scoring "share": points in proportion to the cases that are right (UTA's search checks).
    required: the submission fails validation (and stays out of the league) if this stage fails.
    """

    name: str
    title: str
    points: float
    # cases(the assignment's game, the check's own seed): the seed (fresh per check, recorded, replayable)
    # draws the positions, so a check's positions cannot be told from a game's (see `played_turns`)
    cases: Callable[[Any, int], list[ProbeCase]]     # Any: the ruleset's own Game subclass
    required: bool = True
    scoring: str = "all"
    informational: bool = False   # reported, never counted
    # the cases ask for a game's moves, where the course's client played a random move for a player that
    # returned nothing or raised (policy on_none / on_error "random"): such an answer counts as that move
    course_moves: bool = False
    # the check of one turn a game reached (its state -> a check of the reply), for a stage that judges moves:
    # every turn the player plays in the check's smoke games is then judged as one of its positions, so a
    # player that answers the probes and fails in games fails this stage (grader/validation.py)
    turn_check: Callable[[Any], Callable[[JSON], Mismatch | None]] | None = None


Told = list[dict]          # the opponent's moves since a seat's previous turn, as a game's `last` tells them
PLAYOUT_PLIES = 100        # a played position is drawn from the first this many plies of a random game


def played_turns(game: Game, seed: int, count: int, turns: int = 3, longest: int = PLAYOUT_PLIES
                 ) -> list[list[tuple[State, Told]]]:
    """Positions as a league game reaches them, drawn from `seed` (a check's own: never the same twice).

    Each game starts at `game.new_state` (the assignment's own game, so its sizes and starts are the
    league's) with a seed drawn from `seed`, goes on by random play (`State.random_move`) to a ply
    drawn from [0, longest) or, when it ends sooner, to a position drawn from those it went through;
    then one seat's consecutive turns are taken (at most `turns`), each with what a game tells the
    seat before it. `count` turns in all, games in order, each game a list of its turns in order."""
    rng = random.Random(seed)
    out: list[list[tuple[State, Told]]] = []
    while (left := count - sum(map(len, out))) > 0:
        state = game.new_state(rng.randrange(2**48))
        if state.is_over:
            continue
        line = [state.copy()]
        target = rng.randrange(longest)
        while state.ply < target and not state.is_over:
            state.play(state.random_move(rng))
            line.append(state.copy())
        if state.is_over:
            state = line[rng.randrange(len(line) - 1)].copy()
        seat = state.to_move
        played: list[tuple[State, Told]] = []
        told: Told = []
        while not state.is_over:
            if state.to_move == seat:
                played.append((state.copy(), told))
                told = []
                if len(played) == min(turns, left):
                    break
            move, mover = state.random_move(rng), state.to_move
            state.play(move)
            if mover != seat:
                told.append({"seat": mover, "move": state.move_to_json(move)})
        out.append(played)
    return out


def check_arity(owner: Any, name: str, nargs: int) -> str | None:
    """A plain sentence if `owner.name` is missing or does not take `nargs` positional arguments.

    `owner` is a class (name "__init__" checks the constructor) or a module (a function).
    Arguments are counted without `self`, the way the assignment texts count them.
    """
    fn = getattr(owner, name, None)
    label = "the constructor" if name == "__init__" else f"{name}()"
    if fn is None:
        return f"{label} is missing."
    if not callable(fn):
        return f"{name} is not a function."
    drop_self = False
    if isinstance(owner, type):
        if name == "__init__":
            fn = owner
        else:
            drop_self = isinstance(inspect.getattr_static(owner, name, None), type(lambda: 0))
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    if drop_self and params:
        params = params[1:]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if not (len(required) <= nargs <= len(positional)):
        want = "no arguments" if nargs == 0 else f"{nargs} argument{'s' if nargs != 1 else ''}"
        got = ", ".join(p.name for p in positional) or "none"
        return f"{label} must take {want} besides self, but takes ({got})."
    return None
