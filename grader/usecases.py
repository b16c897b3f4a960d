"""Every use case written once, for every front door.

The doors (the `grader` command, the upload service's worker, the Gradescope autograder, the
similarity report, the demo) call these and only render what they return: a door renders, a use
case decides. Which kinds of submission an assignment accepts (its Python entry, its Java layout,
a line-protocol program) comes from the assignment (grader/intake.py), never from a door's
arguments. A use case that cannot go on raises `Refused` with one sentence naming what it read.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from rich.console import Console

import rulesets
import sandbox
from rulesets.base import EngineFailed
from sandbox import host, java, portable, state_dir
from sandbox.portable import PYTHON_ONLY

from . import bounded, course_folder, intake, python_source, selftest, student_package
from . import new_game as new_game_scaffold
from .assignment import Assignment
from .autograder_zip import VISIBILITIES, AutograderProblem, build_autograder
from .builds import available
from .config import load_config
from .feedback import verdict
from .grading import Grade
from .job_bound import JobBound
from .league import LeagueRun, check_document, run_league
from .lms import (
    CsvProblem,
    ImportRefused,
    ImportReport,
    Unmatched,
    fill_canvas_gradebook,
    fill_moodle_worksheet,
    import_submissions,
)
from .lms.export import default_out, flag_count, flagged_lines, flags_of, review_rows
from .lms.export import write_grades_csv as write_rows_csv
from .match import GameResult, play_game
from .outputs import grade_rows, grades_of_run, results_document, write_match_site, write_outputs, write_sites
from .results_doc import ResultsDoc
from .similarity import COMPARED_RULE
from .similarity_report import (
    InstructorReport,
    MissingSkeleton,
    instructor_dir,
    run_similarity,
    saved_flags,
    skeleton_paths,
)
from .store import GameRecord, Store
from .submissions import Submission, builtin, entry_folders
from .validation import (
    CHECK_POSITIONS_RULE,
    CHECK_TURNS_RULE,
    Check,
    ValidationReport,
    submission_kind,
    validate,
)


class Refused(Exception):
    """A use case that cannot go on, as one sentence for the person who asked."""


# ------------------------------------------------------------------ stage and check


def stage(assignment: Assignment, path: Path, sub_id: str | None = None) -> Submission:
    """One submission staged as the assignment accepts it (problems in `.problem`, never raised)."""
    return intake.stage(assignment, Path(path), sub_id)


@dataclass(frozen=True)
class CheckOutcome:
    """What checking one submission found, for a door to render."""

    assignment: Assignment
    submission: Submission
    report: ValidationReport
    path: Path                              # what was asked to be checked
    checked: Path                           # the same, or its folder when a single file imports modules beside it
    helpers: tuple[str, ...] = ()           # those modules
    fix: str | None = None                  # a file checked alone lacked a module: the command that fixes it

    @property
    def passed(self) -> bool:
        return self.report.passed

    @property
    def seed(self) -> int:
        """The check's own seed: it drew the probe positions and seeded every process and smoke game."""
        return self.report.seed

    @property
    def replay(self) -> str:
        """The sentence every door shows with the verdict: the seed, and how to run the same check again."""
        return self.report.replay

    @property
    def document(self) -> dict[str, Any]:
        """The verdict as it is kept (the upload service's `verdict_json`), keyed by the bytes and the
        settings it judged, so a league of the same submission keeps it (`grade_league`'s `checked`)."""
        return check_document(self.assignment, self.submission, self.report)

    @property
    def note(self) -> str | None:
        """One sentence a door shows beside the report, if any."""
        if self.fix:
            return self.fix
        if self.helpers:
            return f"checked the folder {self.checked}: {self.path.name} imports {', '.join(self.helpers)} from beside it."
        return None


def check(assignment: Assignment, path: Path, *, sub_id: str | None = None, name: str | None = None,
          seed: int | None = None, on_stage: Callable[[str], None] | None = None) -> CheckOutcome:
    """Stage and validate one submission exactly as the league and the server do. A single entry file
    whose own modules sit beside it is checked with its folder; a folder of several submissions is
    refused (one at a time). `seed`: a recorded check's seed, to replay it (default: a fresh one).
    `on_stage(title)`: told as each stage starts (a check can take minutes)."""
    path = Path(path)
    if not path.exists():
        raise Refused(f"{path}: no such file or folder.")
    lacking = unmet_requirements(assignment)
    if lacking:
        raise Refused(lacking)
    _refuse_class_folder(path, assignment)
    checked, helpers = _with_helpers(path, assignment.ruleset.entry)
    sub = stage(assignment, checked, sub_id)
    if name is not None:
        sub.name = name
    try:
        report = validate(assignment, sub, seed=seed, on_stage=on_stage)
    except EngineFailed as exc:            # the game's own program failed: nothing is decided about the player
        raise Refused(f"The check could not be finished, and says nothing about the submission: {exc} "
                      f"Check it again.") from None
    fix = _missing_module_fix(path, report) if checked == path else None
    return CheckOutcome(assignment, sub, report, path, checked, tuple(helpers), fix)


