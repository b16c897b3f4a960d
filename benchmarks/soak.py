"""`make soak`: several graders at once on one machine, with honest players only (issue 33).

For a bounded time (`--minutes`; `make soak` 60, CI's short form 5) this runs side by side, as a busy
grading server has them: two `grader run` leagues of different assignments (each re-played from
scratch over and over), a stream of `grader check`s, and `grader serve` with two workers taking
uploads over HTTP; as root, with `GRADER_SOAK_USER=<user>:<grader command>` also an ordinary user's
stream of checks (its own copy and venv, e.g. CI's unprivileged user). Before that, each league is
run once alone. Afterwards it asserts: no verdict against an honest player (every check passes, every
upload passes, no game ends in a kill, crash, memory, protocol or infra incident), no lost result
(every upload answered once), the same games as each league alone, and nothing left behind (no
player process, no cgroup made meanwhile, no half-staged folder). Prints the figures
(games, checks, uploads, incidents) for docs/BENCHMARKS.md; exit status 1 on any failure.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEAGUES = {"quoridor": ["alice", "bob"], "bohnenspiel": ["greedy_student", "data_reader"]}
CHECKED = ("quoridor", "alice")                # the submission the check stream and the uploads use
BAD_INCIDENTS = {"killed", "crash", "crashed", "memory", "protocol", "infra", "exited", "start_failed"}
UPLOAD_EVERY_S = 4.0
CONFIG = """
assignments:
  quoridor:
    ruleset: quoridor
    submissions: subs/quoridor
    game: {sizex: 5, sizey: 5, max_obstacles: 2}
    validation: {smoke_games: 2, smoke_opponent: random}
    league: {games_per_pair: 2, seed: 33, builtins: [random]}
  bohnenspiel:
    ruleset: bohnenspiel
    submissions: subs/bohnenspiel
    validation: {smoke_games: 2}
    league: {games_per_pair: 2, seed: 34, builtins: [random]}
serve: {data_dir: data, lease_s: 30, rate_limit: 100000, rate_window_s: 1}
"""


@dataclass
class Figures:
    seconds: float = 0.0
    league_runs: int = 0
    games: int = 0
    checks: int = 0
    uploads: int = 0
    user_checks: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures.append(what)


def prepare(work: Path) -> Path:
    """A config of two assignments over copies of honest bundled submissions; returns its path."""
    for game, names in LEAGUES.items():
        for name in names:
            shutil.copytree(ROOT / "submissions" / game / name, work / "subs" / game / name)
    (work / "config.yaml").write_text(textwrap.dedent(CONFIG))
    return work / "config.yaml"


def grader(cfg: Path, *args: str, env: dict, timeout: float = 1800) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(cfg), *args], cwd=cfg.parent,
                          env=env, capture_output=True, text=True, timeout=timeout)


def league_games(cfg: Path, assignment: str) -> dict[str, tuple]:
    """game key -> (points, reason) of the assignment's stored games; incidents go in as games too."""
    from grader.assignment import load_assignments
    from grader.store import Store

    a = load_assignments(cfg)[assignment]
    with Store(a.store_path) as store:
        games = {g.key: (g.points0, g.points1, g.reason) for g in store.games(assignment)}
        bad = [f"{i.submission}: {i.kind}: {i.message}" for i in store.incidents(assignment)
               if i.kind in BAD_INCIDENTS]
    return {**games, **{f"incident {n}": (b,) for n, b in enumerate(bad)}}


def run_league(cfg: Path, assignment: str, env: dict, figures: Figures) -> dict[str, tuple] | None:
    done = grader(cfg, "run", assignment, "--fresh", "--no-report", "--quiet", env=env)
    if done.returncode != 0:
        figures.fail(f"grader run {assignment} ended with {done.returncode}: {done.stderr[-500:]}")
        return None
    return league_games(cfg, assignment)


