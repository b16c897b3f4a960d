"""Validating one submission: the stages a student sees before the league (BRUTE's SemBasic).

1. interface (a gate, 0 points): the entry file loads in time and has the course's API;
2. the ruleset's correctness probes (points per config), each over many positions;
3. smoke games against a built-in player with seats swapped (a gate, 0 points), so a player that
   passes the probes but crashes or times out when actually playing hears it now; every turn it plays
   there is judged as a probe position too, in the stage that judges moves (`Probe.turn_check`).

Every call goes through the sandbox with the assignment's limits, and every reply is checked
against its RPC's shape before a probe's check reads it (grader/replies.py); whatever the player
does ends as a failed check with one sentence, never as an exception here. As in a game, one
first-move allowance covers starting a process, its setup calls and its first probe call.
"""
from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import sandbox
from rulesets.base import IllegalMove, NoMove, Policy, Probe, ProbeCase, refuse
from sandbox import Verdict, host
from sandbox.seeding import seat_seed

from . import bounded, python_source, seeds
from .assignment import Assignment
from .builds import build
from .console_driver import check_console, console_kind, entry_file
from .losing_move import losing_move
from .match import Allowance, GameResult, PlayerFactory, play_game, player_factory
from .native_console import console_question
from .player_kinds import KINDS, RunJob, kind_of, language
from .players import player_kwargs
from .probe_lines import OffTape, Tape
from .replies import ask, read
from .submissions import Submission, builtin

MAX_STOPPED = 3         # a probe stage gives up on a player stopped in more positions than this
MAX_SECOND_OPINIONS = 8  # fresh instances a stage starts to re-ask reused ones (each may cost a first move)
INFRA_RETRIES = 2   # a smoke game or probe position the machine spoiled (an infra verdict) is played again, this often
CHECK_TURNS_RULE = ("every turn the player plays in a check's smoke games is judged as a probe position is, "
                    "in the stage that judges moves: a player that answers the probes and fails in games fails there")
CHECK_POSITIONS_RULE = ("a check's probe positions are drawn from its own fresh seed, reached by play in the "
                        "assignment's game; every door shows the seed, and `grader check --seed` replays it")


@dataclass
class Check:
    name: str
    title: str
    passed: bool
    points: float
    max_points: float
    message: str
    required: bool = True
    informational: bool = False
    picture: str | None = None
    svg: str | None = None
    cases: int = 0
    failed_cases: int = 0
    needs_human: bool = False       # the grader could not read the submission's output: a TA decides


@dataclass
class ValidationReport:
    submission: str
    passed: bool = False
    points: float = 0.0
    max_points: float = 0.0
    checks: list[Check] = field(default_factory=list)
    games: list[dict] = field(default_factory=list)
    sandbox: dict[str, str] = field(default_factory=dict)
    kind: str = "module"            # "program": a command-line program, graded alone, plays no games
    seed: int = 0                   # the check's seed (grader/seeds.py): `grader check --seed` replays it
    environment: str = ""           # the course environment's versions, one line (grader/course_env.py)

    def to_json(self) -> dict[str, Any]:
        return {"submission": self.submission, "kind": self.kind, "passed": self.passed, "points": self.points,
                "max_points": self.max_points, "checks": [asdict(c) for c in self.checks],
                "games": self.games, "sandbox": self.sandbox, "seed": self.seed, "environment": self.environment}

    @property
    def replay(self) -> str:
        """The sentence every door shows: the check's seed drew its positions and its luck, and replays them."""
        return (f"Seed {self.seed}: `grader check --seed {self.seed}` runs this check again "
                f"with the same positions and the same luck.")

    @property
    def failed_stage(self) -> str | None:
        for c in self.checks:
            if c.required and not c.informational and not c.passed:
                return c.name
        return None