def assignment_for(assignments: dict[str, Assignment], path: Path) -> Assignment:
    """The one assignment whose entry file this submission has (a check without --assignment)."""
    names: set[str] = set()
    if path.is_file() and path.suffix in (".py", ".java"):
        names = {path.name}
    elif path.is_dir():
        names = {p.name for p in path.iterdir()} | {p.name for p in path.glob("*/*")}
        names |= {p.name for p in path.glob("**/*.java")}
    elif path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            names = {Path(n).name for n in z.namelist()}
    fits = [a for a in assignments.values()
            if a.ruleset.entry in names or (a.ruleset.java is not None and a.ruleset.java.entry in names)]
    if not fits:
        expected = ", ".join(f"{a.name}: {a.ruleset.entry}" for a in assignments.values())
        raise Refused(f"{path} has none of the entry files the assignments expect ({expected}); "
                      f"name the assignment with --assignment.")
    if len(fits) > 1:
        raise Refused(f"{path} could belong to several assignments ({', '.join(a.name for a in fits)}); "
                      f"name one with --assignment.")
    return fits[0]


def _refuse_class_folder(path: Path, assignment: Assignment) -> None:
    """A check takes one submission; a folder of several (a class) gets a sentence, not a failed check."""
    entry = assignment.ruleset.entry
    if path.is_dir() and not (path / entry).is_file():
        several = entry_folders(path, entry)
        if len(several) > 1:
            shown = ", ".join(d.name for d in several[:5]) + (", …" if len(several) > 5 else "")
            raise Refused(f"{path} holds {len(several)} submissions ({shown}); check one at a time "
                          f"(grader check {path / several[0].name}), or grade them all with 'grader run'.")


def _imported_names(path: Path) -> set[str]:
    """Module names a Python file imports (each dotted part, and relative imports' names), read in
    a bounded child (grader/python_source.py)."""
    try:
        found = python_source.facts(path)
    except (OSError, bounded.ReadRefused):
        return set()
    return set(found.imported) if found else set()


def _with_helpers(path: Path, entry: str) -> tuple[Path, list[str]]:
    """The path to check and the helper modules found: a single entry file whose own modules sit
    beside it is checked with its folder (the server receives the whole upload)."""
    if not (path.is_file() and path.suffix == ".py" and path.name == entry):
        return path, []
    folder = path.resolve().parent
    helpers = sorted(n for n in _imported_names(path) if n != path.stem and (
        (folder / f"{n}.py").is_file() or (folder / n / "__init__.py").is_file()))
    return (folder, helpers) if helpers else (path, [])


def _missing_module_fix(path: Path, report: ValidationReport) -> str | None:
    """The fix when a file checked alone imports a module the check did not have."""
    if not path.is_file():
        return None
    for c in report.checks:
        m = re.search(r"No module named '([\w.]+)'", c.message or "")
        if m:
            return (f"{path.name} was checked alone, without {m[1]}. If that module is one of your files, "
                    f"put {m[1].split('.')[-1]}.py beside {path.name} and check the folder that holds them all "
                    f"(grader check {path.parent if str(path.parent) != '.' else './'}).")
    return None


# ------------------------------------------------------------------ a match


@dataclass(frozen=True)
class PlayedGame:
    number: int                               # 1, 2, …
    seed: int
    seats: tuple[Submission, Submission]
    result: GameResult


def course_opponents(assignment: Assignment) -> dict[str, str]:
    """{how `grader play` and a practice request name it: its label} of every player the course offers
    to play against: the ruleset's built-ins (`builtin:NAME`), then the course's sparring players
    (`sparring:NAME`, config `sparring`). None of them is ever graded."""
    return {**{f"builtin:{name}": f"{name} (built-in)" for name in assignment.ruleset.players},
            **{f"sparring:{name}": f"{name} (the course's sparring player)" for name in assignment.sparring}}


def entrant(assignment: Assignment, spec: str) -> Submission:
    """A submission path, or one of the course's players by name: a built-in (`builtin:NAME`) or a
    sparring player (`sparring:NAME`), or the bare name of either."""
    prefix, _, name = spec.partition(":") if spec.startswith(("builtin:", "sparring:")) else ("", "", spec)
    if not Path(spec).exists() and prefix in ("", "builtin") and name in assignment.ruleset.players:
        return builtin(assignment.ruleset, name)
    if not Path(spec).exists() and prefix in ("", "sparring") and name in assignment.sparring:
        sub = _staged_entrant(assignment, assignment.sparring[name], spec)
        sub.id, sub.name = f"sparring:{name}", course_opponents(assignment)[f"sparring:{name}"]
        return sub
    if not Path(spec).exists():
        sparring = f"; sparring players: {', '.join(assignment.sparring)}" if assignment.sparring else ""
        raise Refused(f"{spec}: no such submission, and {assignment.ruleset.name} has no built-in player "
                      f"of that name (built-ins: {', '.join(assignment.ruleset.players)}{sparring}).")
    return _staged_entrant(assignment, Path(spec), spec)


