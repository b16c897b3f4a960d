"""The Gradescope autograder zip an instructor uploads to a Gradescope programming assignment.

`build_autograder` writes:

    setup.sh          run once by Gradescope on its Ubuntu image (as root, with network): installs
                      the system packages the sandbox uses (libseccomp2) and Python 3.11+, then this
                      project from grader-src/ into /autograder/venv
    run_autograder    run for every upload: `python -m grader.gradescope` on /autograder/submission
                      (grader/gradescope.py: what runs inside)
    config.yaml       this assignment's settings only (the course's limits and stages)
    grader-src/       this project's source (grader/, sandbox/, rulesets/, pyproject.toml, README.md)

run_autograder finds its root from where it sits (`<root>/run_autograder`, as Gradescope copies
it, or `<root>/source/run_autograder`), so it runs the same in any folder laid out like
Gradescope's; `AUTOGRADER_ROOT` overrides that. Its Python is `AUTOGRADER_PYTHON` if set, else
`<root>/venv/bin/python` (what setup.sh installs), else the first `python3` with this project installed.
"""
from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import yaml

from .assignment import Assignment
from .player_kinds import KINDS, allowed_builds

SOURCE_PARTS = ("grader", "sandbox", "rulesets", "pyproject.toml", "README.md", "config.yaml")   # pyproject's data
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once on its Ubuntu image, as root, with this zip unpacked in <root>/source
# (/autograder/source). It installs only what the image lacks, then this project into <root>/venv.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
ROOT="$(dirname "$HERE")"
python_311() {{
  for c in python3.13 python3.12 python3.11 python3; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$c"; return 0
    fi
  done
  return 1
}}
# libseccomp2: the sandbox's system-call filter; Python 3.11+ with venv: this project; {tools_text}
MISSING=""
ldconfig -p 2>/dev/null | grep -q 'libseccomp[.]so[.]2' || MISSING="$MISSING libseccomp2"
python_311 >/dev/null || MISSING="$MISSING python3 python3-venv python3.11 python3.11-venv"
for pair in {tools}; do
  command -v "${{pair%%=*}}" >/dev/null 2>&1 || MISSING="$MISSING ${{pair#*=}}"
done
if [ -n "$MISSING" ] && [ "$(id -u)" != 0 ]; then
  echo "setup.sh: this machine lacks$MISSING, and only root can install them." >&2
  exit 1
fi
if [ -n "$MISSING" ]; then
  apt-get update -qq
  for package in $MISSING; do                  # Ubuntu 22.04 has python3.11 in universe, 24.04 as python3
    apt-get install -y -qq "$package" || echo "setup.sh: $package not installed (another one may do)"
  done
fi
PY="$(python_311)" || {{ echo "setup.sh: no Python 3.11 or newer with venv could be installed." >&2; exit 1; }}
"$PY" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet "$HERE/grader-src"
"$ROOT/venv/bin/python" -c 'import grader.gradescope'
echo "setup.sh: installed the grader into $ROOT/venv"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every upload: the validation stages on the submission, as results.json.
# The root is where this script sits (Gradescope copies it to /autograder/; it also works from
# source/ inside any folder laid out the same way), or $AUTOGRADER_ROOT.
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
if [ -n "${{AUTOGRADER_ROOT:-}}" ]; then ROOT="$AUTOGRADER_ROOT"
elif [ -f "$HERE/config.yaml" ] && [ "$(basename "$HERE")" = source ]; then ROOT="$(dirname "$HERE")"
elif [ -f "$HERE/source/config.yaml" ]; then ROOT="$HERE"
else ROOT=/autograder; fi
PY="${{AUTOGRADER_PYTHON:-}}"
for candidate in "$ROOT/venv/bin/python" /autograder/venv/bin/python "$(command -v python3 || true)"; do
  if [ -z "$PY" ] && [ -x "$candidate" ] && "$candidate" -c 'import grader.gradescope' 2>/dev/null; then
    PY="$candidate"
  fi
