"""results.json, grades.csv and both sites of leagues already played, written by `grader/outputs.py`
as it is at a git ref and as it is in the working tree, from the same store and the same run, with
the clock stopped: byte for byte the same, or the differences named. Proof for a change that
reshapes how the results document is built but must not change what is written (issue 44.1).

Usage: python .ci/results_doc_same.py CONFIG ASSIGNMENT... [--ref main]
(run each league first, `grader --config CONFIG run ASSIGNMENT`: the games and validations are
then read from the store, nothing is played). Exits 1 on any difference."""
from __future__ import annotations

import argparse
import datetime as dt
import filecmp
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType, SimpleNamespace

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader import outputs  # noqa: E402  (the working tree's, after sys.path names it)
from grader.assignment import load_assignments  # noqa: E402
from grader.league import run_league  # noqa: E402
from grader.store import Store  # noqa: E402

STOPPED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


class _StoppedClock(dt.datetime):
    @classmethod
    def now(cls, tz: dt.tzinfo | None = None) -> _StoppedClock:
        return cls.fromtimestamp(STOPPED.timestamp(), tz)


def outputs_at(ref: str) -> ModuleType:
    """grader/outputs.py as it is at `ref`, loaded as a module of the working tree's package."""
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{ref}:grader/outputs.py"], capture_output=True,
                            text=True, check=True).stdout
    spec = importlib.util.spec_from_loader("grader._outputs_at_ref", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "grader"
    exec(compile(source, f"{ref}:grader/outputs.py", "exec"), module.__dict__)
    return module


def written(module: ModuleType, assignment, run, folder: Path) -> Path:
    """Everything `module` writes for this run (results.json, grades.csv, both sites) in `folder`."""
    module.dt = SimpleNamespace(datetime=_StoppedClock, UTC=dt.UTC)
    folder.mkdir(parents=True)
    with Store(assignment.store_path) as store:
        doc = module.results_document(assignment, run, module.compute_grades(assignment, run), store)
    module.write_results(folder / "results.json", doc)
    module.write_grades_csv(folder / "grades.csv", doc, assignment.config.report_url)
    module.render_sites(doc, [(folder, False), (folder / "public", True)], **module.site_pictures(assignment))
    return folder


def differences(a: Path, b: Path) -> list[str]:
    """The files that differ or are on one side only, relative to the two folders."""
    found: list[str] = []
    for left in sorted(a.rglob("*")):
        right = b / left.relative_to(a)
        if left.is_file() and not (right.is_file() and filecmp.cmp(left, right, shallow=False)):
            found.append(str(left.relative_to(a)))
    found += [str(r.relative_to(b)) for r in sorted(b.rglob("*")) if r.is_file() and not (a / r.relative_to(b)).exists()]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("assignments", nargs="+")
    parser.add_argument("--ref", default="main")
    args = parser.parse_args()
    before = outputs_at(args.ref)
    failed = False
    for name in args.assignments:
        assignment = load_assignments(args.config)[name]
        run = run_league(assignment, progress=False)
        with tempfile.TemporaryDirectory() as tmp:
            old = written(before, assignment, run, Path(tmp) / "before")
            new = written(outputs, assignment, run, Path(tmp) / "after")
            diff = differences(old, new)
            files = sum(1 for f in old.rglob("*") if f.is_file())
            size = (old / "results.json").stat().st_size
            print(f"{name}: {files} files (results.json {size} bytes, {len(run.keys)} games): "
                  + ("the same, byte for byte" if not diff else f"{len(diff)} differ: {', '.join(diff[:10])}"))
            failed |= bool(diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
