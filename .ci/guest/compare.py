"""The v2 guest's verdicts against this host's (issue 39.2): each test's outcome in the guest's
JUnit XML against the host's for the same test id, and each league's standings and games (who
played whom, points, how each game ended, each submission's validation and grade) against the
host's league drawn from the same secret. Prints a short summary; exits 1 on any difference.

Usage: python3 compare.py RUN_FOLDER   (host.xml, guest.xml, host-results.json, guest-results.json,
runner-results.json, whichever exist; the harness .ci/v2-guest writes them)"""
from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

SHOWN = 25          # differences listed per comparison; the rest are counted


def outcomes(junit: Path) -> dict[str, tuple[str, str]]:
    """{test id: (passed | failed | error | skipped, the skip's or failure's first line)}."""
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        test = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, why = "passed", ""
        for kind in ("failure", "error", "skipped"):
            node = case.find(kind)
            if node is not None:
                outcome = {"failure": "failed"}.get(kind, kind)
                why = (node.get("message") or node.text or "").strip().splitlines()[0:1]
                why = why[0][:160] if why else ""
                break
        found[test] = (outcome, why)
    return found


def selected(selection: str) -> tuple[str, ...]:
    """The test id prefixes of pytest's path arguments ("tests/sandbox" -> "tests.sandbox.")."""
    return tuple(p.removesuffix(".py").replace("/", ".") + ("::" if p.endswith(".py") else ".")
                 for p in selection.split())


def compare_tests(host: Path, guest: Path, selection: str) -> list[str]:
    """The outcome of each selected test: the host's (from any run that held it: CI's whole suite)
    against the guest's."""
    prefixes = selected(selection)
    h = {test: o for test, o in outcomes(host).items() if test.startswith(prefixes)}
    g = outcomes(guest)
    for name, side in (("host", h), ("guest", g)):
        counts = Counter(outcome for outcome, _ in side.values())
        print(f"  {name:5}: " + ", ".join(f"{counts[k]} {k}" for k in ("passed", "failed", "error", "skipped")))
    differences, only_here = [], []
    for test in sorted(h.keys() | g.keys()):
        a, b = h.get(test, ("absent", "")), g.get(test, ("absent", ""))
        if a[0] == "skipped" and b[0] == "passed":       # a v2-only test skipped on a v1 host: no verdict differs
            only_here.append(test)
        elif a[0] != b[0]:
            differences.append(f"{test}: host {a[0]}, guest {b[0]}" + (f" ({b[1]})" if b[1] else f" ({a[1]})" if a[1] else ""))
    if only_here:
        print(f"  {len(only_here)} test(s) skipped on the host ran and passed in the guest (e.g. {only_here[0]})")
    return differences


def plan(run: Path) -> dict[str, str]:
    """The harness's plan for the guest (shell assignments, as `printf %q` wrote them)."""
    return {k: shlex.split(v)[0] if v else "" for k, _, v in
            (line.partition("=") for line in (run / "plan").read_text(encoding="utf-8").splitlines())}


def league(results: Path) -> tuple[dict, dict]:
    """(per submission, per game) facts that must not depend on the machine: no times, no memory
    figures, no sentences that quote a measured time."""
    doc = json.loads(results.read_text(encoding="utf-8"))
    subs = {s["id"]: {k: s.get(k) for k in ("status", "rank", "points", "wins", "draws", "losses", "grade")}
            | {"stages": [(c.get("name"), c.get("passed")) for c in ((s.get("validation") or {}).get("checks") or [])]}
            for s in doc["submissions"]}
    games = {g["id"]: {"seats": (g["seat0"], g["seat1"]), "points": g["points"], "reason": g["reason"],
                       "moves": g["moves"], "incidents": sorted(str(i.get("kind", i)) for i in g.get("incidents", []))}
             for g in doc["games"]}
    return subs, games


def compare_leagues(host: Path, other: Path) -> list[str]:
    (hs, hg), (os_, og) = league(host), league(other)
    print(f"  host: {len(hs)} entrants, {len(hg)} games; {other.stem.split('-')[0]}: {len(os_)} entrants, {len(og)} games")
    differences = [f"{sid}: host {hs.get(sid)}, here {os_.get(sid)}" for sid in sorted(hs.keys() | os_.keys())
                   if hs.get(sid) != os_.get(sid)]
    for gid in sorted(hg.keys() | og.keys()):
        a, b = hg.get(gid), og.get(gid)
        if a != b:
            what = "absent" if a is None or b is None else ", ".join(k for k in a if a[k] != b[k])
            seats = (a or b or {}).get("seats")
            differences.append(f"game {gid} {seats}: differs in {what}")
    return differences


def report(title: str, differences: list[str]) -> bool:
    print(f"  {title}: {'the same' if not differences else f'{len(differences)} difference(s)'}")
    for line in differences[:SHOWN]:
        print(f"    {line}")
    if len(differences) > SHOWN:
        print(f"    … {len(differences) - SHOWN} more")
    return not differences


def main(run: Path) -> int:
    same = True
    print("tests (outcome per test id, host vs v2 guest):")
    if (run / "host.xml").exists() and (run / "guest.xml").exists():
        same &= report("verdicts", compare_tests(run / "host.xml", run / "guest.xml", plan(run)["SELECTION"]))
    else:
        print("  missing: " + ", ".join(n for n in ("host.xml", "guest.xml") if not (run / n).exists()))
        same = False
    for other, title in (("guest-results.json", "league as root in the guest"),
                         ("runner-results.json", "league in the nightly workflow's shape (user runner, sudo)")):
        if not (run / "host-results.json").exists():
            break
        print(f"{title}:")
        if (run / other).exists():
            same &= report("standings and games", compare_leagues(run / "host-results.json", run / other))
        else:
            print(f"  missing: {other}")
            same = False
    print("v2 guest: " + ("the same verdicts as this host" if same else "VERDICTS DIFFER from this host"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
