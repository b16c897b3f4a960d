"""`make demo`: what an instructor sees on the bundled submissions, end to end.

Prints the sandbox protections of this machine, shows a student's `grader check` of one example,
then runs every assignment in the bundled config.yaml (validation, league, standings, grades, the
sites) and ends with what to do next with one's own class. It says first how long that takes and,
before each league, what it is about to do, so a quiet minute is not taken for a hang.
"""
from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

from rich.markup import escape

import rulesets

from . import usecases
from .assignment import Assignment, load_assignments
from .check_report import print_check_report
from .safetext import console
from .terminal_views import print_doctor, print_standings

ROOT = Path(__file__).resolve().parent.parent

# measured on this project's 2-core machine (docs/BENCHMARKS.md, "make demo"): keep the two in step
IDLE_MINUTES = (5, 8)
BUSY_MINUTES = ((9, 17), (14, 40))       # (load average, minutes)


def expected_duration(load: float | None, cores: int) -> str:
    """The demo's first line: how long to wait, from the measured figures and the machine's load now."""
    low, high = IDLE_MINUTES
    busy = " and ".join(f"{minutes} at a load of {at}" for at, minutes in BUSY_MINUTES)
    text = f"This demo takes about {low}–{high} minutes on an idle 2-core machine, {busy} (docs/BENCHMARKS.md)"
    if load is None:
        return text + "."
    note = " (busy: expect the longer figures)" if load >= cores else ""
    return text + f"; the load now is {load:.1f} on {cores} core{'s' if cores != 1 else ''}{note}."


def league_plan(assignment: Assignment) -> str:
    """What one league of the demo is about to do: its submissions, its format, its games."""
    folder = assignment.submissions_dir
    entries = sorted(c.name for c in folder.iterdir() if not c.name.startswith((".", "_"))) if folder.is_dir() else []
    league, grading = assignment.config.league, assignment.config.grading
    pair = f"{league.games_per_pair} game{'s' if league.games_per_pair != 1 else ''} a pair"
    n = len(entries)
    if league.format == "round_robin":
        players = n + len(league.builtins)
        builtins = f" and {len(league.builtins)} built-ins ({', '.join(league.builtins)})" if league.builtins else ""
        games = f"a round robin of those that pass{builtins}, {pair}: at most {math.comb(players, 2) * league.games_per_pair} games"
    elif league.format == "gauntlet":
        games = (f"each that passes against {', '.join(league.gauntlet)}, {pair}: at most "
                 f"{n * len(league.gauntlet) * league.games_per_pair} games")
    elif league.format == "random_subset":
        games = (f"each that passes against {league.opponents} random opponents, {pair}, then the top "
                 f"{league.top_fraction:.0%} play everyone")
    else:
        games = (f"waves of games where the ranking is in doubt, up to {league.adaptive.budget:.0%} of a round "
                 f"robin's games")
    beats = sorted({r.beats for r in grading.rules} | ({grading.must_beat} if grading.must_beat else set()))
    decide = (f"; then games against {', '.join(beats)} until each student's pass is decided (at most "
              f"{grading.max_games} each)") if beats else ""
    return (f"{assignment.name}: validating {n} submission{'s' if n != 1 else ''} ({', '.join(entries)}); "
            f"then {games}{decide}.")


def next_steps(reports: Path, grader: str = ".venv/bin/grader") -> list[str]:
    """The lines that end the demo: where to look, then import, grade, export and publish."""
    sites = sorted(p.parent.parent.name for p in reports.glob("*/public/index.html"))
    first = "quoridor" if "quoridor" in sites or not sites else sites[0]      # the BRUTE example first
    try:
        rel = str(reports.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        rel = str(reports)
    steps = []
    if sites:
        steps.append(f"Look at the leagues: {rel}/<assignment>/index.html is the instructor's site "
                     f"({', '.join(sites)}), {rel}/<assignment>/public/index.html the one students may see.")
    steps += [
        (f"Start your course apart from these demo players: {grader} init ~/my-course --assignment {first} "
         f"(it writes config.yaml, an empty submissions folder and a README of the next commands)"),
        (f"Bring your class in, inside ~/my-course: {grader} import ~/Downloads/<LMS download>.zip "
         f"--assignment {first} --roster <grading worksheet>"),
        f"Grade it: {grader} run {first}",
        (f"Send grades and feedback back: {grader} export {first} --moodle <grading worksheet> "
         f"(or --canvas; a plain CSV without options)"),
        f"Publish only {rel}/{first}/public/; keep the rest of {rel}/ private (names, paths, output).",
        f"Tell students to check before uploading: grader check {rulesets.load(first).entry} --assignment {first}",
    ]
    return ["Next steps:"] + [f"  {n}. {step}" for n, step in enumerate(steps, 1)]


def main() -> int:
    begun = time.monotonic()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    console.print(escape(expected_duration(load, os.cpu_count() or 1)))
    assignments = load_assignments(ROOT / "config.yaml")
    print_doctor(console, usecases.protections())
    example = ROOT / "submissions" / "quoridor" / "no_crossing"
    if example.exists() and "quoridor" in assignments:
        console.rule("[bold]A student's view: grader check on a submission with a bug[/]")
        checked = usecases.check(assignments["quoridor"], example)
        print_check_report(checked.assignment, checked.submission, checked.report, console)
    for assignment in assignments.values():
        console.rule(f"[bold]{escape(assignment.title)}[/]")
        unplayable = assignment.ruleset.game.unavailable()
        if unplayable is not None:                 # a referee whose language this machine lacks (a JDK)
            console.print(escape(f"Skipped: this machine cannot play it: {unplayable}."))
            continue
        console.print(escape(league_plan(assignment)))
        started = time.monotonic()
        outcome = usecases.grade_league(assignment, progress=True, console=console)
        print_standings(console, outcome.document)
        console.print(escape(outcome.run.summary_line()))
        console.print(escape(outcome.grading))
        console.print(f"({escape(assignment.name)} took {time.monotonic() - started:.0f} s)")
    console.rule(f"[bold]Done in {time.monotonic() - begun:.0f} s[/]")
    for line in next_steps(ROOT / "reports"):
        console.print(escape(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
