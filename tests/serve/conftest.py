"""An upload service on a temporary config: the bundled Quoridor assignment with a deadline and an
upload limit, the database and uploads in tmp_path, a test client, and a worker run in this process.

Every test that takes `service` (or `db_url`) runs twice: on SQLite, and on PostgreSQL in a
throwaway cluster this file starts on 127.0.0.1 in a temporary folder with Debian's server binaries
(as root they run as the `postgres` system user, since PostgreSQL refuses to run as root). Each
test gets a fresh database in that cluster. Without the binaries or psycopg the PostgreSQL half
is skipped with the reason. The PostgreSQL half is a slow variant (tests/suite_split.py): `make test`
runs the SQLite one, `make test-all` and CI both.
"""
from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import textwrap
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"


def write_config(tmp_path: Path, extra: str = "", penalties: str = "{upload_limit: 2, upload_penalty: 0.1}") -> Path:
    (tmp_path / "subs").mkdir(exist_ok=True)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(textwrap.dedent(f"""
        assignments:
          quoridor:
            title: "Quoridor"
            ruleset: quoridor
            submissions: subs
            game: {{sizex: 9, sizey: 9, max_obstacles: 4}}
            validation: {{smoke_games: 1}}
            league: {{format: round_robin, games_per_pair: 2, seed: 1, builtins: [random]}}
            grading: {{kind: bands, bands: [[0.5, 3]]}}
            penalties: {penalties}
        serve:
          data_dir: data
          rate_limit: 5
          lease_s: 3
        """) + extra)
    return cfg


class Site:
    """A logged-in browser session against the app (starlette's TestClient)."""

    def __init__(self, app, address: str = "testclient") -> None:
        from starlette.testclient import TestClient

        self.client = TestClient(app, base_url="http://testserver", client=(address, 50000))

    def csrf(self, path: str = "/login") -> str:
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get(path).text)
        assert found, f"no form on {path}"
        return found.group(1)

    def login(self, login: str, password: str):
        return self.client.post("/login", data={"login": login, "password": password, "csrf": self.csrf()},
                                follow_redirects=False)

    def upload(self, path: Path, name: str | None = None, assignment: str = "quoridor"):
        token = self.csrf(f"/a/{assignment}")
        return self.client.post(f"/a/{assignment}/upload", data={"csrf": token},
                                files={"file": (name or path.name, path.read_bytes())}, follow_redirects=False)


PG_BIN = Path(os.environ.get("GRADER_PG_BIN", "/usr/lib/postgresql/15/bin"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL server for this test session: its base URL (postgresql://grader@127.0.0.1:PORT)."""
    if not (PG_BIN / "initdb").exists() or not (PG_BIN / "pg_ctl").exists():
        pytest.skip(f"PostgreSQL's server binaries are not in {PG_BIN} (Debian: apt-get install postgresql-15)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install 'game-grader[postgres]')")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="grader-pg-"))
    if os.geteuid() == 0:                       # PostgreSQL will not run as root
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL as an ordinary user")
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no `postgres` system user to run PostgreSQL as")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()
    run = lambda *args: subprocess.run([*as_user, *map(str, args)], check=True, capture_output=True)   # noqa: E731
    run(PG_BIN / "initdb", "-D", data, "-A", "trust", "-U", "grader", "--no-sync", "-E", "UTF8")
    run(PG_BIN / "pg_ctl", "-D", data, "-l", folder / "log", "-w", "-t", "120", "start", "-o",
        f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=200")
    try:
        yield f"postgresql://grader@127.0.0.1:{port}"
    finally:
        subprocess.run([*as_user, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request) -> str | None:
    """None for SQLite (the default in the data folder), or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return None
    import psycopg

    base = request.getfixturevalue("postgres_cluster")
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{base}/{name}"


@pytest.fixture
def make_config(tmp_path, db_url):
    """config.yaml for this test's database, with extra `serve:` lines (indented two spaces)."""
    def make(extra: str = "", **replace: str) -> Path:
        cfg = write_config(tmp_path, extra=(f"  database_url: {db_url}\n" if db_url else "") + extra)
        text = cfg.read_text()
        for old, new in replace.items():
            text = text.replace(old, new)
        cfg.write_text(text)
        return cfg

    return make


@pytest.fixture
def service(tmp_path, make_config):
    from grader.serve import accounts
    from grader.serve.app import create_app
    from grader.serve.worker import Worker

    cfg = make_config()
    app = create_app(cfg)
    db = app.service.db
    accounts.create(db, "teacher", "Terry Teacher", role="instructor", password="teacher-password")
    accounts.create(db, "alice", "Alice Nováková", password="alice-password")
    accounts.create(db, "bob", "Bob <b>Svoboda</b>", password="bob-password")

    class Service:
        config = cfg
        database = db
        app_ = app

        def site(self, login: str | None = None, password: str | None = None, address: str = "testclient") -> Site:
            s = Site(app, address)
            if login:
                assert s.login(login, password or "").status_code == 303
            return s

        def work(self) -> int:
            """Run the queue dry in this process; how many jobs were done."""
            worker = Worker(cfg)
            n = 0
            while worker.run_once():
                n += 1
            return n

    return Service()
