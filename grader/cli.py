"""The `grader` command. Each subcommand is a thin layer over one module; errors are one sentence.

Exit status: 0 success (for `check`: every required stage passed), 1 a check failed, 2 usage or
config errors.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.markup import escape

from . import usecases
from .assignment import Assignment, ConfigError, default_config_path, load_assignments, pick
from .check_report import print_check_report
from .incidents import incident_sentence
from .safetext import console, err, markup
from .terminal_views import print_doctor, print_similarity, print_standings


class UsageError(Exception):
    """A mistake on the command line, as one sentence."""


def _assignments(args) -> tuple[dict[str, Assignment], Path]:
    path = Path(args.config) if args.config else default_config_path()
    return load_assignments(path), path


class StageLines:
    """A check's progress as plain lines on stderr (stdout stays the report, or its JSON): which
    stage starts, its number, and how long the one before took."""

    def __init__(self, checked: str) -> None:
        self.checked, self.number, self.since = checked, 0, time.monotonic()

    def __call__(self, title: str) -> None:
        now = time.monotonic()
        took = f" (stage {self.number} took {now - self.since:.0f} s)" if self.number else ""
        self.number += 1
        self.since = now
        err.print(f"grader: checking {escape(self.checked)}, stage {self.number}: {escape(title)}{took}",
                  soft_wrap=True)


def cmd_check(args) -> int:
    assignments, cfg_path = _assignments(args)
    path = Path(args.path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or folder.")
    assignment = (pick(assignments, args.assignment, cfg_path) if args.assignment
                  else usecases.assignment_for(assignments, path))
    outcome = usecases.check(assignment, path, seed=args.seed, on_stage=StageLines(path.name))
    report, note = outcome.report, outcome.note
    if args.json:
        doc = report.to_json()
        out = {"passed": report.passed, "points": report.points, "max_points": report.max_points,
               "assignment": assignment.name,
               "checks": [{k: c[k] for k in ("name", "title", "passed", "points", "max_points", "message",
                                                       "needs_human", "required", "informational")}
                          | {"picture": c["picture"]} for c in doc["checks"]],
               "games": [{k: g[k] for k in ("opponent", "seat", "result", "reason")} for g in report.games],
               "sandbox": report.sandbox, "seed": report.seed, "environment": report.environment}
        if note:
            out["note"] = note
        print(json.dumps(out, indent=2))
    else:
        if outcome.helpers:
            console.print(f"Checking the folder {escape(str(outcome.checked))}: {escape(path.name)} imports "
                          f"{escape(', '.join(outcome.helpers))} from beside it.")
        print_check_report(assignment, outcome.submission, report, console)
        if outcome.fix:
            console.print(escape(outcome.fix))
    return 0 if report.passed else 1


def cmd_play(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    if args.from_game is not None:
        return _play_branch(assignment, args)
    if args.b is None:
        raise UsageError("grader play needs two players (A B), or one with --from GAME_ID --ply N.")
    if args.games < 1:
        raise UsageError(f"--games must be at least 1 (got {args.games}).")
    seed = assignment.config.league.seed if args.seed is None else args.seed
    games = []
    for played in usecases.play(assignment, args.a, args.b, games=args.games, seed=seed):
        pair, result = played.seats, played.result
        games.append({"game": played.number, "seed": played.seed, "seat0": pair[0].display_name,
                      "seat1": pair[1].display_name, **result.to_json()})
        if not args.json:
            p0, p1 = result.points
            console.print(f"game {played.number} (seed {played.seed}): {markup(pair[0].display_name)} {p0:g} – "
                          f"{p1:g} {markup(pair[1].display_name)}: {markup(result.detail)} [{len(result.moves)} moves]")
            _print_incidents(pair, result)
    if args.json:
        print(json.dumps({"assignment": assignment.name, "games": games}, indent=2))
    return 0


def _play_branch(assignment, args) -> int:
    """`grader play MINE --from GAME --ply N`: renders `usecases.branch`."""
    if args.b is not None or args.ply is None:
        raise UsageError("grader play --from GAME_ID takes one player (yours) and --ply N, the recorded moves "
                         "to replay before it takes over.")
    branched = usecases.branch(assignment, args.a, args.from_game, args.ply, args.seat)
    result, seats = branched.result, branched.seats
    if args.json:
        print(json.dumps({"assignment": assignment.name, "from": args.from_game, "ply": branched.ply,
                          "seat": branched.seat, "seed": branched.recorded.seed, "seat0": seats[0].display_name,
                          "seat1": seats[1].display_name, **result.to_json()}, indent=2))
        return 0
    p0, p1 = result.points
    console.print(f"game {markup(args.from_game)} replayed to ply {branched.ply}, then "
                  f"{markup(seats[branched.seat].display_name)} played seat {branched.seat}: "
                  f"{markup(seats[0].display_name)} {p0:g} – {p1:g} {markup(seats[1].display_name)}: "
                  f"{markup(result.detail)} [{len(result.moves)} moves]")
    _print_incidents(seats, result)
    return 0


def _print_incidents(seats, result) -> None:
    """Each seat's incidents of a played game, one indented line each."""
    names = (seats[0].display_name, seats[1].display_name)
    for seat, rec in enumerate(result.players):
        for inc in rec.incidents:
            console.print(f"    {markup(incident_sentence(inc | {'seat': seat}, names))}")