def validate(assignment: Assignment, sub: Submission, factory: PlayerFactory | None = None,
             smoke: bool = True, on_stage=None, workers: int | None = None,
             seed: int | None = None) -> ValidationReport:
    """Run every stage on one staged submission; `on_stage(title)` is told as each stage starts.
    `workers`: how many fresh-process positions may run at once (default: one per core).
    `seed`: the check's seed (default: a fresh one, so no two checks share it); the report
    records it, and the same seed replays the same check."""
    on_stage = on_stage or (lambda title: None)

    if factory is None:
        factory = player_factory(assignment)
    real = getattr(factory, "func", factory) is sandbox.PlayerProcess
    report = ValidationReport(submission=sub.id, sandbox=sandbox.protections() if real else {},
                              seed=seeds.new_check_seed() if seed is None else seed)
    env = assignment.course_env()
    report.environment = env.header() if env is not None else ""
    probes = assignment.probes()
    report.max_points = sum(p.points for p in probes if not p.informational)
    if sub.problem or sub.staged is None:
        report.checks.append(Check("interface", "Interface", False, 0, 0, sub.problem or "not staged"))
        return _finish(report)

    try:
        kind = submission_kind(assignment, sub)
    except bounded.ReadRefused as exc:
        report.checks.append(Check("interface", "Interface", False, 0, 0, str(exc)))
        return _finish(report)
    if kind == "program":
        report.kind = "program"
        on_stage("The program, through its console")
        report.checks.append(_program(assignment, sub))
        report.max_points = report.checks[-1].max_points
        return _finish(report)
    if language(assignment.ruleset, sub.staged) != "python":
        on_stage("Compiling")
        compiled = _compile(assignment, sub)
        report.checks.append(compiled)
        if not compiled.passed:
            return _finish(report)
    on_stage("Interface")
    too_new = _course_python(assignment, sub)
    if too_new is not None:
        report.checks.append(Check("interface", "Interface", False, 0, 0, too_new))
        return _finish(report)
    probe_seed = probes_seed(report.seed)
    interface = _interface(assignment, sub, factory, probe_seed, report.sandbox)
    report.checks.append(interface)
    if not interface.passed:
        return _finish(report)
    tallies = []
    for probe in probes:
        on_stage(probe.title)
        tallies.append(_positions(assignment, sub, probe, factory, workers or cores(), probe_seed))
    smoked = None
    if smoke and assignment.config.validation.smoke_games > 0:
        on_stage("Smoke games")
        smoked, report.games, turns = _smoke(assignment, sub, factory, report.seed)
        for probe, tally in zip(probes, tallies, strict=True):
            _judge_turns(assignment, probe, turns, tally)      # a smoke game's turns are the stage's positions
    report.checks += [_probe_check(probe, tally) for probe, tally in zip(probes, tallies, strict=True)]
    if smoked is not None:
        report.checks.append(smoked)
    return _finish(report)


def probes_seed(check_seed: int) -> int:
    """The probe processes' seed, from the check's."""
    return seat_seed(seeds.CHECK_KEY, check_seed, "probes")


def cases_seed(check_seed: int, probe: str) -> int:
    """The seed that draws the positions of the probe named `probe`, from the check's: a fresh check
    asks fresh positions, and `grader check --seed` asks the same ones again."""
    return _drawing_seed(probes_seed(check_seed), probe)


def _drawing_seed(probes_seed: int, probe: str) -> int:
    return seat_seed(seeds.CHECK_KEY, probes_seed, f"{probe}/cases")


def submission_kind(assignment: Assignment, sub: Submission) -> str:
    """"module" or "program". With kind auto, a submission that defines the student API's function
    at its top level is a module; anything else is the interactive program (read, never run, here),
    as is a compiled program that prints questions for a person (grader/native_console.py).
    The entry file is read under bounds (grader/python_source.py): `bounded.ReadRefused` when it is too large."""
    kind = console_kind(assignment.ruleset)
    setting = assignment.config.validation.kind
    if kind is None:
        return "module"
    if setting != "auto":
        return setting
    if sub.staged is None:
        return "module"                     # not staged: the interface stage says so
    if console_question(sub.staged, kind_of(assignment.ruleset, sub.staged) or ""):
        return "program"                    # a compiled program with a console of its own
    entry = entry_file(kind, sub.staged)
    if entry is None:
        return "module"                     # the interface stage (or the build) says what is missing
    try:
        found = python_source.facts(sub.staged / entry)
    except OSError:
        return "module"
    if found is None:
        return "module"
    return "program" if kind.is_program(found) else "module"