def _staged_entrant(assignment: Assignment, path: Path, spec: str) -> Submission:
    """A player staged as the assignment accepts it, or Refused with why; interactive programs play no games."""
    sub = stage(assignment, path)
    if sub.problem:
        raise Refused(f"{spec}: {sub.problem}")
    try:
        kind = submission_kind(assignment, sub)
    except bounded.ReadRefused as exc:
        raise Refused(f"{spec}: {exc}") from None
    if kind == "program":
        raise Refused(f"{spec}: is an interactive command-line program, which plays no games; "
                      f"'grader check {spec} --assignment {assignment.name}' grades it through its console.")
    return sub


def play(assignment: Assignment, a: str, b: str, *, games: int, seed: int) -> Iterator[PlayedGame]:
    """`games` games between two entrants, seats swapped every game, the seed every second game."""
    yield from _seat_swapped(assignment, entrant(assignment, a), entrant(assignment, b), games=games, seed=seed)


def _seat_swapped(assignment: Assignment, first: Submission, second: Submission, *, games: int,
                  seed: int) -> Iterator[PlayedGame]:
    for i in range(games):
        seats = (first, second) if i % 2 == 0 else (second, first)
        yield PlayedGame(i + 1, seed + i // 2, seats, play_game(assignment, *seats, seed=seed + i // 2))


# ------------------------------------------------------------------ the league


@dataclass
class LeagueOutcome:
    """One graded league: what ran, the results document, the files written and how grades were given."""

    run: LeagueRun
    document: ResultsDoc
    paths: dict[str, Path]
    grading: str                                   # "grades: …" or "grades: none …" (never silent)
    similarity: InstructorReport | None = None
    grades: dict[str, Grade] = field(default_factory=dict)


def grade_league(assignment: Assignment, *, fresh: bool = False, progress: bool = False,
                 console: Console | None = None, site: bool = True,
                 checked: Mapping[str, dict[str, Any]] | None = None) -> LeagueOutcome:
    """Validate every submission, play the league, grade it, write results.json, grades.csv and the
    sites; the similarity report too when the assignment asks for it. `checked`: the verdicts the
    submissions were already given, by id (`check_document`), which the league keeps rather than
    checking the same bytes again with another seed."""
    problem = cannot_run(assignment) or unmet_requirements(assignment)
    if problem:
        raise Refused(problem)
    try:
        run = run_league(assignment, fresh=fresh, progress=progress, console=console, checked=checked)
    except EngineFailed as exc:             # twice while validating one submission (games retry on their own)
        raise Refused(f"The league stopped before its games, and blames no submission: {exc} "
                      f"Run it again.") from None
    grades: dict[str, Grade] = grades_of_run(assignment, run)
    with Store(assignment.store_path) as store:
        doc: ResultsDoc = results_document(assignment, run, grades, store)
    shown = console if progress else None
    paths = write_outputs(assignment, doc, site=site,
                          on_progress=None if shown is None else lambda line: shown.print(line, markup=False))
    report = run_similarity(assignment, doc) if assignment.config.similarity is not None else None
    return LeagueOutcome(run, doc, paths, grading_summary(assignment), report, grades)


def cannot_run(assignment: Assignment) -> str | None:
    """Why this assignment cannot run at all (its folders or its store), as one sentence; None if it can."""
    key = f"{assignment.config_path or 'the config'}: assignments.{assignment.name}"
    if not assignment.submissions_dir.is_dir():
        return (f"{key}.submissions: the folder {assignment.submissions_dir} does not exist "
                f"(paths are relative to the config file).")
    if assignment.config.similarity is not None and (missing := _missing_skeleton(assignment)):
        return missing                      # said before the league, not after it has been played
    try:
        assignment.reports_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"{key}.reports: cannot create the folder {assignment.reports_dir} ({exc.strerror or exc})."
    try:
        with Store(assignment.store_path) as store:
            store.submissions(assignment.name)
    except (sqlite3.Error, OSError) as exc:
        return (f"{key}.store: {assignment.store_path} cannot be used as the results store ({exc}); "
                f"move it away, or set store: to another file.")
    return None


def unmet_requirements(assignment: Assignment) -> str | None:
    """Why this machine may not grade the assignment: a protection its `sandbox.require` names that
    the sandbox cannot apply here, with how to get it, or the game's own program that cannot run here
    (a referee whose language is not installed), as one sentence; None when all apply."""
    game = assignment.ruleset.game.unavailable()
    if game is not None:
        return f"The game {assignment.ruleset.name} cannot be played on this machine, so nothing is graded here: {game}."
    required = assignment.config.sandbox.require
    if not required:
        return None
    found = sandbox.protections()
    lacking = host.unmet(required, found)
    if not lacking:
        return None
    fixes = host.fixes(found)
    if "sandbox" in found:
        how = f"{found['sandbox']}; {fixes['sandbox']}"
        return (f"{assignment.config_path or 'the config'}: assignments.{assignment.name}.sandbox.require names "
                f"{', '.join(lacking)}, which the portable sandbox cannot apply ({how}), so nothing is graded here.")
    parts = [f"{name} ({state.removeprefix('missing: ')}" + (f"; to get it: {fixes[name]}" if name in fixes else "")
             + ")" for name, state in lacking.items()]
    return (f"{assignment.config_path or 'the config'}: assignments.{assignment.name}.sandbox.require names "
            f"protections this machine cannot apply, so nothing is graded here: {'; '.join(parts)}.")


def grading_summary(assignment: Assignment) -> str:
    """How grades are given, in one line: "grades: bands, top 10/20/40 % → 3/2/1", or that none are."""
    g = assignment.config.grading
    if g.kind == "none":
        where = f" in {assignment.config_path}" if assignment.config_path else ""
        return (f"grades: none (assignments.{assignment.name} has no grading: section{where}); "
                f"the exports refuse until one is set.")
    if g.kind == "bands":
        bands = sorted(g.bands)
        return (f"grades: bands, top {'/'.join(f'{f * 100:g}' for f, _ in bands)} % → "
                f"{'/'.join(f'{p:g}' for _, p in bands)}; the others {g.failed_grade:g}.")
    test = (f" (a sequential test: error below {g.error:.0%}, at most {g.max_games} games, "
            f"undecided is not beating it)")
    if g.kind == "interpolate":
        beat = f"; must beat {g.must_beat} to pass{test}" if g.must_beat else ""
        return f"grades: interpolated, the top score {g.max:g}, linear down to the pass mark {g.pass_min:g}{beat}."
    if g.kind in ("thresholds", "ladder"):
        rules = ", ".join(f"beats {r.beats}" + (f" (more than {r.share:.0%})" if g.kind == "thresholds"
                                                 and r.share != 0.5 else "") + f" → {r.grade:g}"
                          for r in sorted(g.rules, key=lambda r: -r.grade))
        return f"grades: {g.kind}, the best one met of: {rules}{test}; otherwise 0."
    return f"grades: the validation stages' points, scaled to {g.max:g}."


# ------------------------------------------------------------------ results and similarity


def results(assignment: Assignment) -> ResultsDoc:
    """The assignment's results.json as `grader run` last wrote it."""
    path = assignment.reports_dir / "results.json"
    if not path.exists():
        raise Refused(f"no results yet for {assignment.name}: run 'grader run {assignment.name}' first.")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        doc = exc
    if not (isinstance(doc, dict) and isinstance(doc.get("assignment"), dict)
            and isinstance(doc.get("submissions"), list)):
        raise Refused(f"{path} is damaged or not a results file; run 'grader run {assignment.name}' "
                      f"again to rewrite it (the stored games are reused).")
    return cast(ResultsDoc, doc)        # as written: one of an older grader may lack a field (readers allow it)


def similarity(assignment: Assignment) -> InstructorReport:
    """Similar code among the submissions (every kind the assignment accepts) and, once a league
    was played, thrown games; the instructor-only page and files written."""
    if not assignment.submissions_dir.is_dir():
        raise Refused(f"{assignment.config_path or 'the config'}: assignments.{assignment.name}.submissions: "
                      f"the folder {assignment.submissions_dir} does not exist.")
    missing = _missing_skeleton(assignment)
    if missing:
        raise Refused(missing)
    played = (assignment.reports_dir / "results.json").exists()
    return run_similarity(assignment, results(assignment) if played else None)


def _missing_skeleton(assignment: Assignment) -> str | None:
    """The sentence naming a skeleton path the config gives that is not in the course folder."""
    try:
        skeleton_paths(assignment)
    except MissingSkeleton as exc:
        return str(exc)
    return None


# ------------------------------------------------------------------ this machine


@dataclass(frozen=True)
class Protections:
    """What this machine can apply: each sandbox layer, the Java toolchain, each program build."""

    sandbox: dict[str, str]
    java: dict[str, str]
    builds: dict[str, str]
    ordinary_user: bool
    fixes: dict[str, str] = field(default_factory=dict)    # layer -> the one change that gives it here
    advice: list[str] = field(default_factory=list)        # changes that make the sandbox faster here
    state: str = ""                    # where the grader keeps its own files, and the rule (sandbox/state_dir.py)
    rules: dict[str, str] = field(default_factory=dict)    # the grader's own rules, on every machine


def protections() -> Protections:
    """What `grader doctor` shows. The portable sandbox runs no program, so no Java player either."""
    found = sandbox.protections()
    java_states = {"jdk": f"missing: {PYTHON_ONLY}"} if portable.wanted() else java.describe()
    return Protections(found, java_states, available(), hasattr(os, "geteuid") and os.geteuid() != 0,
                       host.fixes(found), host.advice(found), state_dir.describe(),
                       {"check positions": CHECK_POSITIONS_RULE, "check turns": CHECK_TURNS_RULE,
                        "similarity": COMPARED_RULE})


# ------------------------------------------------------------------ a course folder and its exports


@dataclass(frozen=True)
class CourseFolder:
    folder: Path
    config: Path
    submissions: tuple[Path, ...]
    readme: Path


def init_course(folder: Path, names: list[str]) -> CourseFolder:
    """A course folder from nothing: config.yaml with every setting (the course's rules as values),
    an empty submissions folder per assignment and a README of the next commands."""
    folder = Path(folder)
    known = course_folder.known_assignments()
    unknown = [n for n in names if n not in known]
    if not names or unknown:
        raise Refused(f"grader init needs --assignment with one of {', '.join(known)}"
                      + (f" (not {', '.join(unknown)})." if unknown else "."))
    config = folder / "config.yaml"
    if config.exists():
        raise Refused(f"{config} already exists; grader init writes a new course folder and never changes one "
                      f"(edit {config}, or pick another folder).")
    try:
        subs = tuple(folder / "submissions" / n for n in dict.fromkeys(names))
        for sub in subs:
            sub.mkdir(parents=True, exist_ok=True)
        for name in dict.fromkeys(names):
            for source, target in course_folder.skeleton_copies(name):
                if source.is_dir():
                    shutil.copytree(source, folder / target, dirs_exist_ok=True,
                                    ignore=shutil.ignore_patterns("__pycache__"))
                else:
                    (folder / target).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, folder / target)
        config.write_text(course_folder.config_text(list(dict.fromkeys(names))), encoding="utf-8")
        readme = folder / "README.md"
        if not readme.exists():
            readme.write_text(course_folder.readme_text(folder.resolve(), list(dict.fromkeys(names))), encoding="utf-8")
    except OSError as exc:
        raise Refused(f"cannot write the course folder {folder}: {exc.strerror or exc}.") from None
    return CourseFolder(folder, config, subs, readme)


