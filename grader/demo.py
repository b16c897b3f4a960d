"""`make demo`: what an instructor sees on the bundled submissions, end to end.

Prints the sandbox protections of this machine, shows a student's `grader check` of one example,
then runs every assignment in the bundled config.yaml (validation, league, standings, grades, the
sites) and ends with what to do next with one's own class.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .cli import console
from .cli import main as cli

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
        (f"Bring your class in: {grader} import ~/Downloads/<LMS download>.zip --assignment {first} "
        f"--roster <grading worksheet>"),
        f"Grade it: {grader} run {first}",
        (f"Send grades and feedback back: {grader} export {first} --moodle <grading worksheet> "
        f"(or --canvas, --gradescope; a plain CSV without options)"),
        f"Publish only {rel}/{first}/public/; keep the rest of {rel}/ private (names, paths, output).",
        f"Tell students to check before uploading: grader check player.py --assignment {first}",
    ]
    return ["Next steps:"] + [f"  {n}. {step}" for n, step in enumerate(steps, 1)]


def main() -> int:
    config = str(ROOT / "config.yaml")
    cli(["--config", config, "doctor"])
    example = ROOT / "submissions" / "quoridor" / "no_crossing"
    if example.exists():
        console.rule("[bold]A student's view: grader check on a submission with a bug[/]")
        cli(["--config", config, "check", str(example), "--assignment", "quoridor"])
    status = cli(["--config", config, "run"])
    if status == 0:
        console.rule("[bold]Done[/]")
        from rich.markup import escape
        for line in next_steps(ROOT / "reports"):
            console.print(escape(line))
    return status


if __name__ == "__main__":
    sys.exit(main())