def cmd_run(args) -> int:
    assignments, cfg_path = _assignments(args)
    names = [args.assignment] if args.assignment else list(assignments)
    skipped = []
    for name in names:
        assignment = pick(assignments, name, cfg_path)
        problem = usecases.cannot_run(assignment)
        if problem:
            if len(names) == 1:
                raise UsageError(problem)
            err.print(f"grader: {escape(problem)} Skipped; the other assignments run.")
            skipped.append(name)
            continue
        console.rule(f"[bold]{escape(assignment.title)}[/]")
        outcome = usecases.grade_league(assignment, fresh=args.fresh, progress=not args.quiet, console=console,
                                        site=not args.no_report)
        print_standings(console, outcome.document)
        console.print(markup(outcome.run.summary_line()))
        for label, path in outcome.paths.items():
            console.print(f"  {label}: {escape(str(path))}")
        if outcome.similarity is not None:
            print_similarity(console, outcome.similarity)
        console.print(escape(outcome.grading))
    if skipped:
        err.print(f"grader: not run: {', '.join(skipped)} (see above).")
        return 2
    return 0


def cmd_standings(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    print_standings(console, usecases.results(assignment))
    return 0


def cmd_report(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    for label, path in usecases.write_report(
            assignment, on_progress=lambda line: err.print(escape(line), soft_wrap=True)).items():
        console.print(f"{label}: {escape(str(path))}")
    return 0


def cmd_init(args) -> int:
    made = usecases.init_course(Path(args.folder), args.assignment or [])
    console.print(f"Made the course folder {escape(str(made.folder))}: {escape(str(made.config))} (every setting, "
                  f"commented), {', '.join(escape(str(p)) for p in made.submissions)} (empty), "
                  f"{escape(str(made.readme))} (the next commands).")
    console.print(f"Next: cd {escape(str(made.folder))} && grader import <LMS download>.zip "
                  f"--assignment {escape(args.assignment[0])}")
    return 0


def cmd_new_game(args) -> int:
    made = usecases.new_game(args.name, args.like)
    console.print(f"Made the game {escape(made.name)} in {escape(str(made.folder))}: "
                  + ", ".join(escape(str(p.relative_to(made.folder))) for p in made.files) + ".")
    console.print(f"Next: grader init <course folder> --assignment {escape(made.name)}, then grader check "
                  f"{escape(str(made.folder / 'skeleton'))} --assignment {escape(made.name)} (docs/NEW_GAME.md).")
    return 0


def cmd_selftest(args) -> int:
    outcome = usecases.selftest_game(args.name)
    marks = {"passed": "[green]pass[/green]", "failed": "[red]FAIL[/red]", "skipped": "[yellow]skip[/yellow]"}
    for r in outcome.results:
        console.print(f"{marks[r.status]}  {escape(r.name)}: {escape(r.proves)}."
                      + (f" {escape(r.sentence)}" if r.sentence else ""))
    failed = [r.name for r in outcome.results if r.status == "failed"]
    if failed:
        console.print(f"The game {escape(outcome.game)} failed {len(failed)} of {len(outcome.results)} checks: "
                      f"{escape(', '.join(failed))}.")
        return 1
    console.print(f"The game {escape(outcome.game)} passed every check the grader's tests run on every game.")
    return 0


def cmd_import(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    imported = usecases.import_class(assignment, cfg_path, Path(args.source), fmt=args.format,
                                     roster=Path(args.roster) if args.roster else None)
    console.print(escape(str(imported.report)))
    if not imported.anything:
        hint = f" Is --format {args.format} right for this download?" if args.format != "auto" else ""
        err.print(f"grader: nothing was imported from {escape(str(imported.source))} "
                  f"({len(imported.report.refused)} refused).{escape(hint)}")
        return 1
    console.print(f"Next: grader run {assignment.name}")
    return 0


def cmd_export(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    if args.gradescope:
        raise UsageError("Gradescope takes no per-student results.json files, so 'export --gradescope' is gone: "
                         f"build the autograder with 'grader gradescope {assignment.name}' and upload it to a "
                         "Gradescope programming assignment; league grades go to the LMS with --moodle, "
                         "--canvas or the plain CSV.")
    export = usecases.export_grades(assignment, out=Path(args.out) if args.out else None,
                                    moodle=Path(args.moodle) if args.moodle else None,
                                    canvas=Path(args.canvas) if args.canvas else None,
                                    canvas_assignment=args.canvas_assignment, allow_partial=args.allow_partial)
    if export.refusal:
        err.print(f"grader: {escape(export.refusal)}")
        return 1
    if export.csv is not None:
        console.print(f"Wrote {escape(str(export.csv))}: {len(export.rows)} students{escape(export.flag_count)}.")
        for line in export.flagged:
            console.print(escape(line))
    for summary in export.filled:
        console.print(escape(summary))
    if export.unmatched:
        err.print(f"grader: {escape(export.unmatched)}")
        return 1
    if export.problem:
        raise UsageError(export.problem)
    if export.review is not None:
        console.print(f"The feedback with the similarity flags, for you to review (not to upload): "
                      f"{escape(str(export.review))}")
    return 0


def cmd_gradescope(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    out = usecases.autograder(assignment, cfg_path, args.out, visibility=args.visibility, leaderboard=args.leaderboard)
    console.print(f"Wrote {escape(str(out))}: upload it as the autograder of a Gradescope programming "
                  f"assignment (Ubuntu base image); every upload then gets the {escape(assignment.name)} "
                  f"validation stages as tests.")
    return 0


def cmd_similarity(args) -> int:
    assignments, cfg_path = _assignments(args)
    print_similarity(console, usecases.similarity(pick(assignments, args.assignment, cfg_path)))
    return 0


def cmd_serve(args) -> int:
    try:                                   # here, not above: the service is an optional extra (Starlette, Uvicorn)
        from .serve.supervisor import serve
    except ImportError as exc:
        raise UsageError(f"the upload service needs its extra packages ({exc.name} is missing): "
                         f"pip install 'game-grader[serve]' (make serve does it).") from None
    path = Path(args.config) if args.config else default_config_path()
    _assignments(args)                                   # a broken config is one sentence before anything starts
    serve(path, host=args.host, port=args.port, workers=args.workers, echo=lambda s: console.print(escape(s)))
    return 0


def cmd_package_for_students(args) -> int:
    assignments, cfg_path = _assignments(args)
    assignment = pick(assignments, args.assignment, cfg_path)
    made = usecases.package_for_students(
        assignment, cfg_path, Path(args.out) if args.out else None,
        find_links=tuple(Path(p) for p in args.find_links or ()), no_index=args.no_index,
        dependencies=not args.without_dependencies, say=lambda line: err.print(escape(line)))
    console.print(f"Wrote {escape(str(made.zip_path))}: {escape(made.wheel_name)} (the grader with "
                  f"{escape(str(cfg_path))}), {len(made.course_wheels)} course wheel(s), "
                  f"{len(made.dependency_wheels)} dependency wheel(s) and INSTALL.txt. Give it to your students: "
                  f"unzip, then the command in INSTALL.txt.")
    for note in made.notes:
        console.print(escape(note))
    return 0


def cmd_doctor(args) -> int:
    print_doctor(console, usecases.protections())
    return 0


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
    p.add_argument("b", nargs="?", help="the opponent: a submission, or one of the course's players by name: a "
                                        "built-in (grader play mine.py random) or a sparring player the course "
                                        "ships (sparring:NAME); not with --from: the recorded game's plays again")
    p.add_argument("--assignment")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int)
    p.add_argument("--from", dest="from_game", metavar="GAME_ID",
                   help="branch a league game (the id its replay page shows): replay it to --ply, then A plays on")
    p.add_argument("--ply", type=int, help="with --from: how many of the recorded moves to replay first")
    p.add_argument("--seat", type=int, help="with --from: the seat A takes (default: the one not a built-in's)")
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

    p = sub.add_parser("init", help="start a course folder: config.yaml with every setting, submissions/, a README")
    p.add_argument("folder", help="the course folder to make (anywhere)")
    p.add_argument("--assignment", action="append", help="a game this course grades (repeat for several)")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("new-game", help="a new game's package from a template: rules, shim, probes, a built-in, a skeleton")
    p.add_argument("name", help="the game's name (a Python package name: lower-case, digits, _)")
    p.add_argument("--like", default="colosseum",
                   help="the shape of the course's student API to start from (colosseum: a class whose method gets "
                        "plain values; bohnenspiel: a subclass of the course's own Player shown its Board object)")
    p.set_defaults(func=cmd_new_game)

    p = sub.add_parser("selftest", help="run on one game every check the grader's tests run on every game, "
                                        "saying what each proves")
    p.add_argument("name", help="the game's name (a package under rulesets/ or an installed one)")
    p.set_defaults(func=cmd_selftest)

    p = sub.add_parser("import", help="import a class download from the LMS (Moodle, Canvas, Gradescope, BRUTE, folder)")
    p.add_argument("source", help="the downloaded zip or its unpacked folder")
    p.add_argument("--assignment", help="assignment name from the config")
    p.add_argument("--format", default="auto", choices=["auto", "moodle", "canvas", "gradescope", "brute", "folder"])
    p.add_argument("--roster", "--worksheet", "--gradebook", dest="roster", metavar="FILE",
                   help="what the LMS recorded (names, teams, upload times): Moodle's grading worksheet, "
                        "Canvas's gradebook or submissions export (JSON), or a CSV with student_id,uploaded_at")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", help="grades and feedback for the LMS: plain CSV, Moodle worksheet, Canvas")
    p.add_argument("assignment", nargs="?")
    p.add_argument("--moodle", metavar="WORKSHEET", help="fill this Moodle offline grading worksheet")
    p.add_argument("--canvas", metavar="GRADEBOOK", help="fill this Canvas gradebook export")
    p.add_argument("--canvas-assignment", help="the Canvas gradebook column (title or id)")
    p.add_argument("--gradescope", help=argparse.SUPPRESS)      # gone: a sentence says what to do instead
    p.add_argument("--out", help="where to write (default: next to the input, or reports/<assignment>/grades.csv)")
    p.add_argument("--allow-partial", action="store_true",
                   help="write the LMS file even when some graded students are not in it")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("gradescope", help="build a Gradescope autograder zip that runs the validation stages")
    p.add_argument("assignment", nargs="?")
    p.add_argument("--out", default="autograder.zip", help="where to write the zip (default: autograder.zip)")
    p.add_argument("--visibility", default="visible",
                   choices=usecases.AUTOGRADER_VISIBILITIES,
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

    p = sub.add_parser("package-for-students",
                       help="a zip students install the grader from: this course's config and packages, offline")
    p.add_argument("assignment", nargs="?")
    p.add_argument("--out", help="where to write the zip (default: <assignment>-for-students.zip)")
    p.add_argument("--find-links", action="append", metavar="DIR",
                   help="also take wheels from this folder (repeat for several)")
    p.add_argument("--no-index", action="store_true", help="take wheels only from --find-links (no network)")
    p.add_argument("--without-dependencies", action="store_true",
                   help="leave out the grader's own dependencies (students' pip takes them from PyPI)")
    p.set_defaults(func=cmd_package_for_students)

    p = sub.add_parser("doctor", help="list which sandbox protections this machine can apply")
    p.set_defaults(func=cmd_doctor)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ConfigError, UsageError, usecases.Refused) as exc:
        err.print(f"grader: {escape(str(exc))}")
        return 2
    except KeyboardInterrupt:
        err.print("grader: interrupted.")
        return 130


if __name__ == "__main__":
    sys.exit(main())
