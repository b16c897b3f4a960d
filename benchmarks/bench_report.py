"""How long the HTML report takes for a large league: 200 submissions, 20,000 games.

The document is synthetic (no games are played); board pictures come from a cheap fake
`frames` function, so the figure is the report's own cost: templates, escaping, file writes.
"""
from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path

from grader.report import render_site

SUBMISSIONS = 200
GAMES = 20_000
PLIES = 40


def synthetic_document(n_subs: int = SUBMISSIONS, n_games: int = GAMES, plies: int = PLIES,
                       seed: int = 1) -> dict:
    """A results document of the given size with plausible values in every field."""
    rng = random.Random(seed)
    ids = [f"student{i:03d}" for i in range(n_subs)]
    stats = {s: {"points": 0.0, "wins": 0, "draws": 0, "losses": 0, "games": 0} for s in ids}
    cross: dict = {s: {} for s in ids}
    games = []
    for n in range(n_games):
        a, b = rng.sample(ids, 2)
        r = rng.random()
        points = [1.0, 0.0] if r < 0.45 else [0.0, 1.0] if r < 0.9 else [0.5, 0.5]
        gid = f"{a}-{b}-{n}"
        for me, other, p in ((a, b, points[0]), (b, a, points[1])):
            st = stats[me]
            st["points"] += p
            st["games"] += 1
            st["wins" if p == 1 else "losses" if p == 0 else "draws"] += 1
            cell = cross[me].setdefault(other, {"points": 0.0, "games": 0, "game_ids": []})
            cell["points"] += p
            cell["games"] += 1
            cell["game_ids"].append(gid)
        games.append({"id": gid, "seat0": a, "seat1": b, "seed": n, "game_index": n % 4,
                      "points": points, "reason": "goal", "detail": "Player 0 reached the goal row.",
                      "moves": [[k % 9, k // 9] for k in range(plies)],
                      "move_texts": [f"m{k}" for k in range(plies)],
                      "times": [[0.01 * k, 0.009 * k] for k in range(plies)], "incidents": [],
                      "reproduce": f"grader play {a} {b} --assignment demo --seed {n}"})
    order = sorted(ids, key=lambda s: -stats[s]["points"])
    submissions = [{"id": s, "display_name": s.title(), "status": "valid", "status_detail": None,
                    "validation": {"passed": True, "points": 3, "max_points": 3, "checks": [
                        {"name": "interface", "passed": True, "points": 1, "max_points": 1,
                         "message": "ok", "picture": "", "svg": None}]},
                    "rank": order.index(s) + 1, **stats[s], "rating": 1500 + rng.gauss(0, 100),
                    "rating_low": 1400, "rating_high": 1600, "grade": 8.5, "grade_max": 10,
                    "slowest_move_s": 0.8, "peak_memory_mb": 120.0, "output": "hello\n" * 20}
                   for s in ids]
    return {"assignment": {"name": "demo", "title": "Synthetic league", "ruleset": "quoridor",
                           "ruleset_version": "1", "limits": {"move_s": 1.0, "memory_mb": 500},
                           "league": {"format": "round_robin", "games_per_pair": 2, "seed": 1},
                           "generated_at": "2026-01-01T00:00:00Z", "grader_version": "0.1.0",
                           "anonymised": False},
            "submissions": submissions, "crosstable": cross, "games": games}


def fake_frames(game: dict) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="90" height="90"><circle cx="{5 + k}" '
            f'cy="45" r="4"/></svg>' for k in range(len(game.get("moves") or []) + 1)]


def run() -> tuple[str, list[dict]]:
    rows = []
    t0 = time.perf_counter()
    doc = synthetic_document()
    build_s = time.perf_counter() - t0
    out = Path(tempfile.mkdtemp(prefix="bench-report-"))
    try:
        for label, frames in (("without board pictures", None), ("with board pictures", fake_frames)):
            t0, c0 = time.perf_counter(), time.process_time()
            render_site(doc, out, frames)
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
            rows.append({"case": label, "submissions": SUBMISSIONS, "games": GAMES, "plies/game": PLIES,
                         "seconds": f"{seconds:.1f}", "CPU s": f"{cpu:.1f}", "games/s": f"{GAMES / seconds:,.0f}",
                         "site MB": f"{size / 1e6:.0f}"})
    finally:
        shutil.rmtree(out, ignore_errors=True)
    rows.append({"case": "building the synthetic document", "submissions": SUBMISSIONS, "games": GAMES,
                 "plies/game": PLIES, "seconds": f"{build_s:.1f}", "CPU s": "", "games/s": "", "site MB": ""})
    return "HTML report", rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
