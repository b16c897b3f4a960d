"""How long `grader check` takes on every correct bundled submission, stage by stage.

The figure a student waits for. Validation only (config loading and interpreter start-up add
about half a second); the smoke games are shown apart because they are mostly the player's own
thinking. Fresh-process positions (Double Card's scripted games) run one per core.
"""
from __future__ import annotations

import time
from pathlib import Path

from grader.assignment import load_assignments
from grader.submissions import load
from grader.validation import validate

ROOT = Path(__file__).resolve().parents[1]
CORRECT = {
    "quoridor": ["alice", "bob", "cyril"],
    "colosseum": ["baseline_student"],
    "bohnenspiel": ["greedy_student", "data_reader"],
    "doublecard": ["baseline_student"],
    "rbnim": ["correct_module", "correct_program"],
}


def run() -> tuple[str, list[dict]]:
    assignments = load_assignments(ROOT / "config.yaml")
    rows = []
    for name, folders in CORRECT.items():
        a = assignments[name]
        for folder in folders:
            sub = load(ROOT / "submissions" / name / folder, a.ruleset.entry, a.max_submission_mb)
            marks: list[tuple[str, float]] = []
            t0 = time.perf_counter()
            report = validate(a, sub, on_stage=lambda title, marks=marks: marks.append((title, time.perf_counter())))
            total = time.perf_counter() - t0
            ends = [t for _, t in marks[1:]] + [t0 + total]
            spans = {title: end - start for (title, start), end in zip(marks, ends)}
            smoke = spans.get("Smoke games", 0.0)
            slowest = max(spans, key=spans.__getitem__) if spans else ""
            rows.append({"submission": f"{name}/{folder}", "passed": report.passed,
                         "check s": f"{total:.2f}", "w/o smoke s": f"{total - smoke:.2f}",
                         "slowest stage": f"{slowest[:24]} ({spans[slowest]:.2f} s)" if spans else ""})
    return "grader check of every correct bundled submission", rows
