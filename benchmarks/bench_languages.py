"""What Java and C++ players cost against Python ones: start to first reply and a move's round trip.

Bohnenspiel (the greedy student in Java and in Python) in the full sandbox, spawned and
pre-forked; the Java one with the class-data-sharing archive of the shim and course API
(sandbox/java.py) and without it (the JDK's own archive only), and with C1 only
(-XX:TieredStopAtLevel=1); the baseline is a plain `java` start of the same shim (no sandbox, no
flags). Double Card: the C++ line-protocol example (built once, not timed) against the Python
random built-in, both sandboxed; a move's round trip there is the median over the moves of a few
games against each other. Medians; a missing JDK or g++ prints a row saying so.
"""
from __future__ import annotations

import statistics
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from rulesets.bohnenspiel import RULESET
from sandbox import Limits, PlayerProcess, java, prefork, wire

ROOT = Path(__file__).resolve().parent.parent
JAVA_PLAYER = ROOT / "submissions" / "bohnenspiel" / "java_greedy_student"
PYTHON_PLAYER = ROOT / "submissions" / "bohnenspiel" / "greedy_student"
STARTS = 9
MOVES = 200
STATE = {"pits": [[6] * 6, [6] * 6], "scores": [0, 0], "credit": [2, 2], "barred": [0, 0], "turn_player": 0,
         "turn_number": 0, "ply": 0, "max_turns": 200, "end": None}


def _ms(values) -> float:
    return round(statistics.median(values) * 1000, 1)


def _sandboxed(make) -> tuple[float, float]:
    starts, moves = [], []
    for _ in range(STARTS):
        t0 = time.perf_counter()
        p = make()
        assert p.start().ok, p.close().output
        starts.append(time.perf_counter() - t0)
        p.close()
    p = make()
    assert p.start().ok and p.call("setup", {"seat": 0}).ok
    for _ in range(MOVES):
        t0 = time.perf_counter()
        assert p.call("move", {"state": STATE, "last": []}).ok
        moves.append(time.perf_counter() - t0)
    p.close()
    return _ms(starts), _ms(moves)


def _plain_java(api: Path, classes: Path, submission: Path) -> float:
    """`java -cp … grader_shim.Main` with no flag and no sandbox: spawn to the open reply."""
    jdk, api_spec = java.jdk_home(), RULESET.java
    assert jdk is not None and api_spec is not None  # run() built the Java player: javac and Bohnenspiel's API exist
    argv = [str(jdk / "bin" / "java"), "-cp", f"{api / 'api.jar'}:{classes}", java.SHIM_MAIN, api_spec.bridge]
    starts = []
    for _ in range(STARTS):
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=submission)
        assert proc.stdin is not None and proc.stdout is not None  # both asked for as pipes
        wire.write_all(proc.stdin.fileno(), wire.encode({"open": {}, "id": 1}))
        assert wire.read_message(proc.stdout.fileno())["id"] == 1
        starts.append(time.perf_counter() - t0)
        proc.stdin.close()
        proc.wait()
        proc.stdout.close()
    return _ms(starts)


def run():
    if java.unavailable_reason():
        return "Java players", [{"measure": java.unavailable_reason()}]
    from grader.assignment import load_assignments
    from grader.builds import build
    from grader.submissions import load

    assignment = load_assignments(ROOT / "config.yaml")["bohnenspiel"]
    jsub = load(JAVA_PLAYER, RULESET.entry, 10, java=RULESET.java)
    psub = load(PYTHON_PLAYER, RULESET.entry, 10)
    built = build(assignment, jsub)
    api = java.api_classes(RULESET.java.sources, RULESET.java.bridge)
    limits = Limits(memory_mb=500, start_s=30, call_s=5)
    program = java.player_program(api, RULESET.java.bridge, built.folder, 500)
    no_cds = replace(program, argv=tuple(a for a in program.argv if not a.startswith("-XX:SharedArchiveFile")))
    c1 = replace(program, argv=(program.argv[0], "-XX:TieredStopAtLevel=1", *program.argv[1:]))
    shim = RULESET.shim
    figures = {}
    with prefork.PreforkPool() as pool:
        for label, prog, sub, pre in (("Java, CDS archive", program, jsub, None),
                                      ("Java, CDS archive, pre-forked", program, jsub, pool),
                                      ("Java, JDK archive only", no_cds, jsub, None),
                                      ("Java, CDS archive, C1 only", c1, jsub, None),
                                      ("Python", None, psub, None),
                                      ("Python, pre-forked", None, psub, pool)):
            figures[label] = _sandboxed(lambda sub=sub, pre=pre, prog=prog: PlayerProcess(
                shim, sub.staged, limits, name="bench", prefork=pre, program=prog))
    plain = _plain_java(api, built.folder, jsub.staged)
    python = figures["Python"]
    rows = [{"player": "plain java (no sandbox, no flags)", "start to first reply ms": plain,
             "move round trip ms": "", "start / plain java": 1.0, "start / Python": round(plain / python[0], 1)}]
    for label, (start, move) in figures.items():
        rows.append({"player": f"{label} (sandboxed)", "start to first reply ms": start, "move round trip ms": move,
                     "start / plain java": round(start / plain, 2), "start / Python": round(start / python[0], 1)})
    rows += _cpp_rows()
    return f"Players in other languages (medians of {STARTS} starts, {MOVES} moves)", rows


def _cpp_rows() -> list[dict]:
    """The C++ Double Card example (line protocol) against the Python random player."""
    import shutil

    from grader.match import play_game
    from grader.players import player_kwargs
    from rulesets.doublecard import RULESET as DC

    if shutil.which("g++") is None:
        return [{"player": "C++: g++ is not installed"}]
    from grader.assignment import load_assignments
    from grader.submissions import builtin
    from grader.usecases import stage

    assignment = load_assignments(ROOT / "config.yaml")["doublecard"]
    cpp = stage(assignment, ROOT / "submissions" / "doublecard" / "cpp_random")
    py = builtin(DC, "random")
    rows = []
    times: dict[str, list[float]] = {cpp.id: [], py.id: []}
    for seed in range(3):
        for a, b in ((cpp, py), (py, cpp)):
            result = play_game(assignment, a, b, seed, factory=PlayerProcess)
            for i, (wall, _) in enumerate(result.times):
                times[(a, b)[i % 2].id].append(wall)
    for label, sub in (("C++ (Double Card, line protocol)", cpp), ("Python (Double Card random)", py)):
        starts = []
        for _ in range(STARTS):
            t0 = time.perf_counter()
            p = PlayerProcess(**player_kwargs(assignment, sub))
            assert p.start().ok, p.close().output
            starts.append(time.perf_counter() - t0)
            p.close()
        rows.append({"player": f"{label} (sandboxed)", "start to first reply ms": _ms(starts),
                     "move round trip ms": _ms(times[sub.id]), "start / plain java": "",
                     "start / Python": ""})
    return rows


if __name__ == "__main__":
    title, rows = run()
    print(title)
    for row in rows:
        print(row)
