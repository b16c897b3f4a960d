"""The adaptive league on a real league: `grader run` of Colosseum (6x6) players with the round
robin's standings to compare with.

The players are copies of the bundled baseline_student (submissions/colosseum) that play its greedy
move with probability `skill` and a random legal move otherwise (benchmarks/players/colosseum_skill),
skills spread evenly from 0 to 1, so the true order is known and the round robin finds it but for
noise. The same players in the same folder are run twice through the real CLI (sandboxed players,
the local pool): once `league.format: round_robin`, once `adaptive`; the row says whether the
adaptive league's top set (top_fraction) is the round robin's, with how many games.
ADAPTIVE_REAL_PLAYERS sets the field (default 20), ADAPTIVE_REAL_BUDGET the adaptive league's budget
(default 0.3), ADAPTIVE_REAL_FIELD the skills ("even", the default, or "gap": an obvious top set).
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from grader import usecases
from grader.assignment import load_assignments

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "submissions" / "colosseum" / "baseline_student"
SKILLED = ROOT / "benchmarks" / "players" / "colosseum_skill" / "student_agent.py"
PLAYERS = int(os.environ.get("ADAPTIVE_REAL_PLAYERS", "20"))
FIELD = os.environ.get("ADAPTIVE_REAL_FIELD", "even")
TOP_FRACTION = 0.25
BUDGET = float(os.environ.get("ADAPTIVE_REAL_BUDGET", "0.3"))
ADAPTIVE = {"first_opponents": 3, "wave_opponents": 1, "budget": BUDGET, "confidence": 0.95}


def skills_of(n: int, field: str) -> dict[str, float]:
    """{id: skill}, s00 the most skilled: "even" spreads 0..1 evenly; "gap" puts the top set (the
    top_fraction) at 1.0, 0.98, ... and everyone else at 0.6 or below, an obvious top set."""
    if field == "gap":
        top = math.ceil(TOP_FRACTION * n - 1e-9)
        values = [1 - 0.02 * k for k in range(top)] + [0.6 * (1 - j / max(1, n - top - 1)) for j in range(n - top)]
    else:
        values = [1 - k / max(1, n - 1) for k in range(n)]
    return {f"s{k:02d}": round(v, 3) for k, v in enumerate(values)}


def skilled_players(folder: Path, n: int, field: str = "even") -> dict[str, float]:
    """n submissions s00..s(n-1) under folder with the skills of `skills_of`; {id: skill}."""
    skills = skills_of(n, field)
    greedy = (BASELINE / "student_agent.py").read_text(encoding="utf-8")
    for sid, skill in skills.items():
        shutil.copytree(BASELINE, folder / sid)
        (folder / sid / "student_agent_greedy.py").write_text(
            greedy.replace('@register_agent("student_agent")', '@register_agent("greedy_agent")'), encoding="utf-8")
        shutil.copy(SKILLED, folder / sid / "student_agent.py")
        (folder / sid / "skill.py").write_text(f"SKILL = {skill}\n", encoding="utf-8")
    return skills


def config(folder: Path, fmt: str) -> Path:
    league = {"format": fmt, "games_per_pair": 2, "seed": 31, "top_fraction": TOP_FRACTION, "adaptive": ADAPTIVE}
    block = {"ruleset": "colosseum", "submissions": str(folder / "subs"), "game": {"board_size": 6},
             "validation": {"smoke_games": 0}, "league": league}
    path = folder / f"{fmt}.yaml"
    path.write_text(yaml.safe_dump({"assignments": {f"arena_{fmt}": block}}), encoding="utf-8")
    return path


def league(folder: Path, fmt: str) -> tuple[list[str], int, float, str]:
    """(ids best first, games played, seconds, the run's last adaptive line) of `grader run`."""
    path = config(folder, fmt)
    t0 = time.perf_counter()
    run = subprocess.run([str(Path(sys.executable).with_name("grader")), "--config", str(path), "run", f"arena_{fmt}",
                          "--no-report", "--quiet"], capture_output=True, text=True, cwd=folder, check=False)
    seconds = time.perf_counter() - t0
    if run.returncode:
        raise RuntimeError(f"grader run ({fmt}) failed: {run.stderr[-2000:]}")
    doc = usecases.results(load_assignments(path)[f"arena_{fmt}"])
    rows = [r for r in doc["submissions"] if r.get("rank") is not None]
    rows.sort(key=lambda r: r["rank"] or 0)
    games = sum(r["games"] or 0 for r in rows) // 2
    last = next((line for line in reversed(run.stdout.splitlines() + run.stderr.splitlines())
                 if "adaptive league over" in line), "")
    return [r["id"] for r in rows], games, seconds, last.strip()


def run():
    with tempfile.TemporaryDirectory(prefix="adaptive-real-") as tmp:
        folder = Path(tmp)
        skills = skilled_players(folder / "subs", PLAYERS, FIELD)
        top = math.ceil(TOP_FRACTION * PLAYERS - 1e-9)
        truth = sorted(skills, key=lambda s: -skills[s])[:top]
        rr, rr_games, rr_s, _ = league(folder, "round_robin")
        ad, ad_games, ad_s, reason = league(folder, "adaptive")
    rows = []
    for label, order, games, seconds in (("round robin", rr, rr_games, rr_s), ("adaptive", ad, ad_games, ad_s)):
        rows.append({f"league ({PLAYERS} Colosseum 6x6 players, skills {FIELD})": label, "games": games,
                     "of the round robin's": f"{games / rr_games:.0%}",
                     f"top {top}": " ".join(order[:top]),
                     "= round robin's top set": set(order[:top]) == set(rr[:top]),
                     "= most skilled": set(order[:top]) == set(truth),
                     "s": f"{seconds:.0f}", "stopped": reason if label == "adaptive" else ""})
    return "Adaptive league vs round robin, real Colosseum players through `grader run`", rows
