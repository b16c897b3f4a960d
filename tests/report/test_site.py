"""The static site without a browser: pages parse with balanced tags, links resolve, submission data
is escaped, missing fields render as "not available", anonymised mode hides ids."""
from __future__ import annotations

import base64
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from grader.report import (
    ReportError,
    game_shard,
    read_shard,
    render_site,
    script_json,
    shard_entry,
    shard_text,
    slug_hash,
    submission_pages,
    svg_data_uri,
)


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def records(site: Path) -> dict[str, dict]:
    """Every game record of a site, by its key, read back from the shard files."""
    found = {}
    for shard in sorted((site / "games").glob("*.js")):
        for record in read_shard(shard.read_text(encoding="utf-8")):
            assert game_shard(record["key"]) == shard.stem, (shard.name, record["key"])
            found[record["key"]] = record
    return found


def published(site: Path) -> list[Path]:
    """Everything a site serves that carries data: its pages and its game records."""
    return pages(site) + sorted((site / "games").glob("*.js"))


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for name in ("href", "src"):
            if a.get(name) and not a[name].startswith("data:"):
                self.hrefs.append(a[name])


def _links(path: Path) -> _Links:
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def _svg(uri: str) -> str:
    head, _, body = uri.partition(",")
    assert head == "data:image/svg+xml;base64"
    return base64.b64decode(body).decode("utf-8")


def test_site_has_every_page(site, doc):
    assert (site / "index.html").is_file() and (site / "crosstable.html").is_file()
    assert len(list((site / "submissions").glob("*.html"))) == len(doc["submissions"])
    assert (site / "replay.html").is_file() and not list((site / "games").glob("*.html"))   # no page per game
    assert len(records(site)) == len(doc["games"])
    assert {f.name for f in (site / "static").iterdir()} == {"style.css", "sort.js", "viewer.js"}


def test_every_page_has_balanced_tags_and_only_our_scripts(site, parse):
    for page in pages(site):
        result = parse(page.read_text(encoding="utf-8"))
        assert result.errors == [], f"{page.relative_to(site)}: {result.errors}"
        for attrs in result.scripts:
            allowed = (attrs.get("src", "").endswith(("static/sort.js", "static/viewer.js"))
                       or attrs == {"type": "application/json", "id": "replay-site"})
            assert allowed, f"{page.relative_to(site)} has an unexpected script {attrs}"
        for text in result.script_text:
            assert "<" not in text and ">" not in text


def test_submission_data_is_escaped_everywhere(site, hostile):
    for shard in (site / "games").glob("*.js"):           # records: JSON the viewer sets as text only
        assert not re.search(r"[<>&\u2028\u2029]", shard.read_text(encoding="utf-8")), shard.name
    assert any(hostile in r["texts"] for r in records(site).values())
    for page in pages(site):
        text = page.read_text(encoding="utf-8")
        assert "<script>window.__pwned" not in text, page.name
        assert "onerror=" not in text.replace("onerror=&#34;", "").replace("onerror=&quot;", ""), page.name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in index


def test_every_relative_link_and_anchor_resolves(site):
    _assert_links_resolve(site)


def test_crosstable_links_resolve_when_the_games_are_missing(tmp_path, doc):
    doc["games"] = []
    render_site(doc, tmp_path / "s")
    _assert_links_resolve(tmp_path / "s")
    assert 'href="submissions/' in (tmp_path / "s" / "crosstable.html").read_text(encoding="utf-8")


def _assert_links_resolve(site: Path) -> None:
    for page in pages(site):
        for href in _links(page).hrefs:
            parts = urlsplit(href)
            assert not parts.scheme and not parts.netloc, f"{page.name} links outside the site: {href}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(site)} → {href}"
            if target.name == "replay.html" and parts.fragment:      # the viewer's address: <shard>/<key>
                shard, key = parts.fragment.split("/")
                assert key in {r["key"] for r in read_shard((site / "games" / f"{shard}.js").read_text("utf-8"))}
            elif parts.fragment and target.suffix == ".html":
                assert parts.fragment in _links(target).ids, f"{page.relative_to(site)} → {href}"