def is_demo_config(config_path: Path) -> bool:
    """Whether this is the bundled demo's config.yaml, whose submissions folders hold the demo players."""
    try:
        return Path(config_path).resolve() == course_folder.BUNDLED_CONFIG.resolve()
    except OSError:
        return False


def export_refusal(assignment: Assignment, doc: ResultsDoc, rows: list[dict[str, Any]], writing: Path) -> str | None:
    """Why grades must not be exported (they would all be 0, or all the same), naming the results read
    and the file that would be written; None when they may go."""
    read = assignment.reports_dir / "results.json"
    where = assignment.config_path or "the config"
    kind = ((doc.get("assignment") or {}).get("grading") or {}).get("kind", assignment.config.grading.kind)
    if kind == "none":
        return (f"{read} has no grades: assignments.{assignment.name} in {where} has no grading: section, so every "
                f"grade in {writing} would be 0; nothing was written. Set grading: (the course's rule) and run "
                f"'grader run {assignment.name}' again.")
    grades = {r["grade"] for r in rows}
    if len(rows) > 1 and len(grades) == 1:
        return (f"every one of the {len(rows)} grades in {read} is {next(iter(grades)):g}, so {writing} would "
                f"tell nobody anything; nothing was written. Check grading: in {where} and the league "
                f"('grader standings {assignment.name}').")
    return None


