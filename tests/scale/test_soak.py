"""The soak's short form (issue 33): several graders at once for GRADER_SOAK_MINUTES minutes (CI: 5),
honest players only; `make soak` is the 60-minute form (benchmarks/soak.py says what runs and what is
asserted). Skipped unless GRADER_SOAK_MINUTES is set: it takes that long whatever the machine."""
from __future__ import annotations

import os

import pytest

from benchmarks import soak

MINUTES = os.environ.get("GRADER_SOAK_MINUTES")


@pytest.mark.slow
@pytest.mark.timeout(int(float(MINUTES or 0) * 60) + 900)   # the run itself, then leagues alone and clean-up
@pytest.mark.skipif(not MINUTES, reason="the soak runs only when GRADER_SOAK_MINUTES is set (CI: 5)")
def test_graders_side_by_side_never_disturb_honest_players(tmp_path):
    figures = soak.run(float(MINUTES or 0), tmp_path)
    assert figures.failures == [], "\n".join(figures.failures)
    assert figures.games and figures.checks and figures.uploads, figures