done
if [ -z "$PY" ]; then
  mkdir -p "$ROOT/results"
  echo '{{"score": 0, "output": "The autograder is not installed (setup.sh did not finish); not the student'"'"'s fault.", "tests": []}}' \
    > "$ROOT/results/results.json"
  exit 2
fi
cd "$ROOT/source"
exec "$PY" -m grader.gradescope --root "$ROOT" --config "$ROOT/source/config.yaml" \
    --assignment {assignment} --visibility {visibility}{leaderboard}
"""


class AutograderProblem(ValueError):
    """The autograder cannot be built (one sentence)."""


def project_root() -> Path:
    """The folder holding this project's packages (the source the zip carries)."""
    return Path(__file__).resolve().parent.parent


def _assignment_config(config_path: Path, name: str) -> dict:
    """The assignment's own block of the config, made to stand alone in the autograder."""
    raw = yaml.safe_load(Path(config_path).read_text(encoding="utf-8")) or {}
    block = dict((raw.get("assignments") or {}).get(name) or {})
    block["submissions"] = "submissions"            # unused inside the autograder; must exist as a key
    block.pop("reports", None)
    block.pop("store", None)
    return {"assignments": {name: block}}


def build_autograder(assignment: Assignment, config_path: Path, out: Path, *, visibility: str = "visible",
                     leaderboard: bool = False) -> Path:
    """Write the autograder zip for `assignment` to `out` (see the module doc for its contents)."""
    if visibility not in VISIBILITIES:
        raise AutograderProblem(f"visibility must be one of {', '.join(VISIBILITIES)}, not {visibility!r}.")
    root = project_root()
    missing = [p for p in SOURCE_PARTS if not (root / p).exists()]
    if missing:
        raise AutograderProblem(f"this installation has no {', '.join(missing)} beside the grader package "
                                f"({root}); build the autograder from a checkout of the project.")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    script = RUN_AUTOGRADER.format(assignment=assignment.name, visibility=visibility,
                                   leaderboard=" --leaderboard" if leaderboard else "")
    config = yaml.safe_dump(_assignment_config(config_path, assignment.name), allow_unicode=True, sort_keys=False)
    tools = toolchain(assignment)
    setup = SETUP_SH.format(tools=" ".join(f"{cmd}={pkg}" for cmd, pkg in tools) or '""',
                            tools_text=", ".join(f"{pkg} ({cmd})" for cmd, pkg in tools) + " for the players' builds"
                            if tools else "no build tools (Python players only)")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        _add(z, "setup.sh", setup, executable=True)
        _add(z, "run_autograder", script, executable=True)
        _add(z, "config.yaml", config)
        for part in SOURCE_PARTS:
            path = root / part
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            for f in files:
                rel = f.relative_to(root)
                if "__pycache__" in rel.parts or f.suffix == ".pyc" or any(x.startswith(".") for x in rel.parts):
                    continue
                _add(z, f"grader-src/{rel.as_posix()}", f.read_bytes())
    return out


TOOL_PACKAGES = {name: (kind.tool, kind.package) for name, kind in KINDS.items()     # (command, Ubuntu package)
                 if kind.tool is not None and kind.package}


def toolchain(assignment: Assignment) -> list[tuple[str, str]]:
    """(command, Ubuntu package) of every tool the assignment's players may need: a JDK for a course
    taught in Java, and each allowed build of a line-protocol program."""
    wanted = ["javac"] if assignment.ruleset.java is not None else []
    if assignment.ruleset.lines is not None:
        wanted += [b for b in allowed_builds(assignment.config.programs.builds) if b in TOOL_PACKAGES]
    return [TOOL_PACKAGES[w] for w in dict.fromkeys(wanted)]


def _add(z: zipfile.ZipFile, name: str, data: str | bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
    z.writestr(info, data)