# ------------------------------------------------------------------ a new game (issue 41.4)


def new_game(name: str, like: str) -> new_game_scaffold.NewGame:
    """A new game's package written from the template `like`, found by `rulesets.names()` at once."""
    try:
        return new_game_scaffold.write(name, like)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    except OSError as exc:
        raise Refused(f"cannot write the new game's package in {new_game_scaffold.SCAFFOLD.parent}: "
                      f"{exc.strerror or exc}; nothing was left half-made.") from None


# ------------------------------------------------------------------ a branch of a recorded game


@dataclass(frozen=True)
class BranchedGame:
    """A recorded league game replayed to `ply`, then played on with the student's player in `seat`."""

    recorded: GameRecord
    ply: int
    seat: int
    seats: tuple[Submission, Submission]
    result: GameResult


def _recorded_game(assignment: Assignment, game_id: str) -> GameRecord:
    """The one stored game of the assignment with this id (a key's first hex digits)."""
    where = assignment.store_path
    if not where.exists():
        raise Refused(f"{where} does not exist: no league of {assignment.name} has been run here, so there is "
                      f"no game {game_id} to branch from.")
    with Store(where) as store:
        found = [g for g in store.games_by_id(assignment.name, game_id.strip().lower()) if g.status == "done"]
    if not found:
        raise Refused(f"{where} holds no game {game_id} of {assignment.name} (the id is the one its replay "
                      f"page shows).")
    if len(found) > 1:
        raise Refused(f"{game_id} names {len(found)} games of {assignment.name} in {where}: give more of its id.")
    return found[0]


def _recorded_entrant(assignment: Assignment, sid: str) -> Submission:
    """The recorded seat's player, run again: a built-in, or the submission at the path the store kept."""
    if sid.startswith("builtin:"):
        return entrant(assignment, sid)
    with Store(assignment.store_path) as store:
        path = next((r.path for r in store.submissions(assignment.name) if r.id == sid), None)
    if path is None or not Path(path).exists():
        raise Refused(f"the recorded opponent {sid} is no longer at {path or 'a known path'}, so it cannot play "
                      f"the branch.")
    return entrant(assignment, path)


