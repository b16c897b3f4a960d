"""`make demo`: what an instructor sees on the bundled submissions, end to end.

Prints the sandbox protections of this machine, shows a student's `grader check` of one example,
then runs every assignment in the bundled config.yaml (validation, league, standings, grades, the
sites) and ends with what to do next with one's own class.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rich.markup import escape

from . import usecases
from .assignment import load_assignments
from .check_report import print_check_report
from .safetext import console
from .terminal_views import print_doctor, print_standings

ROOT = Path(__file__).resolve().parent.parent


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
        f"Tell students to check before uploading: grader check player.py --assignment {first}",
    ]
    return ["Next steps:"] + [f"  {n}. {step}" for n, step in enumerate(steps, 1)]


def main() -> int:
    assignments = load_assignments(ROOT / "config.yaml")
    print_doctor(console, usecases.protections())
    example = ROOT / "submissions" / "quoridor" / "no_crossing"
    if example.exists() and "quoridor" in assignments:
        console.rule("[bold]A student's view: grader check on a submission with a bug[/]")
        checked = usecases.check(assignments["quoridor"], example)
        print_check_report(checked.assignment, checked.submission, checked.report, console)
    for assignment in assignments.values():
        console.rule(f"[bold]{escape(assignment.title)}[/]")
        outcome = usecases.grade_league(assignment, progress=True, console=console)
        print_standings(console, outcome.document)
        console.print(escape(outcome.run.summary_line()))
        console.print(escape(outcome.grading))
    console.rule("[bold]Done[/]")
    for line in next_steps(ROOT / "reports"):
        console.print(escape(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