def _program(assignment: Assignment, sub: Submission) -> Check:
    """The command-line program, driven through its stdin and stdout scenario by scenario."""
    settings = assignment.config.validation
    assert sub.staged is not None                  # validate() stops earlier for an unstaged one
    program = None
    native = kind_of(assignment.ruleset, sub.staged)
    if native in KINDS and KINDS[native].console is not None:    # a compiled console program the driver plays
        built = build(assignment, sub)
        if not built.ok or built.folder is None:
            kind = console_kind(assignment.ruleset)
            return Check("program", "The interactive program, played through its console", False, 0.0,
                         kind.points if kind is not None else 0.0, built.message, picture=built.compiler or None)
        console = KINDS[native].console
        assert console is not None
        program = console(RunJob(sub.staged, built.folder, assignment.memory_mb))
    rep = check_console(assignment.ruleset, sub.staged, assignment.limits(), settings.program_patterns,
                        settings.submission_patterns.get(sub.id), program)
    good = sum(s.passed for s in rep.scenarios)
    if rep.needs_human:
        unread = next(s for s in rep.scenarios if s.needs_human)
        message = (f"Needs a human: {unread.sentence[0].lower()}{unread.sentence[1:]} A TA reads the transcript; "
                   f"no points are recorded until then ({good} of {len(rep.scenarios)} scenarios passed).")
        return Check("program", "The interactive program, played through its console", False, 0.0, rep.max_points,
                     message, picture=unread.transcript[-3000:], cases=len(rep.scenarios),
                     failed_cases=len(rep.scenarios) - good, needs_human=True)
    failing = next((s for s in rep.scenarios if not s.passed and s.transcript), None)
    message = (f"All {good} scenarios passed." if rep.passed else
               f"{good} of {len(rep.scenarios)} scenarios passed. " + " ".join(rep.lines[:3]))
    return Check("program", "The interactive program, played through its console", rep.passed, rep.points,
                 rep.max_points, message, picture=failing.transcript[-3000:] if failing else None,
                 cases=len(rep.scenarios), failed_cases=len(rep.scenarios) - good)


def _compile(assignment: Assignment, sub: Submission) -> Check:
    """A Java player's sources compiled against the course API, or a program built (a gate, 0 points)."""
    built = build(assignment, sub)
    if built.kind == "java":
        entry = assignment.ruleset.java.entry if assignment.ruleset.java else ""
        message = built.message if not built.ok else f"{entry} compiles ({built.message})."
        return Check("compile", "Compilation (javac)", built.ok, 0, 0, message, picture=built.compiler or None)
    return Check("compile", f"Build ({built.kind or 'program'})", built.ok, 0, 0,
                 built.message if not built.ok else f"The program was {built.message}.",
                 picture=built.compiler or None)


def _course_python(assignment: Assignment, sub: Submission) -> str | None:
    """Why the course's own Python (where it fixed one) would have refused this Python submission, or None."""
    version = assignment.ruleset.python
    if version is None or sub.staged is None or language(assignment.ruleset, sub.staged) != "python":
        return None
    try:
        return python_source.too_new(sub.staged, version)
    except bounded.ReadRefused as exc:
        return str(exc)
    except OSError:
        return None                  # the interface stage says what cannot be read


def _finish(report: ValidationReport) -> ValidationReport:
    counted = [c for c in report.checks if not c.informational]
    report.points = round(sum(c.points for c in counted), 6)
    report.passed = all(c.passed for c in counted if c.required) and bool(counted)
    return report


def _start(assignment: Assignment, sub: Submission, factory: PlayerFactory, seed: int):
    proc = factory(**player_kwargs(assignment, sub), seed=seed)
    return proc, proc.start()


def _interface(assignment: Assignment, sub: Submission, factory: PlayerFactory, seed: int,
               held: dict[str, str]) -> Check:
    """The first player started: `held` (the host's list) then says what its ready report said held."""
    entry = assignment.ruleset.entry
    proc, res = _start(assignment, sub, factory, seed)
    try:
        if not res.ok:
            why = _load_failure(entry, res, assignment.first_move_s)
            return Check("interface", "Interface", False, 0, 0, why)
        res = ask(proc, assignment.ruleset.replies, "interface", {}, soft=assignment.first_move_s)   # a first call
        if not res.ok:
            return Check("interface", "Interface", False, 0, 0, f"Checking the interface failed: {res.message}")
        problems = res.value or []
        if problems:
            return Check("interface", "Interface", False, 0, 0, " ".join(str(p) for p in problems))
        kind = language(assignment.ruleset, sub.staged)
        java_entry = assignment.ruleset.java.entry if assignment.ruleset.java is not None else ""
        ok = {"java": f"{java_entry} loads and has every required method.",
              "program": "The program starts."}.get(kind, f"{entry} loads and has every required method.")
        return Check("interface", "Interface", True, 0, 0, ok)
    finally:
        closed = proc.close()
        if held:
            held.update(host.as_held(held, getattr(closed, "protections", None) or {}))


def _load_failure(entry: str, res, limit: float) -> str:
    if res.verdict in (Verdict.KILLED, Verdict.LATE):
        why = res.message[:1].lower() + res.message[1:].rstrip(".")
        return f"{entry} did not finish loading within {limit:g} s ({why})." if why else \
            f"{entry} did not finish loading within {limit:g} s."
    if res.verdict is Verdict.ERROR:
        return f"{entry} could not be loaded: {res.message}"
    return f"{entry} could not be loaded: {res.message or res.verdict.value}"


