"""`make demo`: what an instructor sees on the bundled submissions, end to end.

Prints the sandbox protections of this machine, shows a student's `grader check` of one example,
then runs every assignment in the bundled config.yaml (validation, league, standings, grades, the
HTML site) and says where the reports are.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .cli import console, main as cli

ROOT = Path(__file__).resolve().parent.parent


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
        for index in sorted((ROOT / "reports").glob("*/index.html")):
            console.print(f"open {index}")
    return status


if __name__ == "__main__":
    sys.exit(main())
