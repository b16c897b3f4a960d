"""An upload service on a temporary config: the bundled Quoridor assignment with a deadline and an
upload limit, the database and uploads in tmp_path, a test client, and a worker run in this process."""
from __future__ import annotations

import re
import textwrap
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

    def __init__(self, app) -> None:
        from starlette.testclient import TestClient

        self.client = TestClient(app, base_url="http://testserver")

    def csrf(self, path: str = "/login") -> str:
        page = self.client.get(path).text
        return re.search(r'name="csrf" value="([^"]+)"', page).group(1)

    def login(self, login: str, password: str):
        return self.client.post("/login", data={"login": login, "password": password, "csrf": self.csrf()},
                                follow_redirects=False)

    def upload(self, path: Path, name: str | None = None, assignment: str = "quoridor"):
        token = self.csrf(f"/a/{assignment}")
        return self.client.post(f"/a/{assignment}/upload", data={"csrf": token},
                                files={"file": (name or path.name, path.read_bytes())}, follow_redirects=False)


@pytest.fixture
def service(tmp_path):
    from grader.serve import accounts
    from grader.serve.app import create_app
    from grader.serve.worker import Worker

    cfg = write_config(tmp_path)
    app = create_app(cfg)
    db = app.service.db
    accounts.create(db, "teacher", "Terry Teacher", role="instructor", password="teacher-password")
    accounts.create(db, "alice", "Alice Nováková", password="alice-password")
    accounts.create(db, "bob", "Bob <b>Svoboda</b>", password="bob-password")

    class Service:
        config = cfg
        database = db

        def site(self, login: str | None = None, password: str | None = None) -> Site:
            s = Site(app)
            if login:
                assert s.login(login, password).status_code == 303
            return s

        def work(self) -> int:
            """Run the queue dry in this process; how many jobs were done."""
            worker = Worker(cfg)
            n = 0
            while worker.run_once():
                n += 1
            return n

    return Service()