def check_passes(cfg: Path, env: dict, figures: Figures, command: list[str]) -> bool:
    """`command` (a grader command line) checks the honest submission of the config at `cfg`."""
    game, name = CHECKED
    done = subprocess.run([*command, "--config", str(cfg), "check", str(cfg.parent / "subs" / game / name),
                           "--assignment", game, "--json"],
                          cwd=cfg.parent, env=env, capture_output=True, text=True, timeout=1800)
    try:
        doc = json.loads(done.stdout)
    except ValueError:
        figures.fail(f"grader check printed no report ({done.returncode}): {done.stderr[-500:]}")
        return False
    failed = [c for c in doc.get("checks", []) if not c.get("passed")]
    if failed:
        figures.fail(f"an honest check failed: {failed[0].get('name')}: {failed[0].get('message')} "
                     f"(its log: {done.stderr[-800:]})")
    return not failed


class Service:
    """`grader serve` with two workers, driven over HTTP as a student's browser does."""

    def __init__(self, cfg: Path, env: dict) -> None:
        from grader.serve import accounts
        from grader.serve.db import Database

        self.cfg, self.env = cfg, env
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.db = Database(f"sqlite:///{cfg.parent / 'data' / 'grader.sqlite'}")
        accounts.create(self.db, "soak", "Soak", password="soak-password-1")
        self.proc = subprocess.Popen([sys.executable, "-m", "grader.cli", "--config", str(cfg), "serve", "--port",
                                      str(self.port), "--workers", "2"], cwd=cfg.parent, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        import httpx2 as httpx

        self.httpx = httpx
        deadline = time.time() + 120
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/login", timeout=2)
                break
            except httpx.HTTPError:
                if time.time() > deadline:
                    raise AssertionError("grader serve did not start") from None
                time.sleep(0.5)
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)
        token = self._csrf("/login")
        assert self.client.post("/login", data={"login": "soak", "password": "soak-password-1",
                                                "csrf": token}).status_code == 303, "cannot log in"

    def _csrf(self, page: str) -> str:
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get(page).text)
        if found is None:
            raise AssertionError(f"no form token on {page}")
        return found.group(1)

    def upload(self, text: str) -> str | None:
        game = CHECKED[0]
        r = self.client.post(f"/a/{game}/upload", data={"csrf": self._csrf(f"/a/{game}")},
                             files={"file": ("player.py", text.encode())})
        return r.headers["location"].rsplit("/", 1)[1] if r.status_code == 303 else None

    def status(self, upload_id: str) -> dict:
        return self.client.get(f"/uploads/{upload_id}/status").json()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


OURS = re.compile(r"grader-(box-\d+-)?[0-9a-f]{12,16}")      # the names sandbox/cgroup.py gives


def cgroups() -> set[str]:
    """The player cgroups this code makes (another grader version's, on a shared machine, are not ours)."""
    from sandbox import cgroup

    out = set()
    for controller in ("memory", "pids", "cpuacct"):
        base = cgroup.own_dir(controller)
        if base is not None:
            out |= {str(d) for d in base.iterdir() if OURS.fullmatch(d.name)}
    return out


def _held_elsewhere(cgroup_dir: str) -> bool:
    """A box cgroup whose uid a live manager holds now: another grader's on this machine."""
    from sandbox import box

    m = re.match(r"grader-box-(\d+)-", Path(cgroup_dir).name)
    return m is not None and box.in_use(int(m[1]))


def leftovers(stage: Path, cgroups_before: set[str]) -> list[str]:
    """Player processes (working in the soak's staged copies), cgroups made meanwhile, half-staged folders."""
    import psutil

    from sandbox import box

    left = []
    for _ in range(50):                                    # the last exits may still be under way
        procs = []
        for proc in psutil.process_iter(["status"]):
            try:
                cwd = proc.cwd().removeprefix(str(box.RUN_DIR / box.ROOT_NAME))
            except (psutil.Error, OSError):
                continue
            if cwd.startswith(str(stage)) and proc.info["status"] != psutil.STATUS_ZOMBIE:
                procs.append(f"process {proc.pid} in {cwd}")
        # a box another grader on the machine holds now (a test suite, a TA's check) is its own, not ours
        groups = [f"cgroup {d}" for d in sorted(cgroups() - cgroups_before) if not _held_elsewhere(d)]
        half = [f"staging folder {p}" for p in stage.glob("incoming-*")]
        left = procs + groups + half
        if not left:
            break
        time.sleep(0.2)
    return left