SETUP = "setup"          # the RPC that builds a fresh player instance (docs/ARCHITECTURE.md, "The shim")


class _Asker:
    """Asks probe cases of one player instance at a time, with the course's timing: as in a game,
    one first-move allowance covers starting a process, its `setup` calls and its first call that
    asks for a move or an answer; every later call gets the per-move limit."""

    def __init__(self, assignment: Assignment, sub: Submission, factory: PlayerFactory, seed: int) -> None:
        self.assignment, self.sub, self.factory, self.seed = assignment, sub, factory, seed
        self.shapes = assignment.ruleset.replies
        self.proc: Any = None
        self.allowance: Allowance | None = None     # the process's first-move allowance, until its first move
        self.answered = 0           # cases this instance has answered (>0: asking it again is a reuse)
        self.game: str | None = None   # the game this instance plays (ProbeCase.game): it never sees another
        self.stopped = 0            # positions that ended with the player killed, crashed or unable to start
        self.infra = False          # the machine killed this position's player (asked again)
        self.course_moves = False   # Probe.course_moves: a failure the course replaced counts as its random move
        self.replaced: list[tuple[str, str]] = []   # (the position, why) where it did

    def ask(self, case: ProbeCase, fresh: bool = False) -> tuple[str | None, dict, bool]:
        """(None or why the answer is wrong, marks, whether a reused instance failed in a way a
        fresh one might not: a wrong answer, an exception, a late answer or a stop). A position whose player the
        machine killed (Verdict.INFRA) is asked again of a fresh process, up to INFRA_RETRIES times."""
        for attempt in range(INFRA_RETRIES + 1):
            self.infra = False
            got = self._ask_once(case, fresh or attempt > 0)
            if not self.infra:
                break
        return got

    def _ask_once(self, case: ProbeCase, fresh: bool) -> tuple[str | None, dict, bool]:
        if self.proc is not None and (fresh or case.fresh or not self.proc.alive or case.game != self.game):
            self.close()
        if self.proc is None:
            self.game = case.game
            self.proc, res = _start(self.assignment, self.sub, self.factory, self.seed)
            self.allowance = Allowance(self.assignment.first_move_s, self.assignment.limits())
            if self.assignment.load_s is None:           # else loading had its own limit
                self.allowance.spend(res)
            self.answered = 0
            self.infra |= res.verdict is Verdict.INFRA
            if not res.ok:
                self.stopped += not self.infra
                self.close()
                return f"the player did not start: {res.message}", {}, False
        reused = case.reuse and self.answered > 0
        replies: list = []
        if not reused:
            for method, args in case.setup:
                sent = case.resolve(args, replies)
                if sent is None:                 # the case's game is over: no more calls, as in a game
                    return self._judge(case, replies, reused)
                res = self._call(method, self._as_in_a_game(method, sent))
                if not res.verdict.answered:
                    return self._after_failure(case, f"{method} failed: {res.message}"), {}, False
                replies.append(res.value)
        sent = case.resolve(case.args, replies)
        if sent is None:
            return self._judge(case, replies, reused)
        res = self._call(case.method, sent)
        self.answered += 1
        verdict = judged(case, res, replies, self.assignment.policy if self.course_moves else None)
        if verdict.how == REPLACED:
            self.replaced.append((case.label, verdict.why or ""))   # the course's random move: a legal one
            return None, {}, False
        if verdict.how == FAILED:
            return self._after_failure(case, verdict.why or ""), {}, reused and res.verdict is not Verdict.PROTOCOL
        return verdict.why, verdict.marks, reused and verdict.how == ANSWERED

    @staticmethod
    def _judge(case: ProbeCase, replies: list, reused: bool) -> tuple[str | None, dict, bool]:
        """`_checked`, in the form `ask` returns."""
        verdict = _checked(case, replies)
        return verdict.why, verdict.marks, reused and verdict.how == ANSWERED

    def _as_in_a_game(self, method: str, args: dict) -> dict:
        """A probe's setup says what a game's says (the player's name, the assignment's options):
        a player cannot tell a check from a game by its calls."""
        if method == SETUP:
            return {**args, "name": self.sub.display_name, "options": self.assignment.config.options}
        return args

    def _call(self, method: str, args: dict):
        res = _timed_ask(self.proc, self.shapes, method, args, self.allowance)
        self.infra |= res.verdict is Verdict.INFRA
        if method != SETUP:
            self.allowance = None
        return res

    def _after_failure(self, case: ProbeCase, why: str) -> str:
        self.stopped += not self.proc.alive and not self.infra
        if case.fresh or self.infra:
            self.close()
        return why

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


