"""The checks every game must pass, in one place: the cross-game tests run them over every
discovered ruleset (tests/rulesets/test_contract.py and friends) and `grader selftest NAME` runs
them for an instructor's own game, each saying what it proves. A check raises `Broken` with one
sentence naming what is wrong, and returns when the game passes; `Skipped` when this host cannot
run it (and why)."""
from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rulesets
from rulesets.base import BadParams, IllegalMove, Outcome, Policy, Ruleset
from rulesets.values import short_repr
from sandbox import protections

from . import board_replay, engine_reach, reply_fuzz
from .assignment import resolve
from .config import AssignmentConfig
from .match import play_game
from .submissions import builtin

PLAYOUT_SEEDS = (1, 2, 3)
MAX_PLIES = 5000
GARBAGE = (None, 12345, "nonsense", {"invalid": "the player returned a dict"}, [[["x"]]])


class Broken(AssertionError):
    """The game breaks a promise the grader relies on: one sentence saying which and where."""


class Skipped(Exception):
    """This host cannot run the check (a protection missing): the sentence says which."""


def expect(holds: bool, sentence: str) -> None:
    if not holds:
        raise Broken(sentence)


# ------------------------------------------------------------------ the engine contract (rulesets/base.py)

def descriptor(rs: Ruleset) -> None:
    """The record's own facts hold: a shim that imports, built-ins with their entry file, sane limits."""
    expect(rs.name in rulesets.names(), f"{rs.name}: no game of that name is discovered ({rulesets.WHERE}).")
    package = rulesets.module_of(rs.name)
    expect(rs.shim.startswith(f"{package}."), f"{rs.name}: RULESET.shim {rs.shim!r} is not a module of the game's "
                                              f"package {package}.")
    expect(rs.entry.endswith(".py"), f"{rs.name}: RULESET.entry {rs.entry!r} is not a Python file.")
    for name, folder in rs.players.items():
        expect((Path(folder) / rs.entry).is_file(), f"{rs.name}: the built-in player {name!r} has no "
                                                    f"{rs.entry} in {folder}.")
    d = rs.defaults
    expect(d.move_s > 0 and d.first_move_s >= d.move_s and d.memory_mb > 0,
           f"{rs.name}: RULESET.defaults must give move_s > 0, first_move_s >= move_s and memory_mb > 0 "
           f"(they are {d.move_s}, {d.first_move_s}, {d.memory_mb}).")


def playouts(rs: Ruleset, seeds: tuple[int, ...] = PLAYOUT_SEEDS) -> None:
    """Random games end with an outcome; every move survives the JSON round trip the store and replays
    rely on, and every position survives to_json/state_from_json."""
    game = rs.game()
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        move: Any = None
        while not state.is_over:
            where = f"{rs.name}: in the random game of seed {seed} at ply {state.ply}"
            expect(state.to_move in (0, 1), f"{where}, to_move is {state.to_move!r}, not 0 or 1.")
            moves = state.legal_moves()
            expect(bool(moves), f"{where}, the game is not over yet legal_moves() is empty.")
            move = rng.choice(moves)
            wire = json.loads(json.dumps(state.move_to_json(move)))
            try:
                back = state.parse_move(wire)
            except IllegalMove as exc:
                raise Broken(f"{where}, the legal move {short_repr(move)} sent as {short_repr(wire)} is refused by "
                             f"parse_move: {exc}") from None
            expect(back == move, f"{where}, the move {short_repr(move)} sent as {short_repr(wire)} is read back as "
                                 f"another move, {short_repr(back)}.")
            expect(isinstance(state.move_text(move), str), f"{where}, move_text() did not give a str.")
            copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
            expect(copy.legal_moves() == moves, f"{where}, the position rebuilt from to_json() has other legal moves.")
            state.play(move)
            expect(state.ply < MAX_PLIES, f"{where}, the game has not ended after {MAX_PLIES} plies.")
        out = state.outcome
        where = f"{rs.name}: the random game of seed {seed}"
        expect(state.to_move is None, f"{where} is over yet to_move is {state.to_move!r}, not None.")
        expect(isinstance(out, Outcome), f"{where} is over yet its outcome is not an Outcome.")
        assert isinstance(out, Outcome)
        expect(all(p in (0, 0.5, 1) for p in out.points), f"{where} gave points {out.points}, not 0, 0.5 or 1 each.")
        expect(bool(out.reason and out.detail), f"{where} ended without a reason and a sentence (Outcome.detail).")
        try:
            state.play(move)
        except IllegalMove:
            continue
        raise Broken(f"{where} is over, yet play() accepted another move without IllegalMove.")


def seeded_start(rs: Ruleset) -> None:
    """The start position comes from the seed alone, so replays and seat-swapped games are the same game."""
    game = rs.game()
    expect(game.new_state(42).to_json() == game.new_state(42).to_json(),
           f"{rs.name}: new_state(42) gave two different start positions; draw every random choice from the seed.")


