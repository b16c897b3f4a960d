"""Fixtures of the LMS and archive tests; the archive builders live in lms_builders.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def box(tmp_path: Path) -> Path:
    """A folder whose only child is `dest`'s parent, so 'nothing written outside' can be checked."""
    (tmp_path / "box").mkdir()
    return tmp_path / "box"