ANSWERED, UNREADABLE, REPLACED, FAILED = "answered", "unreadable", "replaced", "failed"


@dataclass(frozen=True)
class Judged:
    """How one answer to a probe position is judged. `how`: ANSWERED (the case's check read it: `why`
    it is wrong, or None), UNREADABLE (its reply could not be read: `why`), REPLACED (the course's client
    played a random move for it, which counts: `why` says what the player did) or FAILED (the call
    failed: late, stopped, an exception the course did not replace: `why`)."""

    why: str | None
    how: str
    marks: dict = field(default_factory=dict)


def judged(case: ProbeCase, res, replies: list, course_policy: Policy | None) -> Judged:
    """The one judgement of a probe position, from the player's answer `res` after its `replies` to
    the case's setup: for the probe stage's own positions and for the turns of the check's smoke
    games alike. `course_policy`: the assignment's policy where the stage follows the course's random
    moves (`Probe.course_moves`), else None."""
    if course_policy is not None and course_plays_random(course_policy, res):
        did = _call_failure(case.method, res) if res.verdict is not Verdict.OK else f"{case.method}() returned no move."
        return Judged(did, REPLACED)
    if res.verdict is Verdict.OK:
        return _checked(case, [*replies, res.value])
    return Judged(_call_failure(case.method, res), FAILED)


def _checked(case: ProbeCase, replies: list) -> Judged:
    """The case's check on its last reply, or on all of them (`ProbeCase.judge_all`)."""
    mismatch, unreadable = read(case.check, replies if case.judge_all else replies[-1])
    if unreadable:
        return Judged(unreadable, UNREADABLE)
    return Judged(None, ANSWERED) if mismatch is None else Judged(mismatch.message, ANSWERED, mismatch.marks)


def course_plays_random(policy: Policy, res) -> bool:
    """Whether the course's client played a random move for this answer: an exception or no move
    (None, Java's null) where the assignment's policy for it is a random move."""
    if res.verdict is Verdict.ERROR:
        key = "on_uncaught" if res.java_error and policy.on_uncaught else "on_error"
    elif res.verdict is Verdict.OK and returned_nothing(res.value):
        key = "on_none"
    else:
        return False
    return getattr(policy, key) in ("random", "random_rest")


def returned_nothing(reply: Any) -> bool:
    """Whether a shim's reply says the player's code returned nothing (rulesets.base.invalid)."""
    try:
        refuse(reply)
    except NoMove:
        return True
    except IllegalMove:
        return False
    return False


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                      # macOS, Windows
        return max(1, os.cpu_count() or 1)


@dataclass
class _Tally:
    """What one probe stage found: its own positions, then the smoke games' turns it judged (`_judge_turns`)."""

    positions: int
    failed: list[tuple[ProbeCase, str, dict]]     # its positions' in case order, then the turns'
    replaced: list[tuple[str, str]]               # (where, what the player did): the course's random move stood for it
    fatal_note: str = ""
    turns: int = 0                                # smoke-game turns judged
    wrong_turns: int = 0


def _probe(assignment: Assignment, sub: Submission, probe: Probe, factory: PlayerFactory, workers: int = 1,
           seed: int = 0) -> Check:
    """One probe stage on its own positions alone (no smoke game's turns)."""
    return _probe_check(probe, _positions(assignment, sub, probe, factory, workers, seed))


def _positions(assignment: Assignment, sub: Submission, probe: Probe, factory: PlayerFactory, workers: int = 1,
               seed: int = 0) -> _Tally:
    """One probe stage's positions: its players' processes seeded with `seed` (`probes_seed`), its
    positions drawn from a seed made from it."""
    cases = probe.cases(assignment.game, _drawing_seed(seed, probe.name))
    asker = _Asker(assignment, sub, factory, seed)
    asker.course_moves = probe.course_moves
    failed: list[tuple[ProbeCase, str, dict]] = []
    fatal_note = ""
    confirmed, opinions = False, 0
    try:
        if len(cases) > 1 and all(c.fresh for c in cases):
            failed, fatal_note = _fresh_cases(assignment, sub, cases, factory, workers, seed, asker)
            cases_left: list[ProbeCase] = []
        else:
            cases_left = cases
        for n, case in enumerate(cases_left):
            if asker.stopped > MAX_STOPPED:
                fatal_note = (f" The player was stopped in {asker.stopped} positions, "
                              f"so the other {len(cases) - n} were not tried.")
                failed.extend((c, "not tried", {}) for c in cases[n:])
                break
            stopped_before = asker.stopped
            why, marks, reused = asker.ask(case)
            if why is not None and reused and not confirmed and opinions < MAX_SECOND_OPINIONS:
                opinions += 1                   # a fresh instance decides whose fault it is
                provisional = asker.stopped - stopped_before
                why, marks, _ = asker.ask(case, fresh=True)
                confirmed = why is not None     # the player is wrong by itself: no more second opinions
                if not confirmed:
                    asker.stopped -= provisional    # the fresh one answered: that stop is not counted
            if why is not None:
                failed.append((case, why, marks))
    finally:
        asker.close()
    return _Tally(len(cases), failed, asker.replaced, fatal_note)


