"""The similarity report on a class of 300 (goal: under a minute) and the collusion check's rates.

Class: 300 different real Python files of 200–400 lines (modules of the standard library and the
installed packages stand in for 300 independent students), 10 of them copied once more with every name changed, comments rewritten
and functions reordered; the row says whether each copy ranked above every honest pair.
Collusion: honest simulated leagues of mixed strength (benchmarks/simulated_leagues.py) give the
false-flag rate; leagues with one planted game-throwing pair give the detection rate.
"""
from __future__ import annotations

import sysconfig
import time
from pathlib import Path

CLASS_SIZE = 300
COPIES = 10
LEAGUES = 15


def _class_files() -> list[Path]:
    stdlib, packages = (Path(sysconfig.get_paths()[key]) for key in ("stdlib", "purelib"))
    candidates = [p for p in stdlib.rglob("*.py") if "site-packages" not in p.relative_to(stdlib).parts]
    candidates += list(packages.rglob("*.py"))
    files = []
    for path in sorted(candidates):
        if {"test", "tests", "encodings", "_vendor", "vendor"} & set(path.parts):
            continue
        try:
            lines = path.read_text(encoding="utf-8").count("\n")
        except (OSError, UnicodeDecodeError):
            continue
        if 200 <= lines <= 400:
            files.append(path)
    return files[:CLASS_SIZE]


def _similarity_row() -> dict:
    import tempfile

    import rulesets
    from benchmarks.disguise import disguise
    from grader.player_kinds import code_languages
    from grader.similarity import Document, compare, documents

    languages = code_languages(rulesets.load("quoridor"))

    def submission(doc_id: str, label: str, folder: Path) -> Document:
        (doc,), _ = documents(doc_id, "submission", label, folder, languages)   # each folder: one player.py
        return doc

    files = _class_files()
    with tempfile.TemporaryDirectory() as tmp:
        docs: list[Document] = []
        for n, path in enumerate(files):
            folder = Path(tmp) / f"s{n:03d}"
            folder.mkdir()
            (folder / "player.py").write_text(path.read_text(encoding="utf-8"))
            docs.append(submission(f"s{n:03d}", path.name, folder))
        for n in range(COPIES):
            folder = Path(tmp) / f"copy{n}"
            folder.mkdir()
            (folder / "player.py").write_text(disguise(files[n * 7].read_text(encoding="utf-8")))
            docs.append(submission(f"copy{n}", f"copy of {files[n * 7].name}", folder))
        t0 = time.perf_counter()
        report = compare(docs, [], [], languages=languages, min_score=0.3)
        seconds = time.perf_counter() - t0
    planted = {(f"s{n * 7:03d}", f"copy{n}") for n in range(COPIES)}
    ranked = [(p.a.id, p.b.id) for p in report.pairs]
    found = [n for n, pair in enumerate(ranked) if pair in planted]
    lines = sum(d.text.count("\n") for d in docs)
    lowest = f", the lowest at rank {max(found) + 1}" if found else ""
    return {"what": f"similarity: {len(docs)} submissions, {lines // len(docs)} lines each on average",
            "seconds": f"{seconds:.1f}", "result": f"{len(found)}/{COPIES} disguised copies listed{lowest}; "
            f"{len(ranked) - len(found)} other pairs listed (library files that really share code)"}


def _collusion_rows() -> list[dict]:
    from benchmarks.simulated_leagues import league
    from grader.collusion import find_collusion

    rows = []
    t0 = time.perf_counter()
    false = sum(bool(find_collusion(*league(n_players=8, games_per_pair=4, seed=100 + s))) for s in range(LEAGUES))
    rows.append({"what": f"collusion: {LEAGUES} honest leagues of 8 (skills 0.3–0.95, 4 games a pair)",
                 "seconds": f"{time.perf_counter() - t0:.1f}",
                 "result": f"{false} of {LEAGUES} leagues with any false flag"})
    t0 = time.perf_counter()
    hits = 0
    for s in range(LEAGUES):
        flags = find_collusion(*league(n_players=8, games_per_pair=4, seed=200 + s, thrower=("p5", "p2")))
        hits += any((f.player, f.beneficiary) == ("p5", "p2") for f in flags)
    rows.append({"what": f"collusion: {LEAGUES} leagues with p5 throwing to p2 (60 % of its steps away from its goal)",
                 "seconds": f"{time.perf_counter() - t0:.1f}", "result": f"found in {hits} of {LEAGUES}"})
    return rows


def run():
    return "Similarity and collusion", [_similarity_row(), *_collusion_rows()]