def test_leaderboard_rows_in_rank_order_and_the_others_apart_with_the_reason(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    body = text[text.index("<tbody>"):text.index("</tbody>")]
    names = re.findall(r'<a href="submissions/[^"]+\.html">(.*?)</a>', body)
    assert names[:2] == ["Alice", "Bob"] and names[2].startswith("&lt;script&gt;") and len(names) == 3
    assert "2½" in body and "±80" in body and "9.5" in body and "2–1–0" in body
    assert "not available" not in text and "(1540–1700)" not in body
    out = text[text.index('id="not-in-league"'):]
    assert "Trudy" in out and "opened a network socket" in out
    assert "4 student submissions (3 in the league, 1 not" in text


def test_header_shows_the_assignment_facts(site):
    text = (site / "index.html").read_text(encoding="utf-8")
    for fact in ("demo", "quoridor", "1.2", "move_s: 1", "memory_mb: 512", "round_robin", "2 games per pair",
                 "2026-11-22T08:00:00Z", "0.3.0"):
        assert fact in text, fact


def test_crosstable_cells_link_to_the_pairs_games(site):
    text = (site / "crosstable.html").read_text(encoding="utf-8")
    alice, bob = slug_hash("alice"), slug_hash("bob")
    assert f'href="submissions/{alice}.html#vs-{bob}">1½<small>/2</small>' in text
    assert f'href="submissions/{bob}.html#vs-{alice}">½<small>/2</small>' in text
    section = (site / "submissions" / f"{alice}.html").read_text(encoding="utf-8")
    vs_bob = section[section.index(f'id="vs-{bob}"'):]
    vs_bob = vs_bob[:vs_bob.index("</table>")]
    assert vs_bob.count('href="../replay.html#') == 2


def test_submission_page_shows_validation_games_resources_output(site):
    page = (site / "submissions" / f"{slug_hash('mallory')}.html").read_text(encoding="utf-8")
    assert "legal opening" in page and "✘" in page and "0 / 1" in page
    assert '<pre class="picture">+---+\n| X |\n+---+</pre>' in page
    assert "Traceback: &lt;script&gt;" in page
    assert "grader play alice mallory --assignment demo --seed 2" in page
    assert "0.420 s" in page and "88.5 MB" in page
    assert page.count("&lt;script&gt;window.__pwned=1&lt;/script&gt;") >= 3  # name, message, output


def test_check_svg_is_shown_as_an_image(tmp_path, doc):
    doc["submissions"][2]["validation"]["checks"][1]["svg"] = "<svg><rect width='5' height='5'/></svg>"
    render_site(doc, tmp_path / "s")
    page = (tmp_path / "s" / "submissions" / f"{slug_hash('mallory')}.html").read_text(encoding="utf-8")
    assert '<img class="picture" src="data:image/svg+xml;base64,' in page
    assert "<pre class=\"picture\">" not in page


def test_the_grade_page_says_why_the_grade(tmp_path, doc):
    doc["submissions"][2].update(grade=10.0, grade_max=10.0,
                                 grade_reason="beats greedy: 41 of 52 games, error below 5%")
    render_site(doc, tmp_path / "s")
    page = (tmp_path / "s" / "submissions" / f"{slug_hash('mallory')}.html").read_text(encoding="utf-8")
    assert "10 / 10" in page and "beats greedy: 41 of 52 games, error below 5%" in page


def test_a_game_record_carries_its_moves_and_the_fallback_frames(site, doc):
    record = records(site)[slug_hash("g-ab-0")]
    assert record["texts"] == ["e2", "e8", "e3", "e7", "e4"] and record["moves"] == doc["games"][0]["moves"]
    assert record["seats"] == ["Alice", "Bob"] and record["seed"] == 0 and record["result"] == "1–0"
    assert record["reason"] == "goal" and record["detail"] == "detail of g-ab-0"
    assert record["times"] == doc["games"][0]["times"] and record["reproduce"].startswith("grader play alice bob")
    assert len(record["frames"]) == 6                      # no board script: the ruleset's pictures, here
    assert ">ply 3<" in _svg(record["frames"][3]) and 'cx="70"' in _svg(record["frames"][3])
    for page in pages(site):                               # pictures live in the records only
        assert "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIyMDAi" \
            not in page.read_text(encoding="utf-8"), page.name


def test_with_a_board_script_records_carry_no_pictures_and_the_viewer_loads_it(tmp_path, doc, frames):
    board = tmp_path / "board.js"
    board.write_text("window.replayBoard = {};\n", encoding="utf-8")
    calls = []
    render_site(doc, tmp_path / "s", lambda g: calls.append(g) or frames(g), board=board)
    assert calls == [] and all("frames" not in r for r in records(tmp_path / "s").values())
    assert (tmp_path / "s" / "static" / "board.js").read_text(encoding="utf-8") == "window.replayBoard = {};\n"
    assert '<script src="static/board.js"></script>' in (tmp_path / "s" / "replay.html").read_text(encoding="utf-8")
    render_site(doc, tmp_path / "s")                       # the ruleset has none now: no stale script
    assert not (tmp_path / "s" / "static" / "board.js").exists()
    assert "board.js" not in (tmp_path / "s" / "replay.html").read_text(encoding="utf-8")


def test_game_records_round_trip_through_their_shard_files(tmp_path, doc, hostile):
    doc["games"][0].update(move_texts=[hostile, "</script>\u2028\u2029", "ž", "e7", "e4"], seed=2**62,
                           moves=[["pit", 3], ["skip"], {"to": [1, 2]}, "e7", 4], detail=None,
                           times=[[None, 0.1]], incidents=["x,\ny"])
    render_site(doc, tmp_path / "s")
    record = records(tmp_path / "s")[slug_hash("g-ab-0")]
    assert record["texts"] == doc["games"][0]["move_texts"] and record["moves"] == doc["games"][0]["moves"]
    assert record["seed"] == 2**62 and record["detail"] is None and record["incidents"] == ["x,\ny"]
    assert record["times"] == [[None, 0.1]]
    for shard in (tmp_path / "s" / "games").glob("*.js"):
        text = shard.read_text(encoding="utf-8")
        assert text.count("\n") == len(read_shard(text)) + 2 and "</script>" not in text and "\u2028" not in text
    with pytest.raises(ReportError):
        read_shard("alert(1);\n")


def test_a_shard_packs_each_record_and_refuses_what_it_did_not_pack():
    """A record repeats itself ply after ply: packed, a long game takes a fraction of its JSON (the
    300-student sites' size), and reading a shard refuses a line it cannot unpack or whose record
    names another game."""
    moves = [{"type": 2, "edges": [[r % 8, c % 9, r % 8 + 1, c % 9]]} for r in range(20) for c in range(10)]
    record = {"key": "g-long-0", "moves": moves, "texts": [f"wall ({m['edges'][0][0]},{m['edges'][0][1]})" for m in moves],
              "times": [[0.0123, 0.0119]] * len(moves)}
    entry = shard_entry(record)
    assert len(entry) < len(script_json(record)) / 3
    assert "</script>" not in entry and read_shard(shard_text([record])) == [record]
    other = json.loads(shard_entry({**record, "key": "g-other-0"}))[1]
    for line in ('["g-long-0", "QUJD"]', '["g-long-0", "not base64!"]', json.dumps(["g-long-0", other]),
                 '{"key": "g-long-0"}', '["../x", "' + json.loads(entry)[1] + '"]'):
        with pytest.raises(ReportError):
            read_shard("replayRecords([\n" + line + "\n]);\n")


def test_replay_without_usable_frames_says_why(tmp_path, doc):
    key = slug_hash("g-ab-0")
    render_site(doc, tmp_path / "none")
    assert records(tmp_path / "none")[key]["missing"] == "Board pictures are not available for this report."

    def broken(game):
        raise ValueError("bad move in replay")
    render_site(doc, tmp_path / "broken", broken)
    assert records(tmp_path / "broken")[key]["missing"] == \
        "Board pictures are not available: ValueError: bad move in replay"

    render_site(doc, tmp_path / "short", lambda g: ["<svg/>"])
    assert "expected 6 pictures, got 1" in records(tmp_path / "short")[key]["missing"]


@pytest.mark.parametrize("broken", [
    {},
    {"assignment": None, "submissions": None, "crosstable": None, "games": None},
    {"submissions": [{}, {"id": None}, "not a dict", {"id": 5, "points": "many", "rank": "first",
                                                     "validation": {"checks": [None, {}]}}],
     "games": [{}, {"id": "x", "points": [1], "moves": None, "times": "slow"}, {"seat0": 5, "seat1": None}],
     "crosstable": {"5": {"7": None}, "x": "y"}},
])
def test_missing_or_malformed_fields_render_plainly(tmp_path, parse, broken):
    render_site(broken, tmp_path / "s")
    for page in pages(tmp_path / "s"):
        assert parse(page.read_text(encoding="utf-8")).errors == [], page.name
    assert "not available" in (tmp_path / "s" / "index.html").read_text(encoding="utf-8")


def test_a_document_that_is_not_an_object_is_one_sentence(tmp_path):
    with pytest.raises(ReportError, match=r"^The results document must be a JSON object, not list\.$"):
        render_site([], tmp_path / "s")


def test_anonymised_mode_never_shows_the_ids(tmp_path, doc, parse):
    real = {"alice": "Alice Novakova", "bob": "Bob Dvorak", "mallory": "Mallory Svoboda", "trudy": "Trudy Kral"}
    text = json.dumps(doc)
    for old, new in real.items():
        text = text.replace(f'"{old}"', f'"{new}"').replace(f" {old} ", f" {new} ")
    doc = json.loads(text)
    doc["assignment"]["anonymised"] = True
    for n, sub in enumerate(doc["submissions"]):
        sub["display_name"] = f"Player {n + 1}"
    render_site(doc, tmp_path / "s")
    for page in published(tmp_path / "s"):
        content = page.read_text(encoding="utf-8")
        assert page.suffix != ".html" or parse(content).errors == []
        for name in real.values():
            assert name not in content and slug_hash(name) not in content, (page.name, name)
            assert slug_hash(name) not in page.name
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    assert "Player 2" in index and "anonymised" in index


def test_ids_become_safe_distinct_file_names(tmp_path, doc):
    doc["submissions"][0]["id"] = "../../etc/passwd"
    doc["submissions"][1]["id"] = "A b"
    doc["submissions"][2]["id"] = "a-b"
    render_site(doc, tmp_path / "s")
    names = [p.name for p in (tmp_path / "s" / "submissions").iterdir()]
    assert len(names) == 4 and all(re.fullmatch(r"[a-z0-9-]+\.html", n) for n in names)
    assert not (tmp_path / "etc").exists()
    assert slug_hash("A b") != slug_hash("a-b")
    assert re.fullmatch(r"[0-9a-f]{8}", slug_hash("<>&"))


def test_rendering_again_removes_pages_of_the_previous_render(tmp_path, doc):
    render_site(doc, tmp_path / "s")
    doc["submissions"] = doc["submissions"][:1]
    doc["games"] = doc["games"][:1]
    render_site(doc, tmp_path / "s")
    assert len(list((tmp_path / "s" / "submissions").glob("*.html"))) == 1
    assert len(records(tmp_path / "s")) == 1 and len(list((tmp_path / "s" / "games").iterdir())) == 1


def test_script_json_cannot_end_the_script_element():
    value = {"s": "</script><!-- & \u2028\u2029 >"}
    text = script_json(value)
    assert not re.search(r"[<>&\u2028\u2029]", text)
    assert json.loads(text) == value


def test_svg_data_uri_adds_the_namespace():
    uri = svg_data_uri("<svg width='1'></svg>")
    assert _svg(uri) == "<svg xmlns=\"http://www.w3.org/2000/svg\" width='1'></svg>"
    assert _svg(svg_data_uri("<svg xmlns='x'/>")) == "<svg xmlns='x'/>"


def test_submission_pages_names_the_written_files(tmp_path, doc):
    doc["submissions"][1]["display_name"] = doc["submissions"][0]["display_name"] = "Same"
    doc["assignment"]["anonymised"] = True
    render_site(doc, tmp_path / "s", public=True)
    links = submission_pages(doc)
    assert set(links) == {"alice", "bob", "mallory", "trudy"}
    assert len(set(links.values())) == 4
    assert all((tmp_path / "s" / path).is_file() for path in links.values())


def test_the_public_site_shows_no_names_ids_paths_commands_or_output(tmp_path, doc, parse):
    doc["submissions"][1]["display_name"] = "Alice Novakova"
    doc["submissions"][1]["student_name"] = "Alice Novakova"
    for n, sub in enumerate(doc["submissions"]):
        sub["public_name"] = f"Calm Otter {n}"
    doc["submissions"][2]["validation"]["checks"][1]["message"] = (
        'Traceback: File "/home/teacher/grading/submissions/alice/player.py", line 3, in move')
    doc["submissions"][3]["status_detail"] = "alice.zip was refused: it holds a link"
    doc["games"][0]["detail"] = "alice's player in /home/teacher/x.py reached the goal"
    doc["games"][0]["incidents"] = [{"kind": "late", "message": "alice was late"}]
    render_site(doc, tmp_path / "pub", public=True)
    everything = ""
    for page in published(tmp_path / "pub"):
        content = page.read_text(encoding="utf-8")
        assert page.suffix != ".html" or parse(content).errors == [], page.name
        if page.suffix == ".js":
            content = json.dumps(read_shard(content), ensure_ascii=False)
        everything += html.unescape(content) + page.name
    for secret in ("Alice Novakova", "alice", "/home/teacher", "grader play", "thinking...", slug_hash("alice")):
        assert secret not in everything, secret
    assert "Calm Otter 1" in everything and 'File "player.py", line 3' in everything
    assert "Calm Otter 1.zip was refused" in everything
    assert "Calm Otter 1's player in x.py reached the goal" in everything and "Calm Otter 1 was late" in everything
    assert "Reproduce" not in everything and "Captured output" not in everything


def test_the_instructor_site_keeps_names_commands_and_output(site):
    page = (site / "submissions" / f"{slug_hash('alice')}.html").read_text(encoding="utf-8")
    assert "Alice" in page and "grader play alice bob" in page and "thinking..." in page


def test_empty_sections_are_left_out_and_gates_are_not_zero_points(tmp_path, doc):
    trudy = doc["submissions"][3]
    trudy["validation"] = {"passed": False, "points": 0, "max_points": 1, "checks": [
        {"name": "interface", "title": "Interface", "passed": False, "points": 0, "max_points": 0,
         "message": "no class Player"}]}
    render_site(doc, tmp_path / "s")
    page = (tmp_path / "s" / "submissions" / f"{slug_hash('trudy')}.html").read_text(encoding="utf-8")
    assert "Resource use" not in page and "Captured output" not in page and "not available" not in page
    assert "0 / 0" not in page and "no points: a gate" in page
    assert "Rating" not in page and "Rank" not in page                        # not in the league


def test_ratings_are_shown_as_plus_minus_only_where_they_mean_something(tmp_path, doc):
    doc["submissions"][0].update(rating=517, rating_low=-642, rating_high=1676)
    render_site(doc, tmp_path / "s")
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    assert "517" not in index and "-642" not in index and "±80" in index
    assert "too few games to rate" in index


def test_leaderboard_counts_students_not_builtins(tmp_path, doc):
    doc["submissions"].append({"id": "builtin:random", "display_name": "random (built-in)", "status": "built-in",
                               "rank": 4, "points": 0, "wins": 0, "draws": 0, "losses": 2, "games": 2})
    render_site(doc, tmp_path / "s")
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    assert "4 student submissions (3 in the league, 1 not" in index and "1 built-in player;" in index


def test_both_sites_replay_each_game_once(tmp_path, doc, frames):
    from grader.report import render_sites

    calls = []

    def counted(game):
        calls.append(game["id"])
        return frames(game)

    written = render_sites(doc, [(tmp_path / "instructor", False), (tmp_path / "public", True)], counted)
    assert sorted(calls) == sorted(g["id"] for g in doc["games"])
    assert [p.parent.name for p in written] == ["instructor", "public"]
    assert len(records(tmp_path / "public")) == len(doc["games"])
    assert all(len(r["frames"]) == len(r["texts"]) + 1 for r in records(tmp_path / "public").values())


@pytest.mark.parametrize("public", [False, True])
def test_game_numbers_and_links_do_not_depend_on_the_order_games_finished(tmp_path, doc, public):
    for n, sub in enumerate(doc["submissions"]):
        sub["public_name"] = f"Calm Otter {n}"
    extra = [dict(doc["games"][0], id=f"g-ab-{k}", seed=10 + k, game_index=2 + k) for k in range(4)]
    doc["games"] += extra

    def numbered(games, out):
        d = dict(doc, games=games)
        render_site(d, tmp_path / out, public=public)
        return {r["seed"]: (r["key"], r["n"]) for r in records(tmp_path / out).values()}

    first = numbered(list(doc["games"]), "one")
    again = numbered(list(reversed(doc["games"])), "two")
    assert len(first) == len(doc["games"]) and first == again


def test_a_league_ranked_by_rating_shows_every_rating_with_its_interval_and_says_so(tmp_path, doc):
    """Issue 40: the ranking number was "–" in every row, so 7 points ranked above 8 for no
    visible reason. Where the table ranks by rating, the rating and its interval are shown,
    however wide."""
    doc["assignment"]["league"] |= {"format": "random_subset", "ranked_by": "rating"}
    doc["submissions"][0].update(rating=1480, rating_low=900, rating_high=2060)          # bob: ±580
    doc["submissions"][1].update(rating=1620, rating_low=1000, rating_high=2240)         # alice: ±620
    render_site(doc, tmp_path / "s")
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    body = index[index.index("<tbody>"):index.index("</tbody>")]
    assert "1620" in body and "±620" in body and "1480" in body and "±580" in body
    assert "Ranked by rating" in index
    assert re.search(r'<th[^>]*class="ranks"[^>]*>Rating</th>', index)
    page = (tmp_path / "s" / "submissions" / f"{slug_hash('alice')}.html").read_text(encoding="utf-8")
    assert "1620" in page and "±620" in page
    doc["assignment"]["league"]["ranked_by"] = "points"                                  # points: wide ones hidden
    render_site(doc, tmp_path / "p")
    index = (tmp_path / "p" / "index.html").read_text(encoding="utf-8")
    assert "±620" not in index and "Ranked by points" in index
    assert re.search(r'<th[^>]*class="ranks"[^>]*>Points</th>', index)


def test_the_leaderboard_explains_each_grade_in_one_line(tmp_path, doc):
    why = ("beats random: 14 of 16 games, error below 5%: 72.4 from rank 5 of 12 (rating 1540 ±60; "
           "passing players from rating 1400 to 1700)")
    doc["submissions"][1].update(grade=72.4, grade_max=100, grade_reason=why)
    render_site(doc, tmp_path / "s")
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    row = next(r for r in index.split("<tr") if ">Alice</a>" in r)
    assert why in row and "72.4" in row


def test_the_terminal_standings_show_the_ranking_number_and_each_grade_in_one_line(doc):
    from rich.console import Console

    from grader.terminal_views import print_standings

    why = "beats random: 14 of 16 games, error below 5%: 72.4 from rank 1 of 2 (rating 1620 ±620; passing …)"
    doc["assignment"]["league"]["ranked_by"] = "rating"
    doc["submissions"][1].update(rating=1620, rating_low=1000, rating_high=2240, grade=72.4, grade_max=100,
                                 grade_reason=why)
    out = Console(record=True, width=100)
    print_standings(out, doc)
    text = out.export_text()
    assert "1620 ±620" in text
    assert f"  Alice: 72.4/100: {why}" in text.splitlines()


def test_a_failed_submission_says_failed_once_in_the_terminal_standings_and_on_the_site(tmp_path, doc):
    from rich.console import Console

    from grader.league import LeagueRun
    from grader.outputs import submission_status
    from grader.terminal_views import print_standings

    checks = [{"name": "expand_obstacles", "required": True, "passed": False, "informational": False,
               "points": 0, "max_points": 1, "message": "22 of 74 positions answered wrongly.", "picture": None,
               "svg": None}]
    validation = {"passed": False, "points": 1, "max_points": 2, "checks": checks}
    run = LeagueRun(None, [], {"carol": validation}, [], [], {})     # type: ignore[arg-type]
    status, why = submission_status(run, "carol")
    assert status == "failed" and why == "at the expand_obstacles stage of validation: 22 of 74 positions answered wrongly."
    doc["submissions"].append({**doc["submissions"][3], "id": "carol", "display_name": "Carol", "status": status,
                               "status_detail": why, "validation": validation, "grade": 0, "grade_max": 10})
    out = Console(record=True, width=200)
    print_standings(out, doc)
    said = [line for line in out.export_text().splitlines() if "Carol" in line]
    assert len(said) == 2 and sum(line.count("failed") for line in said) == 1, said     # its row, then its reason
    render_site(doc, tmp_path / "s")
    index = (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    out_of_league = re.sub(r"<[^>]+>", "", index[index.index('id="not-in-league"'):])
    carol = next(line for line in out_of_league.splitlines() if "Carol" in line)
    assert carol.count("failed") == 1 and "at the expand_obstacles stage of validation: 22 of 74" in carol, carol