def _judge_turns(assignment: Assignment, probe: Probe, turns: list[_Turn], tally: _Tally) -> None:
    """Every turn the player played in the check's smoke games, judged as one of the stage's positions
    (`judged`): a player cannot answer the probes and fail in games, however it tells them apart. No
    fresh second opinion: the game is the one the player plays, and a fresh process is what a player
    that counts its calls tells apart. What the clock found is not judged again here: a late turn's
    answer is judged for what it says, and its lateness (or a turn stopped at the hard limit) is the
    smoke stage's, by the course's time rule and the clock's fairness (issue 40), never a wrong answer."""
    if probe.turn_check is None:
        return
    policy = assignment.policy if probe.course_moves else None
    for turn in turns:
        if turn.res.verdict is Verdict.KILLED:
            continue
        res = replace(turn.res, verdict=Verdict.OK) if turn.res.verdict is Verdict.LATE else turn.res
        case = ProbeCase(turn.where, turn.state, "move", {"state": turn.state.to_json(), "last": turn.told},
                         probe.turn_check(turn.state))
        verdict = judged(case, res, [], policy)
        tally.turns += 1
        if verdict.how == REPLACED:
            tally.replaced.append((turn.where, verdict.why or ""))
        elif verdict.why is not None:
            tally.failed.append((case, verdict.why, verdict.marks))
            tally.wrong_turns += 1


def _probe_check(probe: Probe, tally: _Tally) -> Check:
    """The stage's verdict. A smoke-game turn it judged is one of its cases as a position is: it counts
    in the points as a wrong position does (scoring "all": any wrong case costs the stage; "share":
    the share of cases right), and the sentence names the first wrong one, position or turn."""
    total = tally.positions + tally.turns
    good = total - len(tally.failed)
    if probe.scoring == "share":
        points = round(probe.points * good / total, 4) if total else 0.0
        passed = good == total
    else:
        passed = not tally.failed
        points = probe.points if passed else 0.0
    if probe.informational:
        points = 0.0
    played = f" and {tally.turns} turns it played in the smoke games" if tally.turns else ""
    replaced = _replaced_note(tally.replaced)
    if not tally.failed:
        if tally.replaced:
            message = f"No wrong answer in {tally.positions} positions{played}.{replaced}"
        else:
            message = (f"All {tally.positions} positions answered correctly"
                       f"{f', and all {tally.turns} turns it played in the smoke games' if tally.turns else ''}.")
        return Check(probe.name, probe.title, True, points, probe.points, message, required=probe.required,
                     informational=probe.informational, cases=total)
    case, why, marks = tally.failed[0]
    wrong = sum(w != "not tried" for _, w, _ in tally.failed) - tally.wrong_turns
    if tally.wrong_turns:
        counted = (f"{wrong} of {tally.positions} positions and {tally.wrong_turns} of the {tally.turns} turns it "
                   f"played in the smoke games answered wrongly")
    else:
        counted = f"{wrong} of {tally.positions} positions answered wrongly"
    summary = f"{counted}. First: {case.label}: {why}{tally.fatal_note}{replaced}"
    picture = svg = None
    try:
        picture = case.state.render_text(marks or None)
        svg = case.state.render_svg(marks or None)
    except Exception:
        pass
    return Check(probe.name, probe.title, passed, points, probe.points, summary, required=probe.required,
                 informational=probe.informational, picture=picture, svg=svg, cases=total,
                 failed_cases=len(tally.failed))


def _replaced_note(replaced: list[tuple[str, str]]) -> str:
    """The sentence for positions or turns where the player raised or returned nothing and, as in the
    course's games, a random move was played for it and counted: how many, and the first."""
    if not replaced:
        return ""
    where, did = replaced[0]
    return (f" In {len(replaced)} of them the player raised an exception or returned no move; as the course's "
            f"client did, a random move was played instead and counted. The first: {where}: {did}")