def branch(assignment: Assignment, mine: str, game_id: str, ply: int, seat: int | None = None) -> BranchedGame:
    """`grader play MINE --from GAME --ply N`: the recorded game's first N moves, then `mine` plays on in
    the student's seat (`seat`, or the only seat not a built-in's) against the recorded opponent's
    player, run again with the game's seed, as `grader play` runs it."""
    recorded = _recorded_game(assignment, game_id)
    moves = json.loads(recorded.moves_json or "{}").get("moves", [])
    if not 0 <= ply < len(moves):
        raise Refused(f"game {game_id} has {len(moves)} moves: --ply must be from 0 to {len(moves) - 1} "
                      f"(the ply after which your player takes over), not {ply}.")
    ids = (recorded.seat0, recorded.seat1)
    if seat is None:
        students = [i for i, sid in enumerate(ids) if not sid.startswith("builtin:")]
        if len(students) != 1:
            raise Refused(f"game {game_id} is {ids[0]} against {ids[1]}: say which seat your player takes "
                          f"with --seat 0 or --seat 1.")
        seat = students[0]
    if seat not in (0, 1):
        raise Refused(f"--seat must be 0 or 1, not {seat}.")
    players = [entrant(assignment, mine), _recorded_entrant(assignment, ids[1 - seat])]
    seats = (players[0], players[1]) if seat == 0 else (players[1], players[0])
    result = play_game(assignment, *seats, seed=recorded.seed, opening=moves[:ply])
    return BranchedGame(recorded, ply, seat, seats, result)


# ------------------------------------------------------------------ the grade export's similarity flags


def export_rows(assignment: Assignment, doc: ResultsDoc) -> list[dict[str, Any]]:
    """The rows every grade export writes (`grade_rows`), each with the last similarity report's
    flags about its student (`"flags"`): named in the export's summary and in the instructor's
    review copy, never in the feedback a student reads, never changing a grade."""
    flags = saved_flags(assignment)
    return [row | {"flags": flags.get(str(row["student_id"]), [])}
            for row in grade_rows(doc, assignment.config.report_url)]


def write_review(assignment: Assignment, rows: list[dict[str, Any]]) -> Path | None:
    """The feedback as exported plus each student's flags, for the instructor to read before
    uploading: `<reports>-instructor/feedback-review.csv`, beside the similarity report and never
    in the published site. None (and nothing written) when nobody is flagged."""
    if not any(row.get("flags") for row in rows):
        return None
    path = instructor_dir(assignment) / "feedback-review.csv"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_rows_csv(review_rows(rows), path)
    except OSError as exc:
        raise Refused(f"cannot write the instructor's review copy {path}: {exc.strerror or exc}.") from None
    return path


# ------------------------------------------------------------------ a short match (practice)


@dataclass(frozen=True)
class MatchOutcome:
    """A short match of seat-swapped games between two entrants, for a door to render: the games as
    played and each entrant's total. Nothing is stored: a match is never a league game."""

    first: Submission
    second: Submission
    games: tuple[PlayedGame, ...]

    def seat_of_first(self, game: PlayedGame) -> int:
        return 0 if game.seats[0] is self.first else 1

    @property
    def points(self) -> tuple[float, float]:
        """(the first entrant's points, the second's), summed over the games."""
        mine = sum(g.result.points[self.seat_of_first(g)] for g in self.games)
        theirs = sum(g.result.points[1 - self.seat_of_first(g)] for g in self.games)
        return mine, theirs


def match(assignment: Assignment, a: str, b: str, *, games: int, seed: int,
          names: tuple[str | None, str | None] = (None, None)) -> MatchOutcome:
    """`games` seat-swapped games between two entrants (a submission path or a built-in, as `grader
    play` takes them), played by grader/match.py as the league plays them but recorded nowhere:
    the upload service's practice matches and `grader play` share it. `names`: what each entrant is
    called in the games' sentences (a classmate's pseudonym, never the path of their upload)."""
    first, second = entrant(assignment, a), entrant(assignment, b)
    for sub, name in zip((first, second), names):
        if name is not None:
            sub.name = name
    return MatchOutcome(first, second, tuple(_seat_swapped(assignment, first, second, games=games, seed=seed)))


def match_site(assignment: Assignment, games: list[dict[str, Any]], out: Path) -> dict[str, str]:
    """A match's private replay site, drawn by the league site's one viewer (`outputs.write_match_site`):
    each game's viewer address relative to `out`, by the game's id. The service's practice matches show it."""
    return write_match_site(assignment, games, out)


def stored_verdict_sentence(doc: dict[str, Any]) -> str:
    """The one sentence a stored verdict (the upload service's `verdict_json`) comes to, as `grader check`
    ends with it: what the LMS gradebook shows beside the grade, so the two never say different things."""
    sentence = check_verdict(doc)[1]
    return sentence[:1].upper() + sentence[1:]


def verdict_words(passed: bool | int | None, points: float | None, max_points: float | None) -> tuple[str, str]:
    """(tone, words) for an upload's verdict on a page: green ("ok") only for a pass with every point; a pass
    that lost points is "partial" and says so (an upload wrong on 16 of 24 positions is never green)."""
    if not passed:
        return "bad", "Did not pass"
    if max_points and (points or 0.0) < max_points:
        return "partial", "Passed with points lost"
    return "ok", "Passed"


def first_instructor_name(config_path: Path) -> str:
    """The name of the instructor account a new upload service makes: "Demo instructor" only for the bundled
    demo; a real course's is named from its folder ("Instructor of ai-2026")."""
    if is_demo_config(config_path):
        return "Demo instructor"
    return f"Instructor of {Path(config_path).resolve().parent.name}"


# ------------------------------------------------------------------ the students' package


