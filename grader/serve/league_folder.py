"""Where the service's league lives and what its students are called there: shared by the league's
worker, the pages that show its games, and practice matches (which name classmates as the league does)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path


def league_assignment(assignment, data_dir: Path):
    """The assignment as the service's league plays it: its own submissions and reports folders."""
    folder = (data_dir / "league" / assignment.name).resolve()
    config = assignment.config.model_copy(update={"submissions": str(folder / "submissions"),
                                                  "reports": str(folder / "reports"), "store": None})
    return replace(assignment, config=config)


def folder_name(login: str) -> str:
    """A login as a folder name (and the league's submission id)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", login).strip("._") or "student"
