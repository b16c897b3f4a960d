"""Pages a TA can read (issue 45, item 5): the number that orders the leaderboard is shown, move
times say what they are, incidents read as sentences."""
from __future__ import annotations

import html

from grader.incidents import incident_sentence
from grader.report import read_shard, render_site, slug_hash


def _records(site):
    return {r["key"]: r for shard in (site / "games").glob("*.js")
            for r in read_shard(shard.read_text(encoding="utf-8"))}


def test_an_incident_record_reads_as_one_sentence():
    record = {"kind": "timeout", "message": "answered after 2.4 s, over its limit of 2 s", "ply": 2, "seat": 1}
    assert incident_sentence(record, ("Bob", "Alice")) == (
        "Move 3, seat 1 (Alice): timeout — answered after 2.4 s, over its limit of 2 s.")
    assert incident_sentence({"kind": "substituted", "message": "a random move was played instead: e4",
                              "ply": 0, "seat": 0}, ("Bob", "Alice")) == (
        "Move 1, seat 0 (Bob): move replaced — a random move was played instead: e4.")
    assert incident_sentence({"kind": "grader", "message": "closing the player failed", "ply": None, "seat": 0},
                             ("Bob",)) == "Seat 0 (Bob): grader problem — closing the player failed."
    assert incident_sentence("an older document's text") == "an older document's text"


def test_the_replay_shows_incidents_as_sentences_not_key_value_text(tmp_path, doc):
    doc["games"][0]["incidents"] = [{"kind": "timeout", "message": "answered after 2.4 s", "ply": 2, "seat": 1}]
    render_site(doc, tmp_path / "s")
    record = _records(tmp_path / "s")[slug_hash("g-ab-0")]
    assert record["incidents"] == ["Move 3, seat 1 (Bob): timeout — answered after 2.4 s."]
    assert not any("kind:" in text for text in record["incidents"])


def test_the_public_site_names_the_seat_by_its_pseudonym(tmp_path, doc):
    doc["submissions"][1]["public_name"] = "Calm Otter 1"
    doc["games"][0]["incidents"] = [{"kind": "error", "message": "alice raised ValueError", "ply": 0, "seat": 0}]
    render_site(doc, tmp_path / "p", public=True)
    record = next(r for r in _records(tmp_path / "p").values() if r["incidents"])
    assert record["incidents"] == ["Move 1, seat 0 (Calm Otter 1): exception — Calm Otter 1 raised ValueError."]


def test_move_times_are_labelled(tmp_path, doc):
    render_site(doc, tmp_path / "s")
    replay = (tmp_path / "s" / "replay.html").read_text(encoding="utf-8")
    assert 'id="times-label"' in replay and "the time it took: wall-clock / CPU seconds" in replay


def test_a_points_tie_shows_the_rating_that_breaks_it_however_wide(tmp_path, doc):
    bob, alice = doc["submissions"][0], doc["submissions"][1]
    alice.update(points=1.5, rating=1517, rating_low=900, rating_high=2134)       # ±617: too wide alone
    bob.update(points=1.5, rating=1483, rating_low=866, rating_high=2100)
    render_site(doc, tmp_path / "s")
    index = html.unescape((tmp_path / "s" / "index.html").read_text(encoding="utf-8"))
    assert "1517 <span class=\"interval\">±617</span>" in index and "1483" in index


def test_a_leaderboard_with_no_meaningful_rating_has_no_column_of_dashes(tmp_path, doc):
    for sub in doc["submissions"]:
        if sub.get("rating") is not None:
            sub.update(rating_low=sub["rating"] - 900, rating_high=sub["rating"] + 900)
    render_site(doc, tmp_path / "s")
    index = html.unescape((tmp_path / "s" / "index.html").read_text(encoding="utf-8"))
    assert "too few games to rate" not in index and ">Rating</th>" not in index
    assert "No ratings are shown: with these few games every rating's 95 % interval is wider than ±400" in index
    assert ">Points</th>" in index


def test_grader_play_prints_incidents_with_the_same_sentence(tmp_path, monkeypatch, capsys):
    import yaml

    from grader import usecases
    from grader.cli import main
    from grader.match import GameResult, PlayerRecord
    from grader.submissions import builtin

    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {"ruleset": "quoridor", "submissions": "subs"}}}))
    (tmp_path / "subs").mkdir()
    late = {"kind": "timeout", "message": "answered after 2.4 s, over its limit of 2 s", "ply": 4}

    def one_game(assignment, a, b, *, games, seed):
        seats = (builtin(assignment.ruleset, "random"), builtin(assignment.ruleset, "random"))
        result = GameResult((0, 1), (0, 1), "timeout", "seat 0 was late",
                            players=[PlayerRecord("a", incidents=[late]), PlayerRecord("b")])
        yield usecases.PlayedGame(1, seed, seats, result)

    monkeypatch.setattr(usecases, "play", one_game)
    assert main(["--config", str(config), "play", "random", "random", "--assignment", "q"]) == 0
    assert "Move 5, seat 0 (random (built-in)): timeout — answered after 2.4 s, over its limit of 2 s." in capsys.readouterr().out


def test_the_terminal_standings_show_the_rating_that_breaks_a_points_tie(doc):
    from rich.console import Console

    from grader.terminal_views import print_standings

    bob, alice = doc["submissions"][0], doc["submissions"][1]
    alice.update(points=1.5, rating=1517, rating_low=900, rating_high=2134)
    bob.update(points=1.5, rating=1483, rating_low=866, rating_high=2100)
    doc["submissions"][2]["display_name"] = "Mallory"
    out = Console(record=True, width=120)
    print_standings(out, doc)
    text = out.export_text()
    assert "1517 ±617" in text and "1483 ±617" in text