def package_for_students(assignment: Assignment, config_path: Path, out: Path | None = None, *,
                         find_links: tuple[Path, ...] = (), no_index: bool = False, dependencies: bool = True,
                         say: Callable[[str], None] = lambda line: None) -> student_package.StudentPackage:
    """The zip students install the grader from: this course's config and course packages, installable
    without the network (grader/student_package.py). The demo's config is refused: students would
    check against limits the course does not grade with."""
    if is_demo_config(config_path):
        raise Refused(f"{config_path} is the bundled demo's config: a package made from it would check students "
                      f"against the demo's limits; nothing was made. Run it in your course folder (grader init "
                      f"~/my-course --assignment {assignment.ruleset.name}) or name its config with --config.")
    target = out or Path(f"{assignment.name}-for-students.zip")
    try:
        return student_package.build(assignment.name, Path(config_path), assignment.ruleset.requirements, target,
                                     find_links=find_links, no_index=no_index, dependencies=dependencies,
                                     shipped=_sparring_of_every_assignment(Path(config_path)), say=say)
    except student_package.PackageProblem as exc:
        raise Refused(str(exc)) from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise Refused(f"cannot write {target}: {exc}.") from None


def _sparring_of_every_assignment(config_path: Path) -> dict[str, Path]:
    """{path relative to the config: where it is} of every assignment's sparring players: the students'
    copy of the config names them all, and a config naming a missing one does not load."""
    config, base = load_config(config_path)
    return {where: base / where for a in config.assignments.values() for where in a.sparring.values()}


NEEDS_HUMAN = ("needs a human: the grader could not read the program's output; a TA grades it from the transcript "
               "— no points recorded.")


def check_verdict(doc: dict[str, Any]) -> tuple[bool | None, str]:
    """(passed, the sentence) a check of one upload comes to, from its report's JSON: `grader check` ends
    with it ("Result: …"), the upload service keeps it, and the Gradescope output and the LMS feedback
    begin with it, so the doors never say different words. `passed` is None when a TA must decide."""
    if any(c.get("needs_human") for c in doc.get("checks") or []):
        return None, NEEDS_HUMAN
    return verdict(doc.get("checks") or [], doc.get("games") or [], doc.get("points") or 0.0,
                   doc.get("max_points") or 0.0, passed=doc.get("passed"), plays=doc.get("kind") != "program")


# ------------------------------------------------------------------ a class's download in, its grades out (issue 44.4)


@dataclass(frozen=True)
class ClassImport:
    """What importing an LMS download did, for a door to render."""

    report: ImportReport
    source: Path

    @property
    def anything(self) -> bool:
        """Whether the download gave any submission (imported, replaced, or found unchanged)."""
        return bool(self.report.imported or self.report.replaced or self.report.unchanged)


def import_class(assignment: Assignment, config_path: Path, source: Path, *, fmt: str = "auto",
                 roster: Path | None = None) -> ClassImport:
    """A class download (an LMS zip or folder) staged into the assignment's submissions folder
    (grader/lms/importer.py). Refused: a missing source, the bundled demo's config (its folders hold
    the demo players), a download the importer refuses whole."""
    source = Path(source)
    if not source.exists():
        raise Refused(f"{source}: no such file or folder.")
    target = assignment.submissions_dir
    if is_demo_config(config_path):
        raise Refused(f"{config_path} is the bundled demo's config: importing {source} would put your class among "
                      f"its demo players in {target}; nothing was imported. Start a course folder of your own "
                      f"(grader init ~/my-course --assignment {assignment.name}) and import there.")
    try:
        report = import_submissions(source, target.parent, target.name, fmt=fmt, entry=assignment.ruleset.entry,
                                    roster=roster)
    except ImportRefused as exc:
        raise Refused(str(exc)) from None
    report.assignment = f"{assignment.name} ({target})"     # the assignment, not its folder's name
    return ClassImport(report, source)


@dataclass
class GradeExport:
    """What exporting the grades wrote, in the order it wrote it, for a door to render. It stops at
    the first of `refusal`, `unmatched` or `problem`; what was written before stays written and listed."""

    rows: list[dict[str, Any]]
    refusal: str | None = None           # nothing written: the grades would tell nobody anything
    csv: Path | None = None              # the plain grades file, when no LMS file was given
    flag_count: str = ""                 # its summary's part about similarity flags
    flagged: tuple[str, ...] = ()        # a line per flag
    filled: list[str] = field(default_factory=list)   # each LMS file filled (Moodle, then Canvas), as its summary
    unmatched: str | None = None         # an LMS file that matched too few students: nothing written to it
    problem: str | None = None           # a grade file unreadable or unwritable, a missing Canvas column
    review: Path | None = None           # the instructor's review copy with the flags


