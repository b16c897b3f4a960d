"""What everything after play costs at a 300-student round robin: results.json, both sites
(instructor's and public), their size, CPU and the manager's peak memory.

The store is synthetic (no games are played): 300 submissions, each pair's games carrying the
moves of real random Bohnenspiel games (a pool played once by the engine), saved as the league
saves them. The outputs are made by the real code: `results_document` (a stream over the store),
`write_results`, `render_sites` with the ruleset's board script (positions drawn in the browser).
Each size runs in a fresh process so its peak memory (ru_maxrss) is its own. The full size
(90 300 games) is run when BENCH_REPORT_FULL=1; by default a tenth and a fifth of it are measured
and the full size extrapolated linearly (printed as such). Another game and the old pictures: see
`_game_choice` (BENCH_REPORT_GAME, BENCH_REPORT_PICTURES).
"""
from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import rulesets

STUDENTS = 300
FULL_GAMES = STUDENTS * (STUDENTS - 1)          # a double round robin: 89 700; the 90 300 counts 301 entrants
CONFIG = Path(__file__).resolve().parents[1] / "config.yaml"


def _game_choice() -> tuple[str, bool]:
    """BENCH_REPORT_GAME: the assignment of config.yaml whose random games fill the store (default
    bohnenspiel); BENCH_REPORT_PICTURES=frames: the sites made as for a ruleset without a board
    script (each game replayed by the engine, a picture per ply stored in its record) instead of
    as write_sites makes them (the board script, and the start position where the ruleset stores one)."""
    return os.environ.get("BENCH_REPORT_GAME", "bohnenspiel"), os.environ.get("BENCH_REPORT_PICTURES") == "frames"


def _pictures(assignment) -> dict:
    """render_sites' arguments for the pictures, as _game_choice says."""
    from grader.outputs import replay_frames, site_pictures

    return {"frames": replay_frames(assignment)} if _game_choice()[1] else site_pictures(assignment)


def _pool(assignment, n: int = 200) -> list[tuple[list, list]]:
    """`n` whole random games (seeds 0..n-1): (wire moves, texts)."""
    games = []
    for i in range(n):
        rng, state = random.Random(i), assignment.game.new_state(i)
        wires, texts = [], []
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            texts.append(state.move_text(move))
            wires.append(state.move_to_json(move))
            state.play(move)
        games.append((wires, texts))
    return games


def build_store(path: Path, assignment, games: int) -> tuple[list[str], list[str]]:
    """A store of `games` games among STUDENTS submissions (round robin order, cut at `games`)."""
    from grader.store import GameRecord, Store

    pool = _pool(assignment)
    ids = [f"student{i:03d}" for i in range(STUDENTS)]
    keys = []
    with Store(path) as store:
        n = 0
        for a in ids:
            for b in ids:
                if a == b or n >= games:
                    continue
                wires, texts = pool[n % len(pool)]
                points = (1.0, 0.0) if n % 3 else (0.0, 1.0)
                players = json.dumps([{"slowest_move_s": 0.01, "peak_memory_mb": 30.0, "moves": len(wires) // 2,
                                       "output": "", "incidents": []}] * 2)
                key = f"{n:08d}{a}{b}"
                store.save_game(GameRecord(
                    key, assignment.name, None, f"{a}|{b}", a, b, "h" + a, "h" + b, n % len(pool), 0, "league", *points,
                    "no_moves", "Player 1 had no legal move.", json.dumps({"moves": wires, "texts": texts}),
                    json.dumps([[0.01, 0.009]] * len(wires)), players, "done", float(n)))
                keys.append(key)
                n += 1
    return ids, keys


def child(games: int, folder: Path) -> dict:
    """One size, measured in this process: build the store (not timed), then the outputs."""
    from grader.assignment import load_assignments
    from grader.outputs import results_document, write_results
    from grader.report import render_sites
    from grader.store import Store

    assignment = load_assignments(CONFIG)[_game_choice()[0]]
    ids, keys = build_store(folder / "league.db", assignment, games)
    subs = [SimpleNamespace(id=s, display_name=s.title(), metadata={}, source=str(folder / s), problem="")
            for s in ids]
    rows = [SimpleNamespace(id=s, rank=n + 1, points=float(STUDENTS - n), wins=STUDENTS - n, draws=0, losses=n,
                            games=2 * (STUDENTS - 1), rating=1500.0 - n, rating_low=1450.0 - n, rating_high=1550.0 - n)
            for n, s in enumerate(ids)]
    run: Any = SimpleNamespace(keys=keys, standings=SimpleNamespace(rows=rows), submissions=subs, entrants=[], disqualified={},
                          validations={s: {"passed": True, "points": 1, "max_points": 1, "checks": []} for s in ids},
                          summary_line=lambda: "synthetic", baseline_scores=None)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c0, t0 = time.process_time(), time.perf_counter()
    with Store(folder / "league.db") as store:
        doc = results_document(assignment, run, {}, store)
    (folder / "out").mkdir()
    write_results(folder / "out" / "results.json", doc)
    doc_cpu = time.process_time() - c0
    render_sites(doc, [(folder / "out", False), (folder / "out" / "public", True)], **_pictures(assignment))
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    sites = sum(f.stat().st_size for f in (folder / "out").rglob("*") if f.is_file() and f.suffix != ".json")
    return {"games": games, "cpu_s": cpu, "doc_cpu_s": doc_cpu, "wall_s": wall, "sites_bytes": sites,
            "results_bytes": (folder / "out" / "results.json").stat().st_size,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "rss_before_mb": rss_before / 1024}