def run(minutes: float, work: Path | None = None) -> Figures:
    """The soak itself; figures with `failures` empty when every promise held."""
    figures = Figures()
    own = work is None
    work = Path(tempfile.mkdtemp(prefix="grader-soak-")) if work is None else work
    stage = work / "staged"
    env = {**os.environ, "GRADER_STAGE_DIR": str(stage), "PYTHONPATH": str(ROOT)}
    env.pop("GRADER_SANDBOX", None)
    cfg = prepare(work)
    before = cgroups()
    t0 = time.monotonic()
    try:
        alone = {a: run_league(cfg, a, env, figures) for a in LEAGUES}
        end = time.monotonic() + minutes * 60
        service = Service(cfg, env)
        uploads: list[str] = []
        user_copy: Path | None = None

        def leagues(assignment: str) -> None:
            while time.monotonic() < end:
                games = run_league(cfg, assignment, env, figures)
                with figures.lock:
                    figures.league_runs += 1
                    figures.games += len(games or {})
                base = alone[assignment] or {}
                if games is not None and games != base:
                    changed = sorted(k for k in set(games) | set(base) if games.get(k) != base.get(k))
                    figures.fail(f"{assignment}: {len(changed)} games differ from the league run alone, "
                                 f"e.g. {changed[0]}: {base.get(changed[0])} -> {games.get(changed[0])}")

        def checks(where: Path, command: list[str], as_user: bool) -> None:
            while time.monotonic() < end:
                check_passes(where, env, figures, command)
                with figures.lock:
                    if as_user:
                        figures.user_checks += 1
                    else:
                        figures.checks += 1

        def uploading() -> None:
            text = (ROOT / "submissions" / CHECKED[0] / CHECKED[1] / "player.py").read_text()
            n = 0
            while time.monotonic() < end:
                n += 1
                got = service.upload(text + f"\n# upload {n}\n")    # a new file each time: really evaluated
                if got is None:
                    figures.fail(f"upload {n} was not acknowledged")
                else:
                    uploads.append(got)
                time.sleep(UPLOAD_EVERY_S)

        threads = [threading.Thread(target=leagues, args=(a,)) for a in LEAGUES]
        threads += [threading.Thread(target=checks, args=(cfg, [sys.executable, "-m", "grader.cli"], False)),
                    threading.Thread(target=uploading)]
        user = os.environ.get("GRADER_SOAK_USER")
        if user and os.geteuid() == 0:                   # an ordinary user's grader beside root's
            name, command = user.split(":", 1)
            home = os.path.expanduser(f"~{name}")
            copy = Path(tempfile.mkdtemp(prefix="grader-soak-user-"))
            user_copy = copy
            prepare(copy)
            subprocess.run(["chown", "-R", name, str(copy)], check=True)
            argv = ["runuser", "-u", name, "--", "env", "-i", f"HOME={home}", "PATH=/usr/local/bin:/usr/bin:/bin",
                    "LANG=C.UTF-8", f"TMPDIR={home}", *command.split()]
            threads.append(threading.Thread(target=checks, args=(copy / "config.yaml", argv, True)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        deadline = time.monotonic() + 600
        for upload_id in uploads:                         # every acknowledged upload gets its verdict
            while True:
                status = service.status(upload_id)
                if status.get("status") == "done" or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            if status.get("status") != "done":
                figures.fail(f"upload {upload_id} lost: still {status.get('status')}")
            elif status.get("passed") != 1:
                figures.fail(f"honest upload {upload_id} did not pass: {status}")
        figures.uploads = len(uploads)
        service.stop()
        if user_copy is not None:
            shutil.rmtree(user_copy, ignore_errors=True)
    except Exception as exc:                              # the soak's own failure: reported, not hidden
        figures.fail(f"the soak failed: {exc!r}")
    figures.seconds = time.monotonic() - t0
    for thing in leftovers(stage, before):
        figures.fail(f"left behind: {thing}")
    if own:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    args = parser.parse_args(argv)
    figures = run(args.minutes)
    print(f"soak of {args.minutes:g} min ({figures.seconds:.0f} s in all): {figures.league_runs} league runs, "
          f"{figures.games} games, {figures.checks} checks, {figures.user_checks} checks as an ordinary user, "
          f"{figures.uploads} uploads; {len(figures.failures)} incidents")
    for failure in figures.failures:
        print(f"  - {failure}")
    return 1 if figures.failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