def copy_is_independent(rs: Ruleset) -> None:
    state = rs.game().new_state(5)
    before = state.to_json()
    branch = state.copy()
    branch.play(branch.legal_moves()[0])
    expect(state.to_json() == before, f"{rs.name}: playing a move on a copy() changed the original position.")


def garbage_refused(rs: Ruleset) -> None:
    """Anything that is no move is refused by parse_move with one sentence, a shim's sentence as it is."""
    state = rs.game().new_state(3)
    for garbage in GARBAGE:
        try:
            state.parse_move(garbage)
        except IllegalMove as exc:
            expect(bool(str(exc)) and "\n" not in str(exc), f"{rs.name}: parse_move({short_repr(garbage)}) refused "
                                                            f"it without one line of text.")
            if isinstance(garbage, dict):
                expect("returned a dict" in str(exc), f"{rs.name}: parse_move of a shim's {{'invalid': sentence}} "
                                                      f"did not pass the sentence on (call rulesets.base.refuse).")
            continue
        raise Broken(f"{rs.name}: parse_move({short_repr(garbage)}) accepted it as a move; it must raise IllegalMove.")


def pictures(rs: Ruleset) -> None:
    """Positions draw as text and as a self-contained SVG, with marked moves too."""
    state = rs.game().new_state(7)
    text = state.render_text()
    expect(isinstance(text, str) and bool(text.strip()), f"{rs.name}: render_text() gave no text.")
    marked: list[dict[str, Iterable[Any]] | None] = [None, {"extra": [state.legal_moves()[0]]}]
    for marks in marked:
        svg = state.render_svg(marks)
        expect(svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>"),
               f"{rs.name}: render_svg({marks!r}) is not one <svg> element.")
        expect("http://" not in svg.replace("http://www.w3.org", "") and "https://" not in svg,
               f"{rs.name}: render_svg() links to the network; the pictures must be self-contained.")
        expect(isinstance(state.render_text(marks), str), f"{rs.name}: render_text({marks!r}) gave no str.")


def random_substitute_is_legal(rs: Ruleset) -> None:
    """The move the "random" failure rule plays for a failing player is legal."""
    state = rs.game().new_state(11)
    rng = random.Random(0)
    for _ in range(20):
        if state.is_over:
            break
        move = state.random_move(rng)
        expect(move in state.legal_moves(), f"{rs.name}: random_move() gave {short_repr(move)}, not a legal move.")
        state.play(move)


def bad_params_refused(rs: Ruleset) -> None:
    try:
        rs.game(this_parameter_does_not_exist=1)
    except BadParams as exc:
        expect(bool(str(exc)) and "\n" not in str(exc), f"{rs.name}: BadParams without one line of text.")
        return
    raise Broken(f"{rs.name}: Game.check_params accepted an unknown parameter; raise BadParams with a sentence.")


def failure_rules(rs: Ruleset) -> None:
    """The course's failure rules are stated, each one a rule the match can apply, and the random move
    the "random" rule plays is legal."""
    policy = rs.defaults.policy
    expect(isinstance(policy, Policy), f"{rs.name}: RULESET.defaults.policy is not a rulesets.base.Policy.")
    for key in ("on_late", "on_illegal", "on_error", "on_none"):
        expect(getattr(policy, key) in Policy.ACTIONS, f"{rs.name}: the failure rule {key} is "
                                                       f"{getattr(policy, key)!r}, not one of {', '.join(Policy.ACTIONS)}.")
    random_substitute_is_legal(rs)


# ------------------------------------------------------------------ the board script

def board_declared(rs: Ruleset) -> None:
    """A board.js the record does not name would never be drawn; a named one that is missing would
    break every replay."""
    folder = Path(sys.modules[rulesets.module_of(rs.name)].__file__ or "").parent
    if rs.board_script is not None:
        expect(rs.board_script.is_file(), f"{rs.name}: RULESET.board_script names {rs.board_script}, which is missing.")
    else:
        expect(not (folder / "board.js").is_file(), f"{rs.name}: has a board.js that RULESET.board_script does not name.")


def board_drawn(rs: Ruleset) -> None:
    """The replay viewer's pictures, drawn by the board script in Chromium, are the engine's."""
    if rs.board_script is None:
        return                      # the site stores the engine's own pictures: nothing to compare
    why = board_replay.unavailable()
    if why is not None:
        raise Skipped(why)
    with tempfile.TemporaryDirectory(prefix="selftest-") as scratch, board_replay.chromium() as browser:
        found = board_replay.board_differs(rs, Path(scratch), browser)
    expect(found is None, f"{rs.name}: {found}")


# ------------------------------------------------------------------ real sandboxed players

