"""The move that lost a game is in the instructor's replay records and never on the public site."""
from __future__ import annotations

from grader.report import render_sites

from .test_site import published, records

FOUND = {"seat": 1, "ply": 1, "move": "e8", "kept": "d8", "before": 1, "after": -1, "exact": False, "depth": 4,
         "label": "estimate, depth 4", "sentence": "Move 2 (e8) turned a won position into a lost one; d8 kept it "
                                                   "won (estimate, depth 4)."}


def test_the_losing_move_is_in_the_private_replay_and_not_on_the_public_site(tmp_path, doc):
    for n, sub in enumerate(doc["submissions"]):
        sub["public_name"] = f"Calm Otter {n}"
    doc["games"][0]["losing_moves"] = {"1": FOUND}
    render_sites(doc, [(tmp_path / "instructor", False), (tmp_path / "public", True)])
    private = [r for r in records(tmp_path / "instructor").values() if r.get("losing")]
    assert [r["losing"] for r in private] == [[FOUND]]
    assert not any("losing" in r for r in records(tmp_path / "public").values())
    for path in published(tmp_path / "public"):
        text = path.read_text(encoding="utf-8")
        assert "kept it" not in text and "estimate, depth" not in text, path
