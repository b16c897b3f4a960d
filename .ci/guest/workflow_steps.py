"""The nightly workflow's own commands (examples/nightly-league.yml), for the v2 guest to run as the
runner would: the install, `grader doctor` and the league, in that order, one shell command a line.
The league's command gets the guest's assignment and --no-report (one short league, no site).

Usage: python workflow_steps.py WORKFLOW.yml ASSIGNMENT   (a Python with PyYAML: the project's venv)"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

WANTED = (("install", lambda run: "venv" in run and "pip install" in run),
          ("doctor", lambda run: "grader doctor" in run),
          ("league", lambda run: "grader run" in run))


def main(workflow: str, assignment: str) -> int:
    jobs = yaml.safe_load(Path(workflow).read_text(encoding="utf-8"))["jobs"]
    runs = [step["run"].strip() for job in jobs.values() for step in job.get("steps", []) if "run" in step]
    for what, matches in WANTED:
        found = [run for run in runs if matches(run)]
        if len(found) != 1 or "\n" in found[0]:
            print(f"{workflow} has {len(found)} one-line steps that look like its {what}; expected one", file=sys.stderr)
            return 2
        print(found[0] + (f" {assignment} --no-report" if what == "league" else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
