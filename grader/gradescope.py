"""The grader as a Gradescope autograder: what runs inside the zip grader/autograder_zip.py builds.

`run_submission` is what the zip's run_autograder calls: exactly the validation stages `grader check` and
the server run, in the same sandbox, written as Gradescope's `results.json`
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): one test per stage with name,
score, max_score, status, output (the stage's message and the picture of a failing position) and
visibility; the top-level score is the sum of the tests; an optional leaderboard. Where the
container lacks a sandbox layer (Docker often refuses namespaces or Landlock), the rest still
applies and the output says which layers are missing, as `grader check` does.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from . import usecases
from .assignment import Assignment, ConfigError, load_assignments, pick
from .check_report import game_line, sandbox_summary
from .validation import ValidationReport


def results_json(report: ValidationReport, *, visibility: str = "visible", leaderboard: bool = False) -> dict:
    """A validation report as Gradescope's results.json."""
    tests: list[dict[str, Any]] = []
    for c in report.checks:
        output = (c.message or "").strip()
        if c.picture:
            output += ("\n\n" if output else "") + c.picture
        kind = "informational" if c.informational else ("required" if c.required else "graded")
        tests.append({"name": c.title, "score": float(c.points), "max_score": float(c.max_points),
                      "status": "passed" if c.passed else "failed", "output": output or "passed",
                      "tags": [kind], "visibility": visibility})
    lines = [usecases.stored_verdict_sentence(report.to_json())]    # the last line of `grader check`, as the LMS gets it
    lines += [game_line(g)[0].upper() + game_line(g)[1:] + "." for g in report.games]
    held = sandbox_summary(report.sandbox)
    if held:
        lines.append(held[-1].replace("Sandbox on this machine", "Sandbox protections that held for this run")
                     .replace(" (grader doctor says more)", ""))
    lines.append(report.replay)
    missing = [f"{k}: {v}" for k, v in report.sandbox.items() if v.startswith("missing") or "no cgroup" in v]
    if missing:
        lines.append("This autograder container lacks some sandbox protections (the others still apply): "
                     + "; ".join(missing) + ".")
    score = sum(float(t["score"]) for t in tests)          # the stages' points: nothing else is Gradescope's
    doc: dict[str, Any] = {"score": score, "output": "\n".join(lines), "output_format": "text",
           "test_output_format": "text", "visibility": visibility, "stdout_visibility": "hidden", "tests": tests}
    if leaderboard:
        won = sum(1 for g in report.games if g.get("result") == "win")
        doc["leaderboard"] = [{"name": "Stage points", "value": doc["score"]},
                              {"name": "Smoke games won", "value": won}]
    return doc


def run_submission(root: Path, assignment: Assignment, *, visibility: str = "visible",
                   leaderboard: bool = False) -> dict:
    """Validate `<root>/submission` and write `<root>/results/results.json`; returns the document."""
    report = usecases.check(assignment, root / "submission", sub_id="submission").report
    doc = results_json(report, visibility=visibility, leaderboard=leaderboard)
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
                                                   encoding="utf-8")
    return doc


def not_graded(root: Path, sentence: str) -> int:
    """results.json scoring 0 with `sentence` (the course's problem, never the student's); exit status 2."""
    doc = {"score": 0.0, "output": sentence, "tests": []}
    (root / "results").mkdir(parents=True, exist_ok=True)
    (root / "results" / "results.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    print(sentence, file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.gradescope", description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    parser.add_argument("--config", required=True)
    parser.add_argument("--assignment", required=True)
    parser.add_argument("--visibility", default="visible", choices=usecases.AUTOGRADER_VISIBILITIES)
    parser.add_argument("--leaderboard", action="store_true")
    args = parser.parse_args(argv)
    root = Path(args.root)
    try:
        assignment = pick(load_assignments(args.config), args.assignment, args.config)
    except ConfigError as exc:
        return not_graded(root, f"The autograder is misconfigured (not the student's fault): {exc}")
    try:
        doc = run_submission(root, assignment, visibility=args.visibility, leaderboard=args.leaderboard)
    except usecases.Refused as exc:
        return not_graded(root, f"The autograder cannot grade here (not the student's fault): {exc}")
    print(doc["output"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
