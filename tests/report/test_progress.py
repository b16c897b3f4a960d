"""The terminal while `grader run` validates: which submission, which stage, how many are left,
each line short enough for an 80-column CI log."""
from __future__ import annotations

from pathlib import Path

from rich.console import Console

from grader import league
from grader.assignment import load_assignments
from grader.store import Store
from grader.submissions import Submission
from grader.validation import Check, ValidationReport

CONFIG = Path(__file__).resolve().parents[2] / "config.yaml"


def test_validation_prints_each_stage_and_what_is_left(tmp_path, monkeypatch):
    assignment = load_assignments(CONFIG)["quoridor"]

    def fake_validate(assignment, sub, factory=None, on_stage=None, workers=None):
        for title in ("Interface", "expand_player(): every legal step, nothing else", "Smoke games"):
            on_stage(title)
        return ValidationReport(sub.id, passed=True, points=5.138888, max_points=10,
                                checks=[Check("interface", "Interface", True, 0, 0, "ok")])

    monkeypatch.setattr(league, "validate", fake_validate)
    subs = [Submission(f"s{i}", tmp_path, content_hash=f"h{i}", name=n) for i, n in
            enumerate(["ann", "a student whose display name is far too long for one line", "cy"])]
    out = Console(record=True, width=200, force_terminal=False)
    shown = league.ValidationProgress(out)
    with Store(tmp_path / "store.sqlite") as store:
        league.validate_all(assignment, subs, store, on_progress=shown.finished, on_stage=shown.stage)
    lines = out.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    assert sum("validating" in line for line in lines) == 9
    ann = [line for line in lines if " ann" in line]
    assert ann[0].startswith("  validating ") and "/3 ann: Interface" in ann[0]
    assert any("ann: Smoke games" in line for line in ann)
    finished = [line for line in lines if line.startswith("  validated ")]
    assert [line.rsplit("(", 1)[1] for line in finished] == ["2 left)", "1 left)", "0 left)"]
    assert all("5.14/10 points" in line for line in finished)
