"""`grader check --json` run as a student runs it (its own process, the bundled config), one copy for
every test that reads the check's JSON; and the CLI run in the test's own process."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from grader.cli import main

ROOT = Path(__file__).resolve().parents[1]


def check_json(path: Path, assignment: str, *extra: str) -> tuple[int, dict]:
    """(exit status, the JSON document) of `grader check PATH --assignment ASSIGNMENT --json EXTRA...`."""
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(path), "--assignment", assignment, "--json", *extra],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.stdout.strip(), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def grader_cli(capsys, *argv: object) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of the grader's CLI run in this process with `argv`; never a traceback."""

    capsys.readouterr()
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return status, out.out, out.err