def export_grades(assignment: Assignment, *, out: Path | None = None, moodle: Path | None = None,
                  canvas: Path | None = None, canvas_assignment: str | None = None,
                  allow_partial: bool = False) -> GradeExport:
    """The league's grades written for the LMS: a Moodle worksheet and/or a Canvas gradebook filled,
    else the plain grades.csv (`out`, default <reports>/grades.csv), then the instructor's review
    copy when someone is flagged. Refused when there are no results to read."""
    doc = results(assignment)
    export = GradeExport(export_rows(assignment, doc))
    lms_file = moodle or canvas
    writing = out if out else default_out(lms_file) if lms_file else assignment.reports_dir / "grades.csv"
    export.refusal = export_refusal(assignment, doc, export.rows, writing)
    if export.refusal:
        return export
    try:
        if not lms_file:
            csv = Path(out or assignment.reports_dir / "grades.csv")
            write_rows_csv(export.rows, csv)
            flagged = flags_of(export.rows)
            export.csv, export.flag_count, export.flagged = csv, flag_count(flagged), tuple(flagged_lines(flagged))
        if moodle:
            export.filled.append(str(fill_moodle_worksheet(moodle, export.rows, out, allow_partial=allow_partial)))
        if canvas:
            if not canvas_assignment:
                export.problem = "--canvas needs --canvas-assignment: the gradebook column's title or id."
                return export
            export.filled.append(str(fill_canvas_gradebook(canvas, export.rows, canvas_assignment, out,
                                                           allow_partial=allow_partial)))
        export.review = write_review(assignment, export.rows)
    except Unmatched as exc:
        export.unmatched = str(exc)
    except Refused as exc:
        export.problem = str(exc)
    except (CsvProblem, OSError) as exc:
        export.problem = (str(exc) if isinstance(exc, CsvProblem) else
                          f"cannot read or write a grade file: {exc.filename}: {exc.strerror or exc}.")
    return export


def write_report(assignment: Assignment, *, on_progress: Callable[[str], None] | None = None) -> dict[str, Path]:
    """The sites (the private one, the public one) written again from the stored results: label -> path."""
    return write_sites(assignment, results(assignment), on_progress=on_progress)


AUTOGRADER_VISIBILITIES = VISIBILITIES          # when students see the autograder's tests (Gradescope's words)


def autograder(assignment: Assignment, config_path: Path, out: str | Path, *, visibility: str = "visible",
               leaderboard: bool = False) -> Path:
    """The Gradescope autograder zip for `assignment` written to `out` (grader/autograder_zip.py)."""
    try:
        return build_autograder(assignment, config_path, Path(out), visibility=visibility, leaderboard=leaderboard)
    except AutograderProblem as exc:
        raise Refused(str(exc)) from None
    except OSError as exc:
        raise Refused(f"cannot write {out}: {exc.strerror or exc}.") from None


# ------------------------------------------------------------------ a game's self-test (issue 41.2)


@dataclass(frozen=True)
class SelftestOutcome:
    """`grader selftest NAME`: each check the cross-game tests run, on one game, with what it proves."""

    game: str
    results: list[selftest.CheckResult]

    @property
    def passed(self) -> bool:
        return all(r.status != "failed" for r in self.results)


def selftest_game(name: str) -> SelftestOutcome:
    """Every cross-game check on game `name` (grader/selftest.py); a game that does not load is refused
    with the sentence that says why (its package, its record, or its own code)."""
    try:
        record = rulesets.load(name)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    except Exception as exc:        # the game's own package failed to import: its author's code, named
        raise Refused(f"the game {name!r} does not load: importing {rulesets.module_of(name)} raised "
                      f"{type(exc).__name__}: {exc}") from None
    return SelftestOutcome(name, selftest.run(record))


# ------------------------------------------------------------------ a check stopped at its bound (issue 38.6)


@dataclass(frozen=True)
class JobStopped:
    """A check stopped at its bound (grader/job_bound.py): whether the student's player is at fault
    (its own processor time) or the machine (too slow: the grader's fault, tried again), and the sentence."""

    students: bool
    sentence: str


def job_stopped(assignment: Assignment, bound: JobBound, charged_s: float, wall_s: float) -> JobStopped | None:
    """Whether a check that used `charged_s` of its players' processor time (over their cores) in
    `wall_s` went past its bound, and whose fault that is; None when it stayed within."""
    if charged_s > bound.charged_s:
        return JobStopped(True, f"The check was stopped: your player used {charged_s:.0f} s of processor time, "
                                f"more than the {bound.charged_s:.0f} s that all the stages of a "
                                f"{assignment.title} check allow together, so it was not evaluated further.")
    if wall_s > bound.wall_s:
        return JobStopped(False, f"the grader stopped the check after {wall_s:.0f} s, past the {bound.wall_s:.0f} s a "
                                 f"check may take on a busy machine, while the player had used only {charged_s:.0f} s "
                                 f"of the {bound.charged_s:.0f} s of processor time it may: the machine was too slow "
                                 f"or the grader stuck, not the player's fault.")
    return None


def stopped_document(assignment: Assignment, sub: Submission, stopped: JobStopped) -> dict[str, Any]:
    """The verdict document of a check its player's own time stopped: one failed stage saying so,
    kept as any check's is (`check_document`), so the league keeps it too."""
    report = ValidationReport(submission=sub.id, max_points=sum(p.points for p in assignment.probes()
                                                                if not p.informational),
                              checks=[Check("bound", "The whole check's time", False, 0, 0, stopped.sentence)])
    return check_document(assignment, sub, report)
