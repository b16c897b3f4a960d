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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

import sandbox
from sandbox import host, java, state_dir

from . import bounded, course_folder, intake, python_source, student_package
from .assignment import Assignment
from .builds import available
from .grading import Grade
from .league import LeagueRun, run_league
from .match import GameResult, play_game
from .outputs import compute_grades, results_document, write_outputs
from .similarity import COMPARED_RULE
from .similarity_report import InstructorReport, MissingSkeleton, run_similarity, skeleton_paths
from .store import Store
from .submissions import Submission, builtin, entry_folders
from .validation import CHECK_POSITIONS_RULE, ValidationReport, submission_kind, validate


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
    report = validate(assignment, sub, seed=seed, on_stage=on_stage)
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
    except (OSError, bounded.Refused):
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


def entrant(assignment: Assignment, spec: str) -> Submission:
    """A submission path, or a built-in player by name (`builtin:NAME` or the bare name)."""
    name = spec.split(":", 1)[1] if spec.startswith("builtin:") else spec
    if not Path(spec).exists() and name in assignment.ruleset.players:
        return builtin(assignment.ruleset, name)
    if not Path(spec).exists():
        raise Refused(f"{spec}: no such submission, and {assignment.ruleset.name} has no built-in player "
                      f"of that name (built-ins: {', '.join(assignment.ruleset.players)}).")
    sub = stage(assignment, Path(spec))
    if sub.problem:
        raise Refused(f"{spec}: {sub.problem}")
    try:
        kind = submission_kind(assignment, sub)
    except bounded.Refused as exc:
        raise Refused(f"{spec}: {exc}") from None
    if kind == "program":
        raise Refused(f"{spec}: is an interactive command-line program, which plays no games; "
                      f"'grader check {spec} --assignment {assignment.name}' grades it through its console.")
    return sub


def play(assignment: Assignment, a: str, b: str, *, games: int, seed: int) -> Iterator[PlayedGame]:
    """`games` games between two entrants, seats swapped every game, the seed every second game."""
    first, second = entrant(assignment, a), entrant(assignment, b)
    for i in range(games):
        seats = (first, second) if i % 2 == 0 else (second, first)
        yield PlayedGame(i + 1, seed + i // 2, seats, play_game(assignment, *seats, seed=seed + i // 2))


# ------------------------------------------------------------------ the league


@dataclass
class LeagueOutcome:
    """One graded league: what ran, the results document, the files written and how grades were given."""

    run: LeagueRun
    document: dict[str, Any]
    paths: dict[str, Path]
    grading: str                                   # "grades: …" or "grades: none …" (never silent)
    similarity: InstructorReport | None = None
    grades: dict[str, Grade] = field(default_factory=dict)


def grade_league(assignment: Assignment, *, fresh: bool = False, progress: bool = False,
                 console: Console | None = None, site: bool = True) -> LeagueOutcome:
    """Validate every submission, play the league, grade it, write results.json, grades.csv and the
    sites; the similarity report too when the assignment asks for it."""
    problem = cannot_run(assignment) or unmet_requirements(assignment)
    if problem:
        raise Refused(problem)
    run = run_league(assignment, fresh=fresh, progress=progress, console=console)
    grades: dict[str, Grade] = compute_grades(assignment, run)
    with Store(assignment.store_path) as store:
        doc: dict[str, Any] = results_document(assignment, run, grades, store)
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
    the sandbox cannot apply here, with how to get it, as one sentence; None when all apply."""
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


def results(assignment: Assignment) -> dict[str, Any]:
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
    return doc


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
    found = sandbox.protections()
    return Protections(found, java.describe(), available(), hasattr(os, "geteuid") and os.geteuid() != 0,
                       host.fixes(found), host.advice(found), state_dir.describe(),
                       {"check positions": CHECK_POSITIONS_RULE, "similarity": COMPARED_RULE})


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


def export_refusal(assignment: Assignment, doc: dict[str, Any], rows: list[dict[str, Any]], writing: Path) -> str | None:
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
                                     find_links=find_links, no_index=no_index, dependencies=dependencies, say=say)
    except student_package.PackageProblem as exc:
        raise Refused(str(exc)) from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise Refused(f"cannot write {target}: {exc}.") from None
