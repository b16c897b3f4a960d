"""A losing player cannot make its end look like the machine's (issue 38.1): one that lowers its own
CPU or memory limit, makes itself SCHED_IDLE, widens its CPU affinity or writes its cgroup on its
second move, then thinks forever, loses that game, and the game is scored -- never `infra`, never
replayed -- in a single game (both start modes), in a league, and in `grader check`.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.assignment import resolve
from grader.config import AssignmentConfig
from grader.league import run_league
from grader.match import play_game, player_factory
from grader.store import Store
from grader.submissions import builtin, load
from grader.validation import validate

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "submissions" / "colosseum" / "baseline_student"

ATTACKER = '''

import os as _os, resource as _resource, time as _time

ATTACK = {attack!r}


def _attack():
    try:
        if ATTACK == "cpu_limit":          # the kernel's SIGKILL at the new limit: not the grader's
            used = int(_time.process_time()) + 1
            _resource.setrlimit(_resource.RLIMIT_CPU, (used, used))
        elif ATTACK == "prlimit_cpu":
            used = int(_time.process_time()) + 1
            _resource.prlimit(0, _resource.RLIMIT_CPU, (used, used))
        elif ATTACK == "address_space":
            _resource.setrlimit(_resource.RLIMIT_AS, (32 << 20, 32 << 20))
        elif ATTACK == "sched_idle":
            _os.sched_setscheduler(0, _os.SCHED_IDLE, _os.sched_param(0))
        elif ATTACK == "affinity":
            _os.sched_setaffinity(0, set(range(_os.cpu_count() or 1)))
        elif ATTACK == "cgroup":
            for name in ("cgroup.kill", "memory.limit_in_bytes", "memory.max", "cgroup.procs"):
                for root in ("/sys/fs/cgroup", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/unified"):
                    try:
                        with open(_os.path.join(root, name), "w") as f:
                            f.write("1")
                    except OSError:
                        pass
    except (OSError, ValueError):
        pass


_step = StudentAgent.step


def _step_then_lose(self, chess_board, my_pos, adv_pos, max_step):
    self._turns = getattr(self, "_turns", 0) + 1
    if self._turns == 2:                   # about to lose: make the end look like the machine's
        _attack()
        while True:
            pass
    return _step(self, chess_board, my_pos, adv_pos, max_step)


StudentAgent.step = _step_then_lose
'''

ATTACKS = ["cpu_limit", "prlimit_cpu", "address_space", "sched_idle", "affinity", "cgroup"]


def colosseum(tmp_path: Path, prefork: bool = True, smoke_games: int = 2):
    cfg = AssignmentConfig(ruleset="colosseum", submissions=str(tmp_path / "subs"), game={"board_size": 6},
                           limits={"first_move_s": 60, "move_s": 2, "kill_factor": 1, "kill_after_s": 1},
                           league={"prefork": prefork, "format": "round_robin", "games_per_pair": 1, "seed": 3,
                                   "builtins": ["random"], "concurrency": 1},
                           validation={"smoke_games": smoke_games, "stages": {"legal_moves": {"required": False}}})
    return resolve("arena", cfg, tmp_path)


def attacker(tmp_path: Path, attack: str):
    folder = tmp_path / "subs" / "attacker"
    shutil.copytree(BASELINE, folder)
    agent = folder / "student_agent.py"
    agent.write_text(agent.read_text() + ATTACKER.format(attack=attack))
    sub = load(folder, "student_agent.py", 10.0)
    assert sub.problem is None, sub.problem
    return sub


@pytest.fixture(autouse=True)
def staged(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_STAGE_DIR", str(tmp_path / "staged"))


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
@pytest.mark.parametrize("attack", ATTACKS)
def test_a_player_that_tampers_with_itself_before_losing_loses_a_scored_game(tmp_path, prefork, attack):
    a = colosseum(tmp_path, prefork)
    result = play_game(a, attacker(tmp_path, attack), builtin(a.ruleset, "random"), seed=4,
                       factory=player_factory(a))
    assert result.infra_error is None and result.reason in ("killed", "crash"), (result.reason, result.detail)
    assert result.points == (0.0, 1.0), result.detail


@pytest.mark.slow
@pytest.mark.timeout(1200)     # a validation and a league, or a whole check: beyond 300 s at load 30
def test_in_a_league_the_game_is_scored_and_never_replayed(tmp_path):
    a = colosseum(tmp_path, smoke_games=0)          # the smoke games would keep it out of the league
    attacker(tmp_path, "cpu_limit")
    run = run_league(a, progress=False)
    assert run.infra_retries == 0 and run.infra_failed == 0, run.summary_line()
    with Store(a.store_path) as store:
        games = store.games(a.name)
    assert len(games) == 1 and games[0].status == "done", [(g.status, g.detail) for g in games]
    mine = 0 if games[0].seat0 == "attacker" else 1
    assert (games[0].points0, games[0].points1)[mine] == 0.0
    rows = {r.id: r for r in run.standings.rows}
    assert rows["attacker"].points < rows["builtin:random"].points


@pytest.mark.slow
@pytest.mark.timeout(1200)     # a validation and a league, or a whole check: beyond 300 s at load 30
def test_in_a_check_the_smoke_games_are_the_players_faults(tmp_path):
    a = colosseum(tmp_path)
    report = validate(a, attacker(tmp_path, "cpu_limit"), workers=1, seed=5)
    smoke = next(c for c in report.checks if c.name == "smoke")
    assert not smoke.passed
    assert "could not be played by the grader" not in smoke.message, smoke.message
    assert smoke.message.startswith("The player failed while playing"), smoke.message