def _timed_ask(proc, replies: dict, method: str, args: dict, allowance: Allowance | None):
    """One probe-stage call: within what is left of the process's first-move allowance (start,
    `setup` calls and the first call that asks for a move or an answer), else the per-move limit."""
    if allowance is None:
        return ask(proc, replies, method, args)
    res = ask(proc, replies, method, args, soft=allowance.left) if allowance.left > 0 else allowance.late()
    allowance.spend(res)
    return res


Asked = tuple[tuple[ProbeCase, str, dict] | None, bool, list[tuple[str, str]]]   # (failure, stopped, replaced)


def _fresh_cases(assignment: Assignment, sub: Submission, cases: list[ProbeCase], factory: PlayerFactory,
                 workers: int, seed: int, stage: _Asker) -> tuple[list[tuple[ProbeCase, str, dict]], str]:
    """Positions that each need a fresh process are independent, so up to `workers` run at once
    (Double Card's scripted games: one per core). Results are reported in case order and the stop
    rule holds as in the sequential loop: after MAX_STOPPED + 1 stopped players nothing new starts.
    Cases of one line (`ProbeCase.line`) are one game: only the longest is played, and each other one
    is judged on its tape (grader/probe_lines.py), as it would have been played alone.
    `stage`: the stage's own asker, whose `course_moves` each one follows and whose `replaced` counts theirs."""
    def one(i: int) -> Asked:
        """The sequential loop's body for one case in its own process (first-move allowance included);
        a case of a line (`ProbeCase.line`) its longest case did not play is judged on that one's tape."""
        tape = tapes.get(cases[i].line or "")
        if tape is None:
            return asked(cases[i], factory)
        if owners[cases[i].line or ""] == i:
            try:
                got = asked(cases[i], tape.recording(factory))
                tape.usable = True
                return got
            finally:
                tape.done.set()
        tape.done.wait()                    # the longest was started earlier (longest first): never a deadlock
        if tape.usable:
            try:
                return asked(cases[i], tape.replaying)
            except OffTape:
                pass
        return asked(cases[i], factory)

    def asked(case: ProbeCase, start: PlayerFactory) -> Asked:
        asker = _Asker(assignment, sub, start, seed)
        asker.course_moves = stage.course_moves
        try:
            why, marks, _ = asker.ask(case, fresh=True)
            return (None if why is None else (case, why, marks)), asker.stopped > 0, asker.replaced
        finally:
            asker.close()

    # Longest games first, so no long game runs alone at the end; results are reported in case order.
    order = sorted(range(len(cases)), key=lambda i: -len(cases[i].setup))
    owners: dict[str, int] = {}             # each line's longest case, the one played for real
    for i in order:
        if (line := cases[i].line) is not None:
            owners.setdefault(line, i)
    tapes = {line: Tape() for line in owners}
    results: dict[int, tuple[ProbeCase, str, dict] | None] = {}
    stopped = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        running: dict = {}
        while True:
            # never more players in flight than may still be stopped (the sequential stop rule)
            while order and len(running) < workers and stopped + len(running) <= MAX_STOPPED:
                i = order.pop(0)
                running[pool.submit(one, i)] = i
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                failure, was_stopped, replaced = future.result()
                stage.replaced.extend(replaced)
                results[running.pop(future)] = failure
                stopped += was_stopped
    failed = [f for i in sorted(results) if (f := results[i]) is not None]
    note = ""
    if len(results) < len(cases):
        note = (f" The player was stopped in {stopped} positions, "
                f"so the other {len(cases) - len(results)} were not tried.")
        failed += [(c, "not tried", {}) for i, c in enumerate(cases) if i not in results]
    return failed, note


def _call_failure(method: str, res) -> str:
    if res.verdict is Verdict.LATE:
        return f"{method}(): {res.message[:1].lower()}{res.message[1:]}"
    if res.verdict is Verdict.KILLED:
        return f"{method}() did not answer and was stopped ({res.message})."
    if res.verdict is Verdict.ERROR:
        return f"{method}() raised an exception: {res.message}"
    return f"{method}(): {res.message or res.verdict.value}"


@dataclass(frozen=True)
class _Turn:
    """One turn the checked player was asked in a smoke game, as a probe position: where, the position,
    what it was told, its answer (judged by `_judge_turns`)."""

    where: str
    state: Any
    told: list
    res: Any