def measure(games: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-report-"))
    try:
        proc = subprocess.run([sys.executable, "-m", "benchmarks.bench_report", "--child", str(games), str(folder)],
                              capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[1])
        return json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _row(case: str, m: dict) -> dict:
    return {"case": case, "students": STUDENTS, "games": f"{m['games']:,}",
            "CPU s (doc + sites)": f"{m['cpu_s']:.1f} ({m['doc_cpu_s']:.1f} + {m['cpu_s'] - m['doc_cpu_s']:.1f})",
            "sites MB": f"{m['sites_bytes'] / 1e6:.0f}", "results.json MB": f"{m['results_bytes'] / 1e6:.0f}",
            "peak RSS MB": f"{m['peak_rss_mb']:.0f}"}


def run() -> tuple[str, list[dict]]:
    full = os.environ.get("BENCH_REPORT_FULL") == "1"
    sizes = [FULL_GAMES] if full else [FULL_GAMES // 10, FULL_GAMES // 5]
    measured = [measure(n) for n in sizes]
    rows = [_row("measured", m) for m in measured]
    if not full:                                # a line through the two sizes, out to the full one
        a, b = measured
        span = b["games"] - a["games"]
        guess = {k: b[k] + (b[k] - a[k]) / span * (FULL_GAMES - b["games"])
                 for k in ("cpu_s", "doc_cpu_s", "sites_bytes", "results_bytes", "peak_rss_mb")}
        rows.append(_row("EXTRAPOLATED (linear)", guess | {"games": FULL_GAMES}))
    share = 2 * (STUDENTS - 1) / FULL_GAMES
    rows.append({"case": "one changed submission: its share of the games", "students": STUDENTS,
                 "games": f"{2 * (STUDENTS - 1):,}", "CPU s (doc + sites)": f"{share:.2%} of the games",
                 "sites MB": "", "results.json MB": "", "peak RSS MB": ""})
    return "Outputs of a 300-student league (results.json + both sites)", rows


def pictures_by_game(games: Sequence[str] | None = None) -> list[dict]:
    """Each game's sites per stored game, pictures stored per ply (frames, the fallback) against
    drawn by the board script: the difference between two sizes, so the pages that do not grow
    with the games cancel out (frames: 299 and 897 games, as a tenth of 300 students plays about
    870, and Quoridor's pictures take 4.4 GB there; the board script: 897 and 8 970 games)."""
    games = rulesets.names() if games is None else games
    rows = []
    for game in games:
        per = {}
        for pictures, sizes in (("frames", (300, 100)), ("board", (100, 10))):
            os.environ.update(BENCH_REPORT_GAME=game, BENCH_REPORT_PICTURES=pictures)
            small, large = (measure(FULL_GAMES // k) for k in sizes)
            n = large["games"] - small["games"]
            per[pictures] = ((large["sites_bytes"] - small["sites_bytes"]) / n,
                             ((large["cpu_s"] - large["doc_cpu_s"]) - (small["cpu_s"] - small["doc_cpu_s"])) / n)
        (fb, fc), (bb, bc) = per["frames"], per["board"]
        rows.append({"game": game, "frames KB/game": f"{fb / 1e3:.1f}", "board KB/game": f"{bb / 1e3:.2f}",
                     "bytes ratio": f"{fb / bb:.0f}x", "frames ms/game": f"{fc * 1e3:.2f}",
                     "board ms/game": f"{bc * 1e3:.3f}", "CPU ratio": f"{fc / bc:.0f}x" if bc > 0 else "n/a"})
    os.environ.pop("BENCH_REPORT_GAME")
    os.environ.pop("BENCH_REPORT_PICTURES")
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(int(sys.argv[2]), Path(sys.argv[3]))))
    elif sys.argv[1:2] == ["--pictures"]:
        print("Sites per stored game: pictures stored per ply (frames) vs drawn by the board script")
        for row in pictures_by_game(*([sys.argv[2:]] if sys.argv[2:] else [])):
            print(row)
    else:
        title, rows = run()
        print(title)
        for row in rows:
            print(row)
