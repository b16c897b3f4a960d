"""The move that lost each smoke game of an upload's own check, on the student's upload page, where the
ruleset declares an evaluator (grader/losing_move.py): Red-Blue Nim, whose evaluator is exact."""
from __future__ import annotations

import textwrap

# Always takes one red marble while there is one: a legal player that throws away a won position.
ONE_RED = '''
def choose_move(red, blue, version, depth=None):
    return ("red", 1) if red else ("blue", 1)
'''


def test_a_lost_smoke_game_shows_the_move_that_lost_it_on_the_upload_page(tmp_path, db_url):
    from grader.serve import accounts
    from grader.serve.app import create_app
    from grader.serve.worker import Worker
    from tests.serve.conftest import Site

    (tmp_path / "subs").mkdir()
    cfg = tmp_path / "config.yaml"
    cfg.write_text(textwrap.dedent("""
        assignments:
          rbnim:
            ruleset: rbnim
            submissions: subs
            game: {red: 8, blue: 10, version: standard}
            validation: {kind: module, smoke_games: 2, smoke_opponent: perfect}
        serve:
          data_dir: data
        """) + (f"  database_url: {db_url}\n" if db_url else ""))
    app = create_app(cfg)
    accounts.create(app.service.db, "alice", "Alice", password="alice-password")
    alice = Site(app)
    assert alice.login("alice", "alice-password").status_code == 303
    token = alice.csrf("/a/rbnim")
    r = alice.client.post("/a/rbnim/upload", data={"csrf": token},
                          files={"file": ("red_blue_nim.py", ONE_RED.encode())}, follow_redirects=False)
    uid = r.headers["location"].rsplit("/", 1)[1]
    worker = Worker(cfg)
    assert worker.run_once()
    row = app.service.db.one("SELECT * FROM uploads WHERE id = ?", (uid,))
    assert row["status"] == "done", row["grader_error"]
    page = alice.client.get(f"/uploads/{uid}").text
    assert "The move that lost" in page
    assert "turned a won position into a lost one; take " in page and "(exact)." in page
    assert "turned a won position into a lost one" in row["verdict_text"]      # as `grader check` prints it
