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


ENDS = '''

import ctypes as _ctypes, os as _os, signal as _signal, sys as _sys, threading as _threading, time as _time

END = {end!r}


def _spin():
    while True:
        pass


def _end():
    if END == "memory_exit":               # the status the shim gives MemoryError: not the grader's memory limit
        _os._exit(75)
    elif END == "sigxcpu":                 # the signal of an exceeded RLIMIT_CPU, raised by itself
        _os.kill(_os.getpid(), _signal.SIGXCPU)
    elif END == "sigstop":                 # stopped for good: its time must still run out
        _os.kill(_os.getpid(), _signal.SIGSTOP)
    elif END == "close_pipes":             # EOF on the reply pipe while it lives on
        _os.closerange(3, 1024)
    _spin()


def _answer_then_stay(handler, msg, rep_fd):
    """Answer the serving thread's call once it is gone (its leader a zombie), then live on."""
    wire, invoke = _sys.modules["sandbox.wire"], _sys.modules["sandbox.invoke"]
    _time.sleep(0.5)
    reply = invoke.call(handler, msg.get("method"), msg.get("args"))
    reply["id"] = msg.get("id")
    wire.write_all(rep_fd, wire.encode(reply))
    while True:
        _time.sleep(3600)


_step2 = StudentAgent.step


def _step_then_end(self, chess_board, my_pos, adv_pos, max_step):
    self._turns = getattr(self, "_turns", 0) + 1
    if self._turns == 2 and END == "serving_thread_exits":    # a helper answers; the freeze meets a zombie leader
        f = _sys._getframe()
        while f.f_code.co_name != "serve":
            f = f.f_back
        _threading.Thread(target=_answer_then_stay,
                          args=(f.f_locals["handler"], f.f_locals["msg"], f.f_locals["rep_fd"])).start()
        _ctypes.CDLL(None).syscall(60, 0)  # SYS_exit: this thread only
    if self._turns == 2:                   # about to lose: end in a way that might look like the machine's
        _end()
    return _step2(self, chess_board, my_pos, adv_pos, max_step)


StudentAgent.step = _step_then_end
'''

ENDINGS = ["memory_exit", "sigxcpu", "sigstop", "close_pipes", "serving_thread_exits"]


@pytest.mark.parametrize("prefork", [False, True], ids=["spawn", "prefork"])
@pytest.mark.parametrize("end", ENDINGS)
def test_a_player_that_ends_itself_another_way_loses_a_scored_game(tmp_path, prefork, end):
    """Issue 38, an independent attacker: other ends a losing player can choose (an exit status, a
    signal other than SIGKILL, a stop, its pipes closed, its serving thread gone after a helper
    answered, so the freeze meets a zombie leader and must not wait for it forever). Each is the
    player's: a scored loss, never `infra`. All held; kept as regressions."""
    a = colosseum(tmp_path, prefork)
    folder = tmp_path / "subs" / "ender"
    shutil.copytree(BASELINE, folder)
    agent = folder / "student_agent.py"
    agent.write_text(agent.read_text() + ENDS.format(end=end))
    sub = load(folder, "student_agent.py", 10.0)
    assert sub.problem is None, sub.problem
    result = play_game(a, sub, builtin(a.ruleset, "random"), seed=4, factory=player_factory(a))
    assert result.infra_error is None, (result.reason, result.detail)
    if end == "serving_thread_exits" and result.reason == "board_decided":
        return                             # the helper's answer to that move may end the game (a won board)
    assert result.points == (0.0, 1.0), (result.reason, result.detail)
