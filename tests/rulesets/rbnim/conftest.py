"""Shared set-up for the Red-Blue Nim tests: in-process shim handlers (example folders: tests/rulesets/conftest.py)."""
from __future__ import annotations

import pytest

from rulesets.rbnim import shim


@pytest.fixture
def open_module():
    """open_module(folder) -> the shim handler of the module in `folder`, without a sandbox."""
    return lambda folder: shim.open_submission(str(folder), {})