def _smoke(assignment: Assignment, sub: Submission, factory: PlayerFactory, check_seed: int
           ) -> tuple[Check, list[dict], list[_Turn]]:
    """Short games against a built-in; the submission must finish them without a fault of its own.
    Also every turn the submission was asked in them (not those of a game the machine spoiled).
    Their seeds come from the check's (seat-swapped twins share one), keyed as every check's are.
    Every other twin, the first included, is played on the ruleset's largest board (`Game.largest`):
    a player slow only there must not pass on the small boards the seeds happened to draw."""
    largest = replace(assignment, game=assignment.game.largest())
    opponent_name = assignment.config.validation.smoke_opponent
    opponent = builtin(assignment.ruleset, opponent_name)
    n = assignment.config.validation.smoke_games
    games, faults = [], []
    turns: list[_Turn] = []
    excused = 0
    for i in range(n):
        seat = i % 2
        pair = (sub, opponent) if seat == 0 else (opponent, sub)
        seed = seeds.derived_seed(check_seed, f"smoke/{i // 2}")
        on = largest if (i // 2) % 2 == 0 else assignment
        where = f"smoke game {i + 1} (as the {('first', 'second')[seat]} player)"
        result, asked = _played(on, pair, seed, factory, seat, where)
        retried = []
        for _ in range(INFRA_RETRIES):         # the machine's failure, not the player's: play it again
            if not result.infra_error:
                break
            retried.append(result.detail)
            result, asked = _played(on, pair, seed, factory, seat, where)
        mine = result.players[seat] if len(result.players) > seat else None
        points = result.points[seat]
        outcome = "win" if points == 1 else "draw" if points == 0.5 else "loss"
        incidents = mine.incidents if mine else []
        why = next((inc["message"] for inc in incidents if _course_replaced(inc, incidents)), "")
        games.append({"opponent": opponent.display_name, "seat": seat, "result": outcome,
                      "reason": result.reason, "detail": result.detail, "seed": seed,
                      "moves": mine.moves if mine else 0,
                      "replaced": sum(i["kind"] == "substituted" for i in incidents),
                      "why_replaced": why,           # the first failure the course's rule replaced: no fault, but said
                      "retried": retried,            # why each earlier try was the machine's
                      "losing": _losing_move(on, result, seed, seat)})
        if result.infra_error:
            faults.append(f"game {i + 1} could not be played by the grader: {result.detail}")
            continue
        turns += asked
        bad = [inc for inc in incidents if inc["kind"] != "substituted" and not _course_replaced(inc, incidents)]
        excused += sum(_course_replaced(inc, incidents) for inc in incidents)
        if bad:
            inc = bad[0]
            ply = f" on move {inc['ply'] + 1}" if inc.get("ply") is not None else ""
            faults.append(f"in game {i + 1} (as the {('first', 'second')[seat]} player){ply}: {inc['message']}")
    title = f"Smoke games against {opponent.display_name}"
    required = assignment.config.validation.smoke_required
    if faults:
        return Check("smoke", title, False, 0, 0, "The player failed while playing " + faults[0]
                     + (f" ({len(faults) - 1} more game(s) had faults.)" if len(faults) > 1 else ""),
                     required=required), games, turns
    note = (f" In {excused} turn(s) the player raised an exception or returned no move; as the course's client "
            f"did, a random move was played instead.") if excused else ""
    return (Check("smoke", title, True, 0, 0, f"Played {n} game(s) without a fault.{note}", required=required),
            games, turns)


def _played(on: Assignment, pair: tuple[Submission, Submission], seed: int, factory: PlayerFactory, seat: int,
            where: str) -> tuple[GameResult, list[_Turn]]:
    """One smoke game, and every turn the player in `seat` was asked in it."""
    asked: list[_Turn] = []

    def seen(mover: int, state, told: list, res) -> None:
        if mover == seat:
            asked.append(_Turn(f"{where}, move {state.ply + 1}", state.copy(), list(told), res))

    result = play_game(on, *pair, seed=seed, factory=factory, key=seeds.CHECK_KEY, on_turn=seen)
    return result, asked


def _losing_move(on: Assignment, result: GameResult, seed: int, seat: int) -> dict | None:
    """The move that lost a smoke game the student did not win (grader/losing_move.py), where the
    ruleset declares an evaluator; bounded by nodes as the league's analysis is."""
    if on.ruleset.evaluator is None or result.infra_error or result.points[seat] > result.points[1 - seat]:
        return None
    lost = losing_move(on.ruleset, on.game, seed, result.moves, seat)
    return lost.to_json() if lost is not None else None


COURSE_REPLACES = ("error", "none", "uncaught")     # what the course's client answered with a random move


def _course_replaced(incident: dict, incidents: list[dict]) -> bool:
    """Whether a smoke game's incident is an exception or a missing move for which the course's rule
    played a random move (a "substituted" incident at the same ply): the course counted no fault."""
    return incident["kind"] in COURSE_REPLACES and any(
        other["kind"] == "substituted" and other.get("ply") == incident.get("ply") for other in incidents)
