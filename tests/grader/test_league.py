"""The league end to end through the real sandbox: ranking, policies, resume after kill -9, incremental.

Colosseum on a fixed 6x6 board keeps games short (a few dozen fast moves); every test builds its
own config and submissions folder in a temporary directory so runs never share a store. Each
league's secret is fixed, so its seat seeds, and so the random player's luck, are the same on every
run: an even match against random is a coin that an unfixed secret tosses anew each time.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import yaml

from grader.assignment import load_assignments
from grader.league import run_league
from grader.store import Store

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "colosseum"


def make_config(tmp: Path, subs: list[str], **assignment) -> Path:
    folder = tmp / "subs"
    folder.mkdir(exist_ok=True)
    for name in subs:
        if not (folder / name).exists():
            shutil.copytree(EXAMPLES / name, folder / name)
    block = {"ruleset": "colosseum", "submissions": "subs", "game": {"board_size": 6},
             # the misbehaving examples fail the legal-moves stage; let them play to test the policies
             "validation": {"smoke_games": 0, "stages": {"legal_moves": {"required": False}}},
             "league": {"format": "round_robin", "games_per_pair": 2, "seed": 7, "builtins": ["random"],
                        "concurrency": 2}} | assignment
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump({"assignments": {"arena": block}}), encoding="utf-8")
    secret = load_assignments(path)["arena"].store_path.parent / "league-secret"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text("ab" * 32)        # fixed seat seeds: the random player's luck is the same every run
    return path


def league(config: Path, **kw):
    assignment = load_assignments(config)["arena"]
    return assignment, run_league(assignment, progress=False, **kw)


def done_games(assignment) -> list:
    with Store(assignment.store_path) as store:
        return [g for g in store.games(assignment.name) if g.status == "done"]


def test_baseline_ranks_above_random_and_every_pairing_plays_both_seats(tmp_path):
    config = make_config(tmp_path, ["baseline_student"], league={
        "format": "round_robin", "games_per_pair": 4, "seed": 7, "builtins": ["random"], "concurrency": 2})
    assignment, run = league(config)
    rows = {r.id: r for r in run.standings.rows}
    assert rows["baseline_student"].rank == 1
    assert rows["baseline_student"].points > rows["builtin:random"].points
    games = done_games(assignment)
    assert len(games) == 4
    seeds = sorted((g.seed, g.seat0) for g in games)
    # seat-swapped pairs on the same seed: each seed appears once with each player in seat 0
    assert len({s for s, _ in seeds}) == 2
    assert all(sum(1 for s, _ in seeds if s == seed) == 2 for seed, _ in seeds)
    assert all(g.reason and g.reason != "infra" and json.loads(g.moves_json)["moves"] for g in games)


def test_random_substitute_policy_is_logged_not_a_loss(tmp_path):
    config = make_config(tmp_path, ["raises", "illegal_every_time"], league={
        "format": "round_robin", "games_per_pair": 2, "seed": 3, "builtins": [], "concurrency": 2})
    assignment, run = league(config)
    games = done_games(assignment)
    assert len(games) == 2
    for g in games:
        assert g.reason not in ("error", "illegal", "forfeit")          # the game was played out
        players = json.loads(g.players_json)
        kinds = {i["kind"] for p in players for i in p["incidents"]}
        assert "substituted" in kinds or kinds & {"error", "illegal"}
    assert not run.disqualified


def test_forfeit_policy_makes_the_raising_player_lose(tmp_path):
    config = make_config(tmp_path, ["raises"], policy={"on_error": "forfeit"})
    assignment, run = league(config)
    rows = {r.id: r for r in run.standings.rows}
    assert rows["raises"].losses == 2 and rows["raises"].points == 0
    for g in done_games(assignment):
        loser_seat = 0 if g.seat0 == "raises" else 1
        assert (g.points0, g.points1)[loser_seat] == 0
        assert "raises" in g.detail or "first player" in g.detail or "second player" in g.detail


def test_disqualify_policy_removes_the_player_from_the_league(tmp_path):
    config = make_config(tmp_path, ["illegal_every_time", "baseline_student"], policy={"on_illegal": "disqualify"})
    assignment, run = league(config)
    assert "illegal_every_time" in run.disqualified
    assert "illegal" in run.disqualified["illegal_every_time"].lower()
    ids = {r.id for r in run.standings.rows if not r.disqualified}
    assert "illegal_every_time" not in ids
    with Store(assignment.store_path) as store:
        status = {s.id: s.status for s in store.submissions(assignment.name)}
    assert status["illegal_every_time"] == "disqualified"
    assert status["baseline_student"] == "valid"


def _run_cli_in_background(config: Path) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        import sys
        from grader.cli import main
        sys.exit(main(["--config", {str(config)!r}, "run", "arena", "--quiet", "--no-report"]))
    """)
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _count_done(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return con.execute("select count(*) from games where status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def test_resume_after_kill_9_loses_and_replays_nothing(tmp_path):
    config = make_config(tmp_path, ["baseline_student", "raises", "illegal_every_time"], league={
        "format": "round_robin", "games_per_pair": 2, "seed": 11, "builtins": ["random"], "concurrency": 1})
    assignment = load_assignments(config)["arena"]
    proc = _run_cli_in_background(config)
    deadline = time.monotonic() + 120
    try:
        while _count_done(assignment.store_path) < 3:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the league never finished three games"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)        # the runner and the players it was running
        proc.wait()
    with sqlite3.connect(assignment.store_path) as con:
        assert con.execute("pragma integrity_check").fetchone()[0] == "ok"
    before = {g.key: (g.points0, g.points1, g.moves_json) for g in done_games(assignment)}
    assert 3 <= len(before) < 12

    _, run = league(config)
    after = {g.key: (g.points0, g.points1, g.moves_json) for g in done_games(assignment)}
    assert len(after) == 12                         # 4 entrants, 6 pairings, 2 games each
    assert run.reused == len(before) and run.played == 12 - len(before)
    assert all(after[k] == v for k, v in before.items())       # finished games kept as they were


def test_rerun_replays_only_the_changed_submission(tmp_path):
    config = make_config(tmp_path, ["baseline_student", "raises"])
    _, first = league(config)
    assert first.played == 6 and first.reused == 0

    _, again = league(config)
    assert again.played == 0 and again.reused == 6

    agent = tmp_path / "subs" / "raises" / "student_agent.py"
    agent.write_text(agent.read_text() + "\n# re-uploaded\n")
    _, changed = league(config)
    assert changed.changed == ["raises"]
    assert changed.played == 4 and changed.reused == 2     # raises' two pairings replayed, the third kept


def test_a_removed_submission_leaves_the_standings_and_the_summary_says_so(tmp_path):
    config = make_config(tmp_path, ["baseline_student", "raises"])
    league(config)
    shutil.rmtree(tmp_path / "subs" / "raises")
    _, run = league(config)
    assert run.gone == ["raises"] and run.played == 0 and run.reused == 2
    assert {r.id for r in run.standings.rows} == {"baseline_student", "builtin:random"}
    assert "left out: 1 earlier submission(s) no longer in the folder (raises)" in run.summary_line()


def test_pre_forked_and_spawned_players_play_the_same_games(tmp_path):
    """league.prefork only changes how a player process starts, never what happens in a game."""
    moves = {}
    for prefork in (True, False):
        folder = tmp_path / str(prefork)
        folder.mkdir()
        config = make_config(folder, ["baseline_student", "raises"], league={
            "format": "round_robin", "games_per_pair": 2, "seed": 5, "builtins": ["random"],
            "concurrency": 2, "prefork": prefork})
        assignment, run = league(config)           # one league's secret (its seat seeds), twice
        assert run.played == 6
        moves[prefork] = {g.key: (g.points0, g.points1, json.loads(g.moves_json)["moves"])
                          for g in done_games(assignment)}
    assert moves[True] == moves[False]


def test_the_league_starts_players_from_the_template_unless_told_not_to(tmp_path):
    from grader.match import player_factory
    from sandbox import PlayerProcess

    for prefork, started_by in ((True, "prefork"), (False, "spawn")):
        config = make_config(tmp_path, ["baseline_student"], league={"prefork": prefork})
        assignment = load_assignments(config)["arena"]
        factory = player_factory(assignment)
        assert getattr(factory, "func", factory) is PlayerProcess
        with factory(shim=assignment.ruleset.shim, submission=str(EXAMPLES / "baseline_student"),
                     limits=assignment.limits(None), options=assignment.config.options) as player:
            assert player.start().ok
            assert player.started_by == started_by


def test_an_adaptive_league_plays_waves_through_the_executor_and_a_rerun_reuses_them(tmp_path):
    config = make_config(tmp_path, ["baseline_student", "raises"], league={
        "format": "adaptive", "games_per_pair": 2, "seed": 5, "builtins": ["random"], "concurrency": 2,
        "adaptive": {"first_opponents": 1, "budget": 1.0, "wave_share": 1.0}})
    assignment, run = league(config)
    games = done_games(assignment)
    rounds = sorted({g.round for g in games})
    assert rounds[0] == "wave 1" and len(games) == run.played
    assert run.standings.rank_by == "rating"
    assert len(games) <= 2 * 3                      # the budget: one double round robin of 3 players
    assert {r.id for r in run.standings.rows} == {"baseline_student", "raises", "builtin:random"}
    _, again = league(config)                       # every wave follows from the stored results
    assert again.played == 0 and again.reused == len(games)
    assert sorted(again.keys) == sorted(run.keys)


def test_a_ladder_grade_plays_each_baseline_until_the_test_decides(tmp_path):
    from grader.outputs import grades_of_run

    config = make_config(tmp_path, ["baseline_student", "raises"], league={
        "format": "gauntlet", "gauntlet": ["random"], "games_per_pair": 2, "seed": 5, "concurrency": 2},
        grading={"kind": "ladder", "rules": [{"beats": "random", "grade": 10}], "error": 0.05, "max_games": 40})
    assignment, run = league(config)
    games = done_games(assignment)
    per_pair = {}
    for g in games:
        per_pair.setdefault(g.pairing, []).append(g)
    assert set(per_pair) == {"baseline_student vs builtin:random", "builtin:random vs raises"}
    grades = grades_of_run(assignment, run)
    assert grades["baseline_student"].value == 10
    assert grades["baseline_student"].reason.startswith("beats random: ")
    assert grades["baseline_student"].reason.endswith("error below 5%")
    decided = int(grades["baseline_student"].reason.split(" of ")[1].split()[0])
    played = len(per_pair["baseline_student vs builtin:random"])
    assert 2 < played < 40                          # more than the gauntlet's two, stopped as soon as decided
    assert played == decided + decided % 2          # the deciding game's twin, nothing more
    # `raises` is replaced by random moves (the default policy): an even match, which the test
    # leaves undecided at max_games (or, by the error it allows, decides early)
    even = grades["raises"].reason
    if even.startswith("random: not decided after "):
        assert even.endswith(" of 40 games, so not counted as beating it") and len(per_pair["builtin:random vs raises"]) == 40
    else:                                           # decided, at the 40th game at the latest
        decided = int(even.split(" of ")[1].split()[0])
        assert len(per_pair["builtin:random vs raises"]) == decided + decided % 2 <= 40, even
    _, again = league(config)
    assert again.played == 0 and again.reused == len(games)


def test_must_beat_random_is_decided_by_the_sequential_test_not_the_league_s_two_games(tmp_path):
    """Issue 40: "must beat random" was the share of two games, so two players at random got 61.08
    and 0. Now both play random on until the test decides (or max_games), both get the same
    verdict, and those games decide the pass but never a place in the standings."""
    from grader.outputs import grades_of_run

    config = make_config(tmp_path, ["baseline_student", "raises", "illegal_every_time"], league={
        "format": "round_robin", "games_per_pair": 2, "seed": 11, "builtins": ["random"], "concurrency": 2},
        grading={"kind": "interpolate", "max": 100, "pass_min": 50, "must_beat": "random", "max_games": 60})
    assignment, run = league(config)
    grades = grades_of_run(assignment, run)
    against_random: dict[str, list] = {}
    for g in done_games(assignment):
        if "builtin:random" in (g.seat0, g.seat1):
            against_random.setdefault(g.pairing, []).append(g)
    assert grades["baseline_student"].value == 100
    assert grades["baseline_student"].reason.startswith("beats random: ")
    for sid in ("raises", "illegal_every_time"):                # both replaced by random moves
        assert grades[sid].value == 0, grades[sid].reason
        assert grades[sid].reason.endswith(", as passing needs beating random")
    for pairing, games in against_random.items():
        assert len(games) > 2, pairing                           # never decided on the league's two games
        assert len(games) <= 60
    rows = {r.id: r for r in run.standings.rows}
    assert all(rows[sid].games == 2 * 3 for sid in ("baseline_student", "raises", "illegal_every_time"))
    _, again = league(config)
    assert again.played == 0
