"""The `grader` command. Each subcommand is a thin layer over one module; errors are one sentence.

Exit status: 0 success (for `check`: every required stage passed), 1 a check failed, 2 usage or
config errors.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.markup import escape

from . import bounded, python_source
from .assignment import Assignment, ConfigError, default_config_path, load_assignments, pick
from .safetext import SafeConsole, markup, one_line

if TYPE_CHECKING:
    from rich.console import Console

console = SafeConsole(highlight=False, soft_wrap=True)       # texts from submissions cannot act on
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)   # the terminal (grader/safetext.py)


class UsageError(Exception):
    """A mistake on the command line, as one sentence."""


def _assignments(args) -> tuple[dict[str, Assignment], Path]:
    path = Path(args.config) if args.config else default_config_path()
    return load_assignments(path), path


def _entry_candidates(assignments: dict[str, Assignment], path: Path) -> list[Assignment]:
    """Assignments whose entry file this submission has (for `check` without --assignment)."""
    import zipfile

    names: set[str] = set()
    if path.is_file() and path.suffix in (".py", ".java"):
        names = {path.name}
    elif path.is_dir():
        names = {p.name for p in path.iterdir()} | {p.name for p in path.glob("*/*")}
        names |= {p.name for p in path.glob("**/*.java")}
    elif path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            names = {Path(n).name for n in z.namelist()}
    return [a for a in assignments.values()
            if a.ruleset.entry in names or (a.ruleset.java is not None and a.ruleset.java.entry in names)]


def cmd_check(args) -> int:
    from .submissions import load
    from .validation import validate

    assignments, cfg_path = _assignments(args)
    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder.")
    if args.assignment:
        assignment = pick(assignments, args.assignment, cfg_path)
        _refuse_class_folder(path, assignment)
    else:
        fits = _entry_candidates(assignments, path)
        if not fits:
            expected = ", ".join(f"{a.name}: {a.ruleset.entry}" for a in assignments.values())
            raise UsageError(f"{path} has none of the entry files the assignments expect ({expected}); "
                             f"name the assignment with --assignment.")
        if len(fits) > 1:
            names = ", ".join(a.name for a in fits)
            raise UsageError(f"{path} could belong to several assignments ({names}); name one with --assignment.")
        assignment = fits[0]
        _refuse_class_folder(path, assignment)
    alone = path
    path, helpers = _with_helpers(path, assignment.ruleset.entry)
    if helpers and not args.json:
        console.print(f"Checking the folder {escape(str(path))}: {escape(alone.name)} imports "
                      f"{escape(', '.join(helpers))} from beside it.")
    sub = load(path, assignment.ruleset.entry, assignment.max_submission_mb, java=assignment.ruleset.java,
               programs=assignment.ruleset.lines is not None)
    report = validate(assignment, sub, seed=args.seed)
    fix = _missing_module_fix(alone, report) if path == alone else None
    if args.json:
        doc = report.to_json()
        out = {"passed": report.passed, "points": report.points, "max_points": report.max_points,
               "assignment": assignment.name,
               "checks": [{k: c[k] for k in ("name", "passed", "points", "max_points", "message", "needs_human")}
                          | {"picture": c["picture"]} for c in doc["checks"]],
               "games": [{k: g[k] for k in ("opponent", "seat", "result", "reason")} for g in report.games],
               "sandbox": report.sandbox, "seed": report.seed, "environment": report.environment}
        if helpers or fix:
            out["note"] = fix or f"checked the folder {path}: {alone.name} imports {', '.join(helpers)} from beside it."
        print(json.dumps(out, indent=2))
    else:
        print_check_report(assignment, sub, report)
        if fix:
            console.print(escape(fix))
    return 0 if report.passed else 1


def _imported_names(path: Path) -> set[str]:
    """Module names a Python file imports (each dotted part, and relative imports' names)."""
    try:
        found = python_source.facts(path)
    except (OSError, bounded.Refused):
        return set()
    return set(found.imported) if found else set()


def _with_helpers(path: Path, entry: str) -> tuple[Path, list[str]]:
    """A single entry file whose own modules sit beside it is checked with its folder (the server
    receives the whole upload); returns the path to check and the helper modules found."""
    if not (path.is_file() and path.suffix == ".py" and path.name == entry):
        return path, []
    folder = path.resolve().parent
    helpers = sorted(n for n in _imported_names(path) if n != path.stem and (
        (folder / f"{n}.py").is_file() or (folder / n / "__init__.py").is_file()))
    return (folder, helpers) if helpers else (path, [])


def _missing_module_fix(path: Path, report) -> str | None:
    """The fix when a file checked alone imports a module the check did not have."""
    import re

    if not path.is_file():
        return None
    for c in report.checks:
        m = re.search(r"No module named '([\w.]+)'", c.message or "")
        if m:
            return (f"{path.name} was checked alone, without {m[1]}. If that module is one of your files, "
                    f"put {m[1].split('.')[-1]}.py beside {path.name} and check the folder that holds them all "
                    f"(grader check {path.parent if str(path.parent) != '.' else './'}).")
    return None


def _refuse_class_folder(path: Path, assignment: Assignment) -> None:
    """`check` takes one submission; a folder of several (a class) gets a sentence, not a failed check."""
    from .submissions import entry_folders

    entry = assignment.ruleset.entry
    if path.is_dir() and not (path / entry).is_file():
        several = entry_folders(path, entry)
        if len(several) > 1:
            shown = ", ".join(d.name for d in several[:5]) + (", …" if len(several) > 5 else "")
            raise UsageError(f"{path} holds {len(several)} submissions ({shown}); check one at a time "
                             f"(grader check {path / several[0].name}), or grade them all with 'grader run'.")


def print_check_report(assignment: Assignment, sub, report, out: Console | None = None) -> None:
    """What `grader check` prints; the upload service renders the same text for its pages."""
    from .feedback import num, verdict

    out = out or console
    out.print(f"[bold]{escape(assignment.title)}[/] — checking [bold]{markup(sub.source)}[/]")
    for line in sandbox_summary(report.sandbox):
        out.print(f"[yellow]{escape(line)}[/]" if "stricter" in line else escape(line))
    if report.environment:
        out.print(escape(report.environment))
    out.print(f"Seed {report.seed}: `grader check --seed {report.seed}` runs this check again with the same luck.")
    width = max((len(c.title) for c in report.checks), default=0)
    for c in report.checks:
        mark = "[green]PASS[/]" if c.passed else ("[yellow]INFO[/]" if c.informational else
                                                  "[yellow]TA[/]  " if c.needs_human else "[red]FAIL[/]")
        pts = f"{'?' if c.needs_human else num(c.points)}/{num(c.max_points)} pt" if c.max_points else (
            "gate" if not c.informational else "info")
        out.print(f"  {mark}  {escape(c.title.ljust(width))}  {pts}")
    shown = set()
    for c in report.checks:
        if c.passed:
            continue
        out.print(f"\n[bold]{escape(c.title)}[/]: {escape(c.message)}")
        if c.picture and c.picture in shown:
            out.print("(the same position as shown above)")
        elif c.picture:
            out.print(escape(c.picture))
            shown.add(c.picture)
    for g in report.games:
        replaced = f", {g['replaced']} of {g['moves']} moves replaced by random ones" if g.get("replaced") else ""
        out.print(f"  game vs {markup(g['opponent'])} as {('first', 'second')[g['seat']]} player: "
                  f"{g['result']} ({escape(g['reason'])}){replaced}")
    if any(c.needs_human for c in report.checks):
        out.print("\nResult: [yellow]needs a human[/]: the grader could not read the program's output; a TA "
                  "grades it from the transcript — no points recorded.")
        return
    passed, sentence = verdict(report.to_json()["checks"], report.games, report.points, report.max_points,
                               passed=report.passed, plays=report.kind != "program")
    colour = "green" if passed and "lost" not in sentence and "failed" not in sentence else "yellow" if passed else "red"
    out.print(f"\nResult: [{colour}]{escape(sentence)}[/]")


def sandbox_summary(prot: dict[str, str]) -> list[str]:
    """The sandbox in two sentences: the layers applied here and the missing ones, and whether the
    server's sandbox is stricter (always, in the portable sandbox of macOS and Windows)."""
    if not prot:
        return []
    have = [k + (" (partly)" if "missing" in v else "") for k, v in prot.items()
            if not v.startswith("missing") and k != "sandbox"]
    missing = [k for k, v in prot.items() if v.startswith("missing")]
    partly = [k for k, v in prot.items() if "missing" in v[1:] and not v.startswith("missing")]
    lines = [f"Sandbox on this machine: {', '.join(have)}" + (f"; missing: {', '.join(missing)}" if missing else "")
             + " (grader doctor says more)."]
    if "sandbox" in prot:            # the portable sandbox (sandbox/portable.py)
        lines.insert(0, "The server's sandbox is stricter: there a player cannot touch files outside its folder, "
                        "the network or other processes; here only its time, memory and turns are limited.")
    elif missing or partly:
        lines.insert(0, "The server's sandbox may be stricter than this machine's: "
                        f"{', '.join(missing + partly)} cannot be fully applied here.")
    return lines


def _entrant(assignment: Assignment, spec: str):
    """A submission path or `builtin:NAME` / a bare built-in name."""
    from .submissions import builtin, load

    name = spec.split(":", 1)[1] if spec.startswith("builtin:") else spec
    if not Path(spec).exists() and name in assignment.ruleset.players:
        return builtin(assignment.ruleset, name)
    if not Path(spec).exists():
        raise UsageError(f"{spec}: no such submission, and {assignment.ruleset.name} has no built-in player "
                         f"of that name (built-ins: {', '.join(assignment.ruleset.players)}).")
    from .validation import submission_kind

    sub = load(Path(spec), assignment.ruleset.entry, assignment.max_submission_mb, java=assignment.ruleset.java,
               programs=assignment.ruleset.lines is not None)
    if sub.problem:
        raise UsageError(f"{spec}: {sub.problem}")
    try:
        kind = submission_kind(assignment, sub)
    except bounded.Refused as exc:
        raise UsageError(f"{spec}: {exc}") from None
    if kind == "program":
        raise UsageError(f"{spec}: is an interactive command-line program, which plays no games; "
                         f"'grader check {spec} --assignment {assignment.name}' grades it through its console.")
    return sub


def cmd_play(args) -> int:
    from .match import play_game

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1 (got {args.games}).")
    a, b = _entrant(assignment, args.a), _entrant(assignment, args.b)
    seed = assignment.config.league.seed if args.seed is None else args.seed
    games = []
    for i in range(args.games):
        pair = (a, b) if i % 2 == 0 else (b, a)
        result = play_game(assignment, *pair, seed=seed + i // 2)
        games.append({"game": i + 1, "seed": seed + i // 2, "seat0": pair[0].display_name,
                      "seat1": pair[1].display_name, **result.to_json()})
        if not args.json:
            p0, p1 = result.points
            console.print(f"game {i + 1} (seed {seed + i // 2}): {markup(pair[0].display_name)} {p0:g} – {p1:g} "
                          f"{markup(pair[1].display_name)}: {markup(result.detail)} [{len(result.moves)} moves]")
            for seat, rec in enumerate(result.players):
                for inc in rec.incidents:
                    console.print(f"    {markup(pair[seat].display_name)}: {inc['kind']}: {markup(inc['message'])}")
    if args.json:
        print(json.dumps({"assignment": assignment.name, "games": games}, indent=2))
    return 0


def cmd_run(args) -> int:
    from .league import run_league
    from .outputs import compute_grades, results_document, write_outputs
    from .store import Store

    assignments, cfg_path = _assignments(args)
    names = [args.assignment] if args.assignment else list(assignments)
    skipped = []
    for name in names:
        assignment = pick(assignments, name, cfg_path)
        problem = _cannot_run(assignment, cfg_path)
        if problem:
            if len(names) == 1:
                raise UsageError(problem)
            err.print(f"grader: {escape(problem)} Skipped; the other assignments run.")
            skipped.append(name)
            continue
        console.rule(f"[bold]{escape(assignment.title)}[/]")
        run = run_league(assignment, fresh=args.fresh, progress=not args.quiet, console=console)
        grades = compute_grades(assignment, run)
        with Store(assignment.store_path) as store:
            doc = results_document(assignment, run, grades, store)
        paths = write_outputs(assignment, doc, site=not args.no_report)
        _print_standings(doc)
        console.print(markup(run.summary_line()))
        for label, path in paths.items():
            console.print(f"  {label}: {escape(str(path))}")
        if assignment.config.similarity is not None:
            from .similarity_report import run_similarity

            _print_similarity(run_similarity(assignment, doc))
    if skipped:
        err.print(f"grader: not run: {', '.join(skipped)} (see above).")
        return 2
    return 0


def _cannot_run(assignment: Assignment, cfg_path: Path) -> str | None:
    """Why this assignment cannot run at all (its folders or its store), as one sentence; None if it can."""
    import sqlite3

    from .store import Store

    key = f"{cfg_path}: assignments.{assignment.name}"
    if not assignment.submissions_dir.is_dir():
        return (f"{key}.submissions: the folder {assignment.submissions_dir} does not exist "
                f"(paths are relative to the config file).")
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


def _print_standings(doc: dict) -> None:
    """The table keeps to one line per submission; why a submission failed follows it as a list."""
    from rich import box
    from rich.table import Table

    from .feedback import rating as shown_rating

    table = Table(title=f"Standings — {doc['assignment']['title']}", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    for col in ("rank", "submission", "points", "W-D-L", "rating", "grade", "status"):
        table.add_column(col, no_wrap=True)
    reasons = []
    for s in doc["submissions"]:
        wdl = f"{s['wins']}-{s['draws']}-{s['losses']}" if s["games"] is not None else ""
        rating = " ".join(x for x in shown_rating(s.get("rating"), s.get("rating_low"), s.get("rating_high")) if x)
        grade = f"{s['grade']:g}/{s['grade_max']:g}" if s.get("grade") is not None else ""
        status = s["status"]
        if status in ("failed", "disqualified") and s["status_detail"]:
            reasons.append(f"[{len(reasons) + 1}] {one_line(s['display_name'])}: {one_line(s['status_detail'])}")
            status += f" [{len(reasons)}]"
        table.add_row(str(s["rank"] or ""), markup(s["display_name"]),
                      "" if s["points"] is None else f"{s['points']:g}", wdl, rating, grade, escape(status))
    console.print(table)
    for line in reasons:
        console.print(escape(line))


def cmd_standings(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    _print_standings(_results(assignment))
    return 0


def cmd_report(args) -> int:
    from .outputs import write_sites

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    for label, path in write_sites(assignment, _results(assignment)).items():
        console.print(f"{label}: {escape(str(path))}")
    return 0


def cmd_import(args) -> int:
    from .lms import ImportRefused, import_submissions

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    source = Path(args.source)
    if not source.exists():
        raise UsageError(f"{source}: no such file or folder.")
    target = assignment.submissions_dir
    try:
        report = import_submissions(source, target.parent, target.name, fmt=args.format,
                                    entry=assignment.ruleset.entry, roster=args.roster and Path(args.roster))
    except ImportRefused as exc:
        raise UsageError(str(exc)) from None
    console.print(escape(str(report)))
    if not (report.imported or report.replaced or report.unchanged):
        hint = f" Is --format {args.format} right for this download?" if args.format != "auto" else ""
        err.print(f"grader: nothing was imported from {escape(str(source))} "
                  f"({len(report.refused)} refused).{escape(hint)}")
        return 1
    console.print(f"Next: grader run {assignment.name}")
    return 0


def _results(assignment: Assignment) -> dict:
    results = assignment.reports_dir / "results.json"
    if not results.exists():
        raise UsageError(f"no results yet for {assignment.name}: run 'grader run {assignment.name}' first.")
    try:
        doc = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        doc = exc
    if not (isinstance(doc, dict) and isinstance(doc.get("assignment"), dict)
            and isinstance(doc.get("submissions"), list)):
        raise UsageError(f"{results} is damaged or not a results file; run 'grader run {assignment.name}' "
                         f"again to rewrite it (the stored games are reused).")
    return doc


def cmd_export(args) -> int:
    from .lms import (
        CsvProblem,
        Unmatched,
        fill_canvas_gradebook,
        fill_moodle_worksheet,
        write_gradescope_results,
    )
    from .outputs import grade_rows, write_grades_csv

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    doc = _results(assignment)
    rows = grade_rows(doc, assignment.config.report_url)
    try:
        if not (args.moodle or args.canvas or args.gradescope):
            out = Path(args.out or assignment.reports_dir / "grades.csv")
            write_grades_csv(out, doc, assignment.config.report_url)
            console.print(f"Wrote {escape(str(out))}: {len(rows)} students.")
        if args.moodle:
            console.print(escape(str(fill_moodle_worksheet(Path(args.moodle), rows,
                                                           Path(args.out) if args.out else None,
                                                           allow_partial=args.allow_partial))))
        if args.canvas:
            if not args.canvas_assignment:
                raise UsageError("--canvas needs --canvas-assignment: the gradebook column's title or id.")
            console.print(escape(str(fill_canvas_gradebook(Path(args.canvas), rows, args.canvas_assignment,
                                                           Path(args.out) if args.out else None,
                                                           allow_partial=args.allow_partial))))
        if args.gradescope:
            checks = {s["id"]: (s.get("validation") or {}).get("checks") or [] for s in doc["submissions"]}
            for row in rows:
                write_gradescope_results(row, Path(args.gradescope) / row["student_id"] / "results.json",
                                         checks.get(row["student_id"], []))
            console.print(f"Wrote {len(rows)} Gradescope results.json files under {escape(args.gradescope)}.")
    except Unmatched as exc:
        err.print(f"grader: {escape(str(exc))}")
        return 1
    except (CsvProblem, OSError) as exc:
        raise UsageError(str(exc) if isinstance(exc, CsvProblem) else
                         f"cannot read or write a grade file: {exc.filename}: {exc.strerror or exc}.") from None
    return 0


def cmd_gradescope(args) -> int:
    from .gradescope import AutograderProblem, build_autograder

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    try:
        out = build_autograder(assignment, cfg_path, Path(args.out), visibility=args.visibility,
                               leaderboard=args.leaderboard)
    except AutograderProblem as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}.") from None
    console.print(f"Wrote {escape(str(out))}: upload it as the autograder of a Gradescope programming "
                  f"assignment (Ubuntu base image); every upload then gets the {escape(assignment.name)} "
                  f"validation stages as tests.")
    return 0


def cmd_similarity(args) -> int:
    from .similarity_report import run_similarity

    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    if not assignment.submissions_dir.is_dir():
        raise UsageError(f"{cfg_path}: assignments.{assignment.name}.submissions: the folder "
                         f"{assignment.submissions_dir} does not exist.")
    results = None
    if (assignment.reports_dir / "results.json").exists():
        results = _results(assignment)
    _print_similarity(run_similarity(assignment, results))
    return 0


def _print_similarity(out) -> None:
    from .safetext import one_line as clean

    console.print(escape(out.similarity.summary()))
    for n, p in enumerate(out.similarity.pairs[:10], 1):
        console.print(f"  {n:>2}. {p.score:4.0%}  {escape(clean(p.a.label))} ↔ {escape(clean(p.b.label))}")
    if len(out.similarity.pairs) > 10:
        console.print(f"  … {len(out.similarity.pairs) - 10} more on the page")
    pairs = {(f.player, f.beneficiary) for f in out.flags}
    console.print(escape(out.league_note) if out.league_note else
                  f"collusion: {len(pairs)} pair(s) flagged" + (f" ({len(out.flags)} findings):" if out.flags else "."))
    for f in out.flags:
        console.print(f"  {escape(clean(f.sentence))}")
    for label, path in out.paths.items():
        console.print(f"  {label}: {escape(str(path))}")
    console.print("  (instructor only: these files name students and show their code; do not publish them)")


def cmd_serve(args) -> int:
    try:
        from .serve import serve
    except ImportError as exc:
        raise UsageError(f"the upload service needs its extra packages ({exc.name} is missing): "
                         f"pip install 'game-grader[serve]' (make serve does it).") from None
    path = Path(args.config) if args.config else default_config_path()
    _assignments(args)                                   # a broken config is one sentence before anything starts
    serve(path, host=args.host, port=args.port, workers=args.workers, echo=lambda s: console.print(escape(s)))
    return 0


def cmd_doctor(args) -> int:
    import sandbox

    prot = sandbox.protections()
    console.print("[bold]Sandbox protections on this machine[/]"
                  + (" (as an ordinary user: some layers need root)" if _ordinary_user() else ""))
    for line in sandbox_summary(prot)[:-1]:
        console.print(f"[yellow]{escape(line)}[/]")
    for name, state in prot.items():
        mark = ("[red]missing[/]" if state.startswith("missing") else
                "[yellow]partly [/]" if "missing" in state else "[green]active [/]")
        console.print(f"  {mark}  {name:<12} {escape(state)}")
    from sandbox import java
    console.print("[bold]Java players (courses taught in Java)[/]")
    for name, state in java.describe().items():
        mark = "[red]missing[/]" if state.startswith("missing") else "[green]active[/]"
        console.print(f"  {mark}  {name:<12} {escape(state)}")
    from .builds import available
    console.print("[bold]Builds of line-protocol programs (in the sandbox; processes allowed, toolchain only)[/]")
    for name, state in available().items():
        mark = "[red]missing[/]" if state.startswith("missing") else "[green]active[/]"
        console.print(f"  {mark}  {name:<12} {escape(state)}")
    return 0


def _ordinary_user() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() != 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grader", description="A sandboxed grader for student game-playing agents.")
    parser.add_argument("--config", help="config file (default: ./config.yaml, else the bundled one)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("check", help="run the validation stages on one submission, as the server will")
    p.add_argument("path", help="player file, folder or zip")
    p.add_argument("--assignment", help="assignment name from the config")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--seed", type=int, help="replay a recorded check (its report shows the seed)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("play", help="play a match between two submissions or built-ins")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--assignment")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("run", help="validate every submission, play the league, write standings, grades and the site")
    p.add_argument("assignment", nargs="?", help="assignment name (default: every assignment in the config)")
    p.add_argument("--fresh", action="store_true", help="forget stored results and start over")
    p.add_argument("--incremental", action="store_true",
                   help="replay only games whose inputs changed (the default; kept for scripts)")
    p.add_argument("--no-report", action="store_true", help="skip the HTML site")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("standings", help="print the current standings of an assignment")
    p.add_argument("assignment", nargs="?")
    p.set_defaults(func=cmd_standings)

    p = sub.add_parser("report", help="render the HTML site from the stored results")
    p.add_argument("assignment", nargs="?")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("import", help="import a class download from the LMS (Moodle, Canvas, Gradescope, BRUTE, folder)")
    p.add_argument("source", help="the downloaded zip or its unpacked folder")
    p.add_argument("--assignment", help="assignment name from the config")
    p.add_argument("--format", default="auto", choices=["auto", "moodle", "canvas", "gradescope", "brute", "folder"])
    p.add_argument("--roster", "--worksheet", "--gradebook", dest="roster", metavar="FILE",
                   help="what the LMS recorded (names, teams, upload times): Moodle's grading worksheet, "
                        "Canvas's gradebook or submissions export (JSON), or a CSV with student_id,uploaded_at")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="grades and feedback for the LMS: plain CSV, Moodle worksheet, Canvas, Gradescope")
    p.add_argument("assignment", nargs="?")
    p.add_argument("--moodle", metavar="WORKSHEET", help="fill this Moodle offline grading worksheet")
    p.add_argument("--canvas", metavar="GRADEBOOK", help="fill this Canvas gradebook export")
    p.add_argument("--canvas-assignment", help="the Canvas gradebook column (title or id)")
    p.add_argument("--gradescope", metavar="FOLDER", help="write <FOLDER>/<student>/results.json")
    p.add_argument("--out", help="where to write (default: next to the input, or reports/<assignment>/grades.csv)")
    p.add_argument("--allow-partial", action="store_true",
                   help="write the LMS file even when some graded students are not in it")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("gradescope", help="build a Gradescope autograder zip that runs the validation stages")
    p.add_argument("assignment", nargs="?")
    p.add_argument("--out", default="autograder.zip", help="where to write the zip (default: autograder.zip)")
    p.add_argument("--visibility", default="visible",
                   choices=["visible", "hidden", "after_due_date", "after_published"],
                   help="when students see the tests (Gradescope's visibility)")
    p.add_argument("--leaderboard", action="store_true", help="add a leaderboard entry (stage points, smoke wins)")
    p.set_defaults(func=cmd_gradescope)

    p = sub.add_parser("similarity", help="similar code and thrown games: an instructor-only page and CSV")
    p.add_argument("assignment", nargs="?")
    p.set_defaults(func=cmd_similarity)

    p = sub.add_parser("serve", help="the upload service: students upload and see the verdict; the table stays live")
    p.add_argument("--host", help="address to listen on (default: serve.host, 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default: serve.port, 8000)")
    p.add_argument("--workers", type=int, help="evaluation processes (default: one per core)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("doctor", help="list which sandbox protections this machine can apply")
    p.set_defaults(func=cmd_doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ConfigError, UsageError) as exc:
        err.print(f"grader: {escape(str(exc))}")
        return 2
    except KeyboardInterrupt:
        err.print("grader: interrupted.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