def reproducible(rs: Ruleset, params: dict | None = None, where: Path | None = None, seed: int = 7) -> None:
    """The random built-in against itself with one seed plays the same game twice pre-forked and once
    spawned: a stored game replays from its seed."""
    if "random" not in rs.players:
        raise Broken(f"{rs.name}: RULESET.players has no 'random' built-in to play the seeded games with.")
    with tempfile.TemporaryDirectory(prefix="selftest-") as scratch:
        moves = []
        for prefork in (True, True, False):
            a = resolve("selftest", AssignmentConfig(ruleset=rs.name, submissions=".", game=params or {},
                                                     league={"prefork": prefork}), where or Path(scratch))
            rnd = builtin(a.ruleset, "random")
            result = play_game(a, rnd, rnd, seed=seed)
            expect(result.infra_error is None and bool(result.moves),
                   f"{rs.name}: the random built-in's game of seed {seed} did not finish: {result.detail}")
            moves.append(result.moves)
    expect(moves[0] == moves[1] == moves[2], f"{rs.name}: the game of seed {seed} between the same players went "
                                             f"differently when played again; draw every random choice from the seed.")


def out_of_reach(rs: Ruleset, pool=None) -> None:
    """A player of this game that attacks by import, reading, walking objects and sys.modules reaches
    none of the engine, probes, built-ins or grader; the shim itself loads none of them."""
    why = engine_reach.shim_loads_no_reference_code(rs)
    expect(why is None, why or "")
    kinds = [k for k in engine_reach.KINDS if k != "read" or not protections().get("landlock", "missing").startswith("missing")]
    with tempfile.TemporaryDirectory(prefix="selftest-") as scratch:
        for kind in kinds:
            result, _ = engine_reach.play_one_move(rs, engine_reach.hostile(Path(scratch), rs, kind), pool)
            found = engine_reach.reached(result, kind)
            expect(found is None, f"{rs.name}: {found}")
    if "read" not in kinds:
        raise Skipped("the attacks by import, walking and sys.modules found nothing; the attack by reading was not "
                      "run, as this host has no Landlock")


def hostile_replies(rs: Ruleset) -> None:
    """No reply of the declared shapes, grown from the shim's sample replies or drawn from the shapes,
    makes the rules' code raise; the shim's own replies fit the shapes."""
    for step in (reply_fuzz.own_replies_fit, reply_fuzz.fuzz_from_samples, reply_fuzz.fuzz_from_shapes):
        try:
            step(rs)
        except reply_fuzz.Raised as exc:
            raise Broken(str(exc)) from None


@dataclass(frozen=True)
class Check:
    name: str
    proves: str                         # what passing it proves, for the instructor
    run: Callable[[Ruleset], None]
    slow: bool = False                  # runs sandboxed players or a browser (seconds, not milliseconds)


CHECKS: tuple[Check, ...] = (
    Check("contract", "the record's shim, built-ins and limits are in place", descriptor),
    Check("playouts", "random games end with an outcome, and moves and positions survive JSON (store, replays)",
          playouts),
    Check("seeded start", "a seed gives the same start position every time", seeded_start),
    Check("copies", "a copy of a position can be played without changing the original", copy_is_independent),
    Check("garbage", "anything that is no move is refused with one sentence", garbage_refused),
    Check("pictures", "positions draw as text and as a self-contained SVG", pictures),
    Check("bad parameters", "a config's unknown game parameter is refused with one sentence", bad_params_refused),
    Check("failure rules", "every failure rule is stated and one the match applies, and its random move is legal",
          failure_rules),
    Check("hostile replies", "no reply a player can send in the declared shapes makes the rules' code raise",
          hostile_replies),
    Check("board script", "a board.js is declared exactly where one exists", board_declared),
    Check("board drawing", "the board script draws every position of random games as the engine's render_svg does",
          board_drawn, slow=True),
    Check("reproducible", "a seeded game between the random built-ins replays move for move, pre-forked and spawned",
          reproducible, slow=True),
    Check("out of reach", "a sandboxed player cannot import, read or walk to the engine, probes or built-ins",
          out_of_reach, slow=True),
)


@dataclass(frozen=True)
class CheckResult:
    name: str
    proves: str
    status: str                          # "passed", "failed" or "skipped"
    sentence: str = ""                   # why it failed or was skipped


def run(rs: Ruleset, checks: tuple[Check, ...] = CHECKS) -> list[CheckResult]:
    """Every check on game `rs`; a check whose code raises anything else failed, with what it raised."""
    out = []
    for check in checks:
        try:
            check.run(rs)
        except Broken as exc:
            out.append(CheckResult(check.name, check.proves, "failed", str(exc)))
        except Skipped as exc:
            out.append(CheckResult(check.name, check.proves, "skipped", str(exc)))
        except Exception as exc:
            out.append(CheckResult(check.name, check.proves, "failed",
                                   f"{rs.name}: the game's code raised {type(exc).__name__}: {short_repr(str(exc), 300)}"))
        else:
            out.append(CheckResult(check.name, check.proves, "passed"))
    return out
