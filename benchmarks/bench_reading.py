"""What a student's bytes cost the grader's own process: the largest source it reads and a console
output crafted against its readers, beside a normal check (issue 27: bounded parsing).

Each case is one `validate` of a Red-Blue Nim submission in a fresh interpreter, so each peak is its
own: the grader's peak resident memory (ru_maxrss of that process), its CPU time (the reading: the
program itself runs in the sandbox), the wall time, and the largest child it started (the bounded
parse, the sandboxed program). Ratios are to the normal check measured in the same run.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from grader import bounded

ROOT = Path(__file__).resolve().parents[1]
CORRECT = ROOT / "submissions" / "rbnim" / "correct_program" / "red_blue_nim.py"
MOVE_LINE = '            print(f"Computer takes {move[1]} {move[0]}.")'
# before each computer move, 7.5 KB against every reader: blanks after a count (the pile-and-count
# reader), "Computer" with no verb (the move and result readers), blank lines and a menu number
WORST_OUTPUT = ('            print("Computer takes 2" + " " * 2000 + "!\\n" + "Computer " * 200 + "\\n" * 1500 '
                '+ "1)" + " " * 2000 + "x")\n')

ONE_CHECK = """
import json, resource, sys, time
from pathlib import Path
from grader.assignment import load_assignments
from grader.submissions import load
from grader.validation import validate
a = load_assignments(Path(sys.argv[1]) / "config.yaml")["rbnim"]
sub = load(Path(sys.argv[2]), a.ruleset.entry, a.max_submission_mb)
t0, c0 = time.perf_counter(), time.process_time()
report = validate(a, sub)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "child": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                  "verdict": report.checks[-1].message[:70]}))
"""


def largest_source(folder: Path) -> Path:
    """The correct program padded with ordinary functions to just under the size the grader reads."""
    text = CORRECT.read_text()
    pads: list[str] = []
    n = 0
    while len(text) + sum(map(len, pads)) < bounded.MAX_SOURCE_BYTES - 200:
        pads.append(f"\n\ndef helper_{n}(red, blue):\n    total = 2 * red + 3 * blue\n    return total - {n}\n")
        n += 1
    folder.mkdir()
    main_guard = text.index('if __name__ == "__main__"')
    (folder / "red_blue_nim.py").write_text(text[:main_guard] + "".join(pads) + "\n\n" + text[main_guard:])
    return folder


def worst_output(folder: Path) -> Path:
    folder.mkdir()
    text = CORRECT.read_text()
    (folder / "red_blue_nim.py").write_text(text.replace(MOVE_LINE, WORST_OUTPUT + MOVE_LINE, 1))
    return folder


def measure(folder: Path, work: Path) -> dict:
    (work / "config.yaml").write_text((ROOT / "config.yaml").read_text())
    out = subprocess.run([sys.executable, "-c", ONE_CHECK, str(ROOT), str(folder)], capture_output=True, text=True,
                         cwd=ROOT, timeout=600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run() -> tuple[str, list[dict]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        cases = {"normal check (correct_program, 3.5 KB)": CORRECT.parent,
                 f"largest accepted source ({bounded.MAX_SOURCE_BYTES / 1e6:.1f} MB)": largest_source(work / "big"),
                 "worst-case console output (7.5 KB a move)": worst_output(work / "worst")}
        base = None
        for label, folder in cases.items():
            m = measure(folder, work)
            base = base or m
            rows.append({"case": label, "grader peak MB": f"{m['rss']:.0f}", "× normal": f"{m['rss'] / base['rss']:.2f}",
                         "grader CPU s": f"{m['cpu']:.2f}", "CPU × normal": f"{m['cpu'] / base['cpu']:.2f}",
                         "wall s": f"{m['wall']:.1f}", "wall × normal": f"{m['wall'] / base['wall']:.2f}",
                         "largest child MB": f"{m['child']:.0f}", "verdict": m["verdict"]})
    return "the grader's own cost of reading student bytes (rbnim, one check each)", rows
