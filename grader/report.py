"""The static HTML site of a league: leaderboard, crosstable, one page per submission, and one
replay viewer shared by every game.

`render_site(doc, out_dir, frames, board)` turns the results document (results.json; its types and
schema: `grader/results_doc.py`) into a folder that opens from disk without a server or network:
Jinja2 templates (autoescaped, compiled once), one CSS file and small plain-JS files copied next to
the pages. Games are not pages: each is a compact record (players, seed, moves, texts, times, result), packed (`shard_entry`: deflated,
base64), in one of at most 256 shard files `games/<xx>.js` (xx from the game's key), and
`replay.html#<xx>/<key>` loads its shard and replays it. Positions are drawn in the browser by the ruleset's own script (`board`, copied to
`static/board.js`: `window.replayBoard = {start(seed, params, startPosition), play(position, move),
svg(position)}`; `startPosition` is the record's `start`, written by `starts(game)` for a game whose
start the script cannot derive from the seed, e.g. a board drawn by Python's RNG);
a ruleset without one falls back to `frames`, pictures replayed here and stored in the record.
`public=True` makes the site to publish: pseudonyms (`public_name`), no ids, paths, commands or
captured output; `render_sites` writes the instructor's and the public site in one pass.

Everything a submission controls (names, ids, output, exception text, move texts) is escaped in
pages and set as text (never parsed as HTML) by the viewer; JSON put into a page or a shard is safe
inside <script>; board pictures are shown as <img> data URIs, so even an SVG carrying script could
not run; no page has an inline script (the upload service serves the sites under a CSP). Any field
of the document may be missing: the page then says "not available" instead of breaking.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO, overload

import jinja2
import markupsafe

from .feedback import ranked_by, rating, tied_on_points, verdict
from .incidents import incident_sentence
from .results_doc import GameEntry, ResultsDoc
from .site_games import Identity, Play, SiteGames

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
BOARD_KIT = STATIC / "board_kit.js"     # window.boardKit: copied only beside a ruleset's board script

Frames = Callable[[GameEntry], list[str]]
Starts = Callable[[GameEntry], object]      # game → its start position, as the board script reads it

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class ReportError(Exception):
    """The results document cannot be turned into a site, as one sentence."""


# ---------------------------------------------------------------------------------------------
# Small value helpers: tolerant of None and of wrong types, since any field may be missing.

def _text(value) -> str | None:
    """A displayable string, or None when there is nothing to show."""
    if value is None or value == "":
        return None
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _number(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if value == value else None          # NaN counts as missing


def _fmt(value, digits: int = 1) -> str | None:
    """A number for a table cell: integers without decimals, others with `digits` places."""
    x = _number(value)
    if x is None:
        return None
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}f}"


def _points(value) -> str | None:
    """League points with halves shown as ½ (1.5 → 1½)."""
    x = _number(value)
    if x is None:
        return None
    whole, frac = divmod(x, 1)
    if frac == 0.5:
        return ("" if whole == 0 else str(int(whole))) + "½"
    return _fmt(x, 2)


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def slug_hash(raw: str, length: int = 40) -> str:
    """A URL- and file-safe key for an arbitrary string: a readable slug plus a short hash.

    Different strings get different keys even when their slugs agree ("A b" vs "a-b")."""
    slug = re.sub(r"[^a-z0-9]+", "-", raw.lower()).strip("-")[:length].strip("-")
    digest = hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}-{digest}" if slug else digest


def script_json(value) -> str:
    """JSON that can sit inside <script> ... </script> without ending it or changing its meaning."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def svg_data_uri(svg: str) -> str:
    """An <img src> for a trusted SVG string; scripts inside an image never run.

    Base64 rather than percent-encoding: it is done in C (a replay has thousands of frames) and
    the result needs no escaping in HTML attributes or JSON."""
    if "xmlns=" not in svg[:500]:
        svg = re.sub(r"<svg\b", '<svg xmlns="http://www.w3.org/2000/svg"', svg, count=1)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8", "replace")).decode("ascii")


_NOT_AVAILABLE = markupsafe.Markup('<span class="na">not available</span>')


def not_available(value, suffix: str = "") -> markupsafe.Markup:
    """`{{ na(x) }}` in the templates: the value escaped, or a plain "not available" when None.
    A Python function rather than a Jinja macro: it is called ~100,000 times in a large league."""
    if value is None:
        return _NOT_AVAILABLE
    return markupsafe.escape(value) + suffix


# ---------------------------------------------------------------------------------------------
# The view model: the document reshaped into exactly what the templates print.

class _Names:
    """Submission id → (URL key, name shown). In anonymised mode the key comes from the
    pseudonym only, so neither file names nor links contain the raw id."""

    def __init__(self, submissions: list[dict], anonymised: bool, public: bool = False):
        self.anonymised = anonymised = anonymised or public
        self.public = public
        self.key: dict[str, str] = {}
        self.name: dict[str, str] = {}
        self.hidden: dict[str, str] = {}         # public site: raw id or real name → the name shown
        used: set[str] = set()
        for n, sub in enumerate(submissions, 1):
            raw = _text(sub.get("id"))
            if public and sub.get("status") != "built-in":
                shown = _text(sub.get("public_name")) or f"submission {n}"
                for secret in (raw, _text(sub.get("display_name")), _text(sub.get("student_name"))):
                    if secret and len(secret) >= 3 and secret != shown:
                        self.hidden[secret] = shown
            else:
                shown = _text(sub.get("display_name")) or (None if anonymised else raw) or f"submission {n}"
            key = slug_hash(shown if anonymised else (raw or shown))
            while key in used:
                key = slug_hash(f"{key}#{n}")
            used.add(key)
            if raw is not None and raw not in self.key:
                self.key[raw] = key
                self.name[raw] = shown
            sub["_key"], sub["_name"] = key, shown
        self._secrets = sorted(self.hidden, key=len, reverse=True)
        self._scrubbed: dict[str, str] = {}

    def shown(self, raw) -> str:
        raw = _text(raw)
        if raw in self.name:
            return self.name[raw]
        return "unknown submission" if self.anonymised or raw is None else raw

    @overload
    def scrub(self, text: str) -> str: ...
    @overload
    def scrub(self, text: str | None) -> str | None: ...

    def scrub(self, text: str | None) -> str | None:
        """Public site: a message without absolute paths, student ids or real names (remembered:
        a league's game details repeat, and each scrub tries every name; forgotten now and then,
        as a league's distinct messages may grow with its games)."""
        if text is None or (not self.hidden and not self.anonymised):
            return text
        if text not in self._scrubbed:
            if len(self._scrubbed) >= _SCRUBBED_KEPT:
                self._scrubbed.clear()
            clean = _PATH.sub(lambda m: m.group("name"), text)
            for secret in self._secrets:
                clean = clean.replace(secret, self.hidden[secret])
            self._scrubbed[text] = clean
        return self._scrubbed[text]


_SCRUBBED_KEPT = 4096
_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\](?:[^\s/\\'\"<>:]+[/\\])+(?P<name>[^\s/\\'\"<>:,;)]*)")


def submission_pages(doc: ResultsDoc, public: bool = True) -> dict[str, str]:
    """Submission id → its page's path inside the site ("submissions/<key>.html"), exactly as
    render_site names it (collisions, anonymised and public mode included): for links in the LMS
    feedback, which point into the published (public) site."""
    subs = [dict(s) for s in _list(_dict(doc).get("submissions")) if isinstance(s, dict)]
    names = _Names(subs, _dict(_dict(doc).get("assignment")).get("anonymised") is True, public)
    return {raw: f"submissions/{key}.html" for raw, key in names.key.items()}


def _result(points, seat: int | None = None) -> str | None:
    """'1–0', '½–½', '0–0' for a game; from one seat's side 'win', 'draw', 'loss' when asked."""
    pts = _list(points)
    if len(pts) != 2 or any(_number(p) is None for p in pts):
        return None
    if seat is not None:
        mine, theirs = pts[seat], pts[1 - seat]
        return "win" if mine > theirs else "loss" if mine < theirs else "draw" if mine > 0 else "loss (both)"
    return f"{_points(pts[0]) or '0'}–{_points(pts[1]) or '0'}"


def _status(sub: dict) -> tuple[str, str]:
    """(status word, one line saying why) for the leaderboard's status column."""
    status = _text(sub.get("status")) or "unknown"
    detail = _text(sub.get("status_detail"))
    if status == "failed" and not detail:
        failing = [c for c in _list(_dict(sub.get("validation")).get("checks"))
                   if isinstance(c, dict) and c.get("passed") is False]
        if failing:
            detail = f"at {_text(failing[0].get('name')) or 'a check'}"      # beside the status: "failed" once
    return status, detail or ""


def _plies(g: GameEntry) -> list[str]:
    """Each move's text in the course's notation (its wire form where no text was kept); the
    viewer numbers them, gives each its seat and formats its times."""
    texts = _list(g.get("move_texts"))
    return [(_text(texts[i]) if i < len(texts) else None) or _text(move) or "?"
            for i, move in enumerate(_list(g.get("moves")))]


def _games_of(doc: ResultsDoc) -> Iterable[GameEntry]:
    """The document's games, a list or a stream read afresh each pass (grader.outputs.GameStream);
    what is not a dict is skipped."""
    games = doc.get("games")
    if not isinstance(games, Iterable) or isinstance(games, (str, bytes, dict)):
        return ()
    return (g for g in games if isinstance(g, dict))


class _GameView:
    """One game as one site's pages and its record show it: made afresh from the document's game
    whenever needed and never kept (a 300-student league has ~90,000 games per site; what the
    submission pages and the numbering need of them waits in a `SiteGames` spill)."""

    __slots__ = ("detail", "game_index", "id", "identity", "incidents", "index", "key", "losing", "points", "reason",
                 "reproduce", "result", "seat_keys", "seat_names", "seats", "seed", "shard")

    def __init__(self, g: GameEntry, names: _Names):
        self.seats = (_text(g.get("seat0")), _text(g.get("seat1")))
        self.seat_names = (names.shown(self.seats[0]), names.shown(self.seats[1]))
        self.seat_keys = tuple(names.key.get(s) if s is not None else None for s in self.seats)
        self.seed = _text(g.get("seed"))
        self.id = None if names.anonymised else _text(g.get("id"))
        self.game_index = _text(g.get("game_index"))
        pair = sorted(self.seat_names)
        self.identity = Identity(pair[0], pair[1], _number(g.get("game_index")) or 0.0, str(g.get("seed")),
                                 self.seat_names[0], self.id, self.game_index)
        self.points = _list(g.get("points"))
        self.result = _result(g.get("points"))
        self.reason = _text(g.get("reason"))
        self.detail = names.scrub(_text(g.get("detail")))
        self.incidents = tuple(names.scrub(incident_sentence(i, self.seat_names)) for i in _list(g.get("incidents")))
        self.reproduce = None if names.anonymised else _text(g.get("reproduce"))
        # the move that lost the game is the student's and the staff's: never on the public site
        self.losing = [] if names.public else [found for _, found in sorted(_dict(g.get("losing_moves")).items())
                                               if isinstance(found, dict)]
        self.key = self.shard = ""
        self.index = 0

    def row(self) -> list:
        """What a submission page's table row prints of this game (spilled as JSON): the result
        from each seat's side, the score, reason, detail and `grader play` line."""
        return [_result(self.points, 0), _result(self.points, 1), self.result, self.reason, self.detail,
                self.reproduce]


class _Played:
    """One of a submission's games from its seat, as its page's table row shows it."""

    __slots__ = ("detail", "href", "index", "opponent", "reason", "reproduce", "result", "score", "seat")

    def __init__(self, play: Play):
        self.seat, self.opponent, self.index = play.seat, play.opponent, play.n
        self.href = f"replay.html#{game_shard(play.key)}/{play.key}"
        row = play.row
        self.result, self.score, self.reason, self.detail, self.reproduce = row[play.seat], *row[2:6]


def _number_games(games: SiteGames, site: int) -> None:
    """Give each of a site's games its number and URL key, in the order of their identities.

    A game's number and key come from its identity (the pairing as shown, the game's index in the
    pairing and its seed), never from the order games finished in, so "game 12" and its link stay
    the same when the league is run again. Anonymised: the key is made from the names shown, and
    neither the game id nor the `grader play` line (both name submissions by id) is shown."""
    for n, (pos, identity) in enumerate(games.in_identity_order(site), 1):
        if identity.id is None:
            key = slug_hash("\x1f".join((identity.pair_a, identity.pair_b, identity.index_text or "",
                                          identity.seed, identity.first)))
        else:
            key = slug_hash(identity.id)
        while not games.number(site, pos, n, key):
            key = slug_hash(f"{key}#{n}")


def game_shard(key: str) -> str:
    """Which of the 256 record files `games/<xx>.js` holds the game with this URL key: a function
    of the key alone, so a game's link (`replay.html#<xx>/<key>`) survives a re-run."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:2]


def game_record(game: _GameView, heavy: GameEntry, pictures: list[str] | None = None, missing: str | None = None,
                start: object = None) -> dict:
    """One game as the replay viewer reads it: a compact record of what the page shows (names,
    seed, moves on the wire for the ruleset's board script, texts in the course's notation, times,
    result); `start` where the board script cannot derive the start from the seed; `frames` only
    where the ruleset cannot draw in the browser. Built from the view of one
    site, so the public site's records carry only what its pages may show."""
    record = {"key": game.key, "n": game.index, "seats": game.seat_names, "seat_keys": game.seat_keys,
              "seed": _number(heavy.get("seed")), "game_index": game.game_index, "result": game.result,
              "reason": game.reason, "detail": game.detail, "moves": _list(heavy.get("moves")),
              "texts": _plies(heavy), "times": _list(heavy.get("times")), "incidents": game.incidents}
    if game.id is not None:
        record["id"] = game.id
    if game.reproduce is not None:
        record["reproduce"] = game.reproduce
    if game.losing:
        record["losing"] = game.losing
    if start is not None:
        record["start"] = start
    if pictures is not None:
        record["frames"] = pictures
    elif missing is not None:
        record["missing"] = missing
    return record


_SHARD_HEAD, _SHARD_TAIL = "replayRecords([\n", "\n]);\n"
_KEY = re.compile(r"[a-z0-9-]{1,200}")


def shard_entry(record: dict) -> str:
    """One game as its shard file carries it: `["<key>","<record>"]`, the record's JSON
    raw-deflated and in base64. A record repeats itself ply after ply (a 200-ply Quoridor game
    shrinks about 4x), the viewer inflates only the game asked for, and base64 holds no character
    that could end or change a script."""
    packed = zlib.compress(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6, -15)
    return json.dumps([record["key"], base64.b64encode(packed).decode("ascii")])


def shard_text(records: Iterable[dict]) -> str:
    """A whole shard file of these records (for tests and tools; `render_sites` streams them)."""
    return _SHARD_HEAD + ",\n".join(map(shard_entry, records)) + _SHARD_TAIL


def read_shard(text: str) -> list[dict]:
    """The records of one shard file, as `render_sites` wrote them (for tests and tools)."""
    if not (text.startswith(_SHARD_HEAD) and text.endswith(_SHARD_TAIL)):
        raise ReportError("This is not a shard of game records.")
    body = text[len(_SHARD_HEAD):-len(_SHARD_TAIL)]
    records = []
    for line in body.split("\n"):
        if not line:
            continue
        try:
            key, packed = json.loads(line.rstrip(","))
            record = json.loads(zlib.decompress(base64.b64decode(packed, validate=True), -15))
        except (ValueError, TypeError, zlib.error):
            raise ReportError("A line of this shard is not a packed game record.") from None
        if not (isinstance(key, str) and _KEY.fullmatch(key) and isinstance(record, dict) and record.get("key") == key):
            raise ReportError("A line of this shard names another game than its record.")
        records.append(record)
    return records


def _validation(validation, names: _Names) -> dict | None:
    """The validation stages with points and the failing position's picture (SVG or text)."""
    if not isinstance(validation, dict):
        return None
    checks = []
    for c in _list(validation.get("checks")):
        if not isinstance(c, dict):
            continue
        svg = c.get("svg") if isinstance(c.get("svg"), str) and c.get("svg") else None
        checks.append({"name": _text(c.get("title")) or _text(c.get("name")) or "unnamed check",
                       "informational": c.get("informational") is True,
                       "passed": c.get("passed") if isinstance(c.get("passed"), bool) else None,
                       "points": _fmt(c.get("points"), 2), "max_points": _fmt(c.get("max_points"), 2),
                       "message": names.scrub(_text(c.get("message"))), "picture": names.scrub(_text(c.get("picture"))),
                       "svg": svg_data_uri(svg) if svg else None})
    passed = validation.get("passed")
    raw: list[Mapping] = [c for c in _list(validation.get("checks")) if isinstance(c, dict)]
    sentence = None
    if raw:
        sentence = names.scrub(verdict(raw, [], _number(validation.get("points")) or 0,
                                       _number(validation.get("max_points")) or 0)[1])
    return {"passed": passed if isinstance(passed, bool) else None, "checks": checks, "verdict": sentence,
            "points": _fmt(validation.get("points"), 2), "max_points": _fmt(validation.get("max_points"), 2)}


def _opponents(played: list[_Played], names: _Names) -> list[dict]:
    """A submission's games grouped by opponent (the crosstable links to each group's anchor)."""
    opponents: dict[str, dict] = {}
    for p in played:
        opp = p.opponent
        key = names.key.get(opp) if opp is not None else None
        entry = opponents.setdefault(opp or "", {"name": names.shown(opp), "key": key,
                                                 "anchor": "vs-" + (key or "unknown"), "games": []})
        entry["games"].append(p)
    return sorted(opponents.values(), key=lambda o: o["name"].lower())


def _rating(sub: dict, ranks: bool) -> tuple[str | None, str | None]:
    return rating(_number(sub.get("rating")), _number(sub.get("rating_low")), _number(sub.get("rating_high")),
                  ranks=ranks)


def _row(sub: dict, names: _Names, public: bool = False, rank_by: str = "points",
         tied: frozenset[float] | set[float] = frozenset()) -> dict:
    """One submission as its leaderboard row and its own page show it (its games are added when
    its page is written: `_games_part`). The number that orders the row is always shown: a rating
    with its interval, however wide, where the table ranks by rating or where the row's points
    are `tied` with another's (the rating then breaks the tie), and the points."""
    status, why = _status(sub)
    why = names.scrub(why)
    rating, spread = _rating(sub, ranks=rank_by == "rating" or _number(sub.get("points")) in tied)
    wdl = [_fmt(sub.get(k), 0) for k in ("wins", "draws", "losses")]
    return {
        "key": sub["_key"], "name": sub["_name"], "id": None if names.anonymised else _text(sub.get("id")),
        "rank": _fmt(sub.get("rank"), 0), "rank_sort": _number(sub.get("rank")),
        "points": _points(sub.get("points")), "points_sort": _number(sub.get("points")),
        "wdl": "–".join(w or "?" for w in wdl) if any(wdl) else None,
        "wins_sort": _number(sub.get("wins")),
        "games": _fmt(sub.get("games"), 0),
        "rating": rating, "rating_sort": _number(sub.get("rating")) if rating is not None else None,
        "rating_spread": spread,
        "grade": _fmt(sub.get("grade"), 2), "grade_max": _fmt(sub.get("grade_max"), 2),
        "grade_sort": _number(sub.get("grade")),
        "grade_reason": names.scrub(_text(sub.get("grade_reason"))),
        "status": status, "status_detail": why,
        "validation": _validation(sub.get("validation"), names),
        "slowest_move": _fmt(sub.get("slowest_move_s"), 3), "peak_memory": _fmt(sub.get("peak_memory_mb"), 1),
        "output": None if public else _text(sub.get("output")),
        "builtin": status == "built-in",
        "in_league": sub.get("rank") is not None,
        "sub_id": _text(sub.get("id")),
    }


def _games_part(row: dict, games: SiteGames, site: int, names: _Names) -> dict:
    """The games section of a submission's page, read back from the spill."""
    played = [_Played(p) for p in games.plays(site, row["sub_id"])] if row["sub_id"] is not None else []
    return {"opponents": _opponents(played, names), "game_count": len(played)}


class _CrossRow:
    """One crosstable row; its cells are made as the page is written, never all held (a
    300-student league's table has 90,000 cells)."""

    __slots__ = ("anchors", "cross_line", "ids", "key", "name", "order", "row")

    def __init__(self, row: dict, cross_line: dict, anchors: set[str], order: list[dict], ids: dict[str, str]):
        self.row, self.key, self.name, self.cross_line, self.anchors, self.order, self.ids = (
            row, row["key"], row["name"], cross_line, anchors, order, ids)

    @property
    def cells(self) -> Iterator[dict]:
        for b in self.order:
            cell = _dict(self.cross_line.get(self.ids[b["key"]]))
            anchor = f"vs-{b['key']}"
            href = f"submissions/{self.key}.html" + (f"#{anchor}" if anchor in self.anchors else "")
            yield {"self": b is self.row, "points": _points(cell.get("points")),
                   "games": _fmt(cell.get("games"), 0), "href": href if cell else None}


def _crosstable(cross: dict, rows: list[dict], ids: dict[str, str], games: SiteGames, site: int,
                names: _Names) -> list[_CrossRow]:
    """Rows and columns in leaderboard order; a cell links to the row submission's games
    against the column submission (to its page when those games are not in the document)."""
    order = [r for r in rows if r["key"] in ids]
    table = []
    for a in order:
        met = games.opponents(site, ids[a["key"]])
        anchors = {"vs-" + ((names.key.get(opp) if opp is not None else None) or "unknown") for opp in met}
        table.append(_CrossRow(a, _dict(cross.get(ids[a["key"]])), anchors, order, ids))
    return table


def _header(assignment: dict) -> dict:
    """The facts every page shows: assignment, ruleset and version, limits, league, seed, date."""
    league, limits = _dict(assignment.get("league")), _dict(assignment.get("limits"))
    return {
        "name": _text(assignment.get("name")),
        "title": _text(assignment.get("title")) or _text(assignment.get("name")) or "League results",
        "ruleset": _text(assignment.get("ruleset")), "ruleset_version": _text(assignment.get("ruleset_version")),
        "limits": [(str(k), _text(v) or "—") for k, v in limits.items()],
        "format": _text(league.get("format")), "games_per_pair": _text(league.get("games_per_pair")),
        "seed": _text(league.get("seed")), "generated_at": _text(assignment.get("generated_at")),
        "grader_version": _text(assignment.get("grader_version")),
        "anonymised": assignment.get("anonymised") is True,
        "params": _dict(assignment.get("game")),
    }


def _site_names(doc: ResultsDoc, public: bool) -> tuple[list[dict], _Names]:
    """The document's submissions (copies) and the names one site shows them by."""
    submissions = [dict(s) for s in _list(doc.get("submissions")) if isinstance(s, dict)]
    return submissions, _Names(submissions, _dict(doc.get("assignment")).get("anonymised") is True, public)


def _view(doc: ResultsDoc, submissions: list[dict], names: _Names, games: SiteGames, site: int,
          public: bool = False) -> dict:
    """Reshape the results document for the templates (every value present, possibly None);
    `games`: the spill holding this site's games (`site`), numbered (`_number_games`)."""
    assignment = _dict(doc.get("assignment"))
    ranks = ranked_by(doc)
    tied = tied_on_points(submissions)
    rows = [_row(sub, names, public, ranks, tied) for sub in submissions]
    rows.sort(key=lambda r: (r["rank_sort"] is None, r["rank_sort"] or 0, r["name"].lower()))
    ids = {sub["_key"]: sub_id for sub in submissions if (sub_id := _text(sub.get("id"))) is not None}
    league = [r for r in rows if r["in_league"]]
    rated = ranks == "rating" or any(r["rating"] is not None for r in league)
    header = _header(assignment) | {"public": public, "ranked_by": ranks, "rated": rated}
    return {"header": header, "rows": rows, "league": league, "game_count": games.count(site),
            "out": [r for r in rows if not r["in_league"]],
            "students": sum(not r["builtin"] for r in rows), "builtins": sum(r["builtin"] for r in rows),
            "crosstable": _crosstable(_dict(doc.get("crosstable")), league, ids, games, site, names)}


# ---------------------------------------------------------------------------------------------
# Rendering.

_env: jinja2.Environment | None = None


def _environment() -> jinja2.Environment:
    """One Jinja2 environment for the process, so each template is compiled once."""
    global _env
    if _env is None:
        _env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                                  autoescape=True, undefined=jinja2.StrictUndefined,
                                  trim_blocks=True, lstrip_blocks=True)
        _env.filters["script_json"] = lambda v: markupsafe.Markup(script_json(v))
        _env.globals["na"] = not_available
    return _env


def render_page(template: str, **context) -> str:
    """A stand-alone page (the instructor's similarity report) with the site's escaping rules."""
    return _environment().get_template(template).render(**context)


def _game_frames(game: GameEntry, frames: Frames | None) -> tuple[list[str] | None, str | None]:
    """The replay's board pictures (for a ruleset without a board script) as data URIs, or None
    and a sentence saying why not."""
    if frames is None:
        return None, "Board pictures are not available for this report."
    try:
        pictures = list(frames(game))
    except Exception as e:
        return None, f"Board pictures are not available: {type(e).__name__}: {e}"
    want = len(_list(game.get("moves"))) + 1
    if len(pictures) != want or not all(isinstance(p, str) for p in pictures):
        return None, f"Board pictures are not available: expected {want} pictures, got {len(pictures)}."
    return [svg_data_uri(p) for p in pictures], None


def _game_start(game: GameEntry, starts: Starts | None) -> object:
    """The game's start position for the board script, or None (the script then says it cannot
    draw this game, rather than drawing a wrong board)."""
    if starts is None:
        return None
    try:
        return starts(game)
    except Exception:
        return None


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _remove_stale(folder: Path, keep: Iterable[str], pattern: str = "*.html") -> None:
    """Delete files a previous render left behind (they might carry names this render hides)."""
    keep = set(keep)
    for page in folder.glob(pattern):
        if page.name not in keep:
            page.unlink()


def render_site(doc: ResultsDoc, out_dir: str | Path, frames: Frames | None = None, public: bool = False,
                board: Path | None = None, starts: Starts | None = None) -> Path:
    """Write the whole site for results document `doc` into `out_dir`; returns index.html's path.

    `board`: the ruleset's board script (positions drawn in the browser). Without one,
    `frames(game)` returns the SVG of the board after each ply of that game (index 0 = start),
    stored in its record; without either, or if it fails for a game, that replay shows the move
    list without pictures. `starts(game)`: the start position stored in each record for the board
    script (None: the script derives it from the seed and the params). `public`: the site to
    publish: students under their `public_name` (a pseudonym unless the config allows the name),
    no ids, paths, `grader play` lines or output."""
    return render_sites(doc, [(out_dir, public)], frames, board, starts)[0]


def render_sites(doc: ResultsDoc, targets: list[tuple[str | Path, bool]], frames: Frames | None = None,
                 board: Path | None = None, starts: Starts | None = None) -> list[Path]:
    """Several sites of one document ((folder, public) each: the instructor's and the public one)
    in one pass, so each game's fallback pictures are replayed once however many sites show them."""
    if not isinstance(doc, dict):
        raise ReportError(f"The results document must be a JSON object, not {type(doc).__name__}.")
    env = _environment()
    named = [_site_names(doc, public) for _, public in targets]
    with SiteGames() as games:
        for pos, g in enumerate(_games_of(doc)):            # one pass: what every site's pages need
            for site, (_, names) in enumerate(named):
                light = _GameView(g, names)
                games.add(site, pos, light.identity, light.seats, light.row())
        sites: list[Path] = []
        for site, ((out_dir, public), (submissions, names)) in enumerate(zip(targets, named, strict=True)):
            _number_games(games, site)
            out = Path(out_dir)
            try:
                for sub in ("", "submissions", "games", "static"):
                    (out / sub).mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ReportError(f"Cannot create the report folder {out}: {e.strerror or e}.") from None
            view = _view(doc, submissions, names, games, site, public)
            facts = markupsafe.Markup(env.get_template("facts.html").render(header=view["header"]))
            common = {"header": view["header"], "facts": facts}  # the facts block is the same on every page
            _write_pages(env, out, view, common, board, (games, site, names))
            sites.append(out)

        # the second pass: each game's record, numbered as its site numbered it (in stream order)
        with _ShardWriters([out / "games" for out in sites]) as writers:
            numbers = [games.numbers(site) for site in range(len(sites))]
            for heavy in _games_of(doc) if sites else ():
                pictures, missing = (None, None) if board else _game_frames(heavy, frames)
                start = _game_start(heavy, starts) if board else None
                for site, (_, names) in enumerate(named):
                    n_key = next(numbers[site], None)
                    if n_key is None:                 # a stream longer than on the first pass
                        break
                    game = _GameView(heavy, names)
                    game.index, game.key = n_key
                    game.shard = game_shard(game.key)
                    writers.add(site, game.shard, game_record(game, heavy, pictures, missing, start))
    return [out / "index.html" for out in sites]


class _ShardWriters:
    """The record files of several sites, each appended to as its games come (at most 256 open
    per site), so no site's records are held in memory; stale shards of an earlier render go.
    Unbuffered: a record is one write, and 512 open files hold no buffers of records."""

    def __init__(self, folders: list[Path]):
        self.folders = folders
        self.files: list[dict[str, BinaryIO]] = [{} for _ in folders]

    def __enter__(self) -> _ShardWriters:
        return self

    def add(self, site: int, shard: str, record: dict) -> None:
        f = self.files[site].get(shard)
        if f is None:
            f = self.files[site][shard] = (self.folders[site] / f"{shard}.js").open("wb", buffering=0)
            _write_all(f, (_SHARD_HEAD + shard_entry(record)).encode("utf-8"))
        else:
            _write_all(f, (",\n" + shard_entry(record)).encode("utf-8"))

    def __exit__(self, *exc) -> None:
        for folder, files in zip(self.folders, self.files, strict=True):
            for f in files.values():
                _write_all(f, _SHARD_TAIL.encode("utf-8"))
                f.close()
            _remove_stale(folder, (f"{shard}.js" for shard in files), "*.*")


def _write_all(f: BinaryIO, data: bytes) -> None:
    """All of `data` to an unbuffered file (one write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[f.write(view):]


def _write_pages(env: jinja2.Environment, out: Path, view: dict, common: dict, board: Path | None,
                 spilled: tuple[SiteGames, int, _Names]) -> None:
    """Everything but the game records: static files (the ruleset's board script as
    static/board.js, with the helpers it uses), leaderboard, crosstable, submission pages (each with its games section read
    from `spilled`: the spill, this site's number in it, its names), the replay viewer."""
    for f in STATIC.iterdir():
        if f.is_file() and f != BOARD_KIT:
            shutil.copyfile(f, out / "static" / f.name)
    if board is not None:
        shutil.copyfile(board, out / "static" / "board.js")
        shutil.copyfile(BOARD_KIT, out / "static" / BOARD_KIT.name)
    else:
        for name in ("board.js", BOARD_KIT.name):
            (out / "static" / name).unlink(missing_ok=True)
    params = _dict(_dict(common["header"]).get("params"))
    _write(out / "replay.html", env.get_template("replay.html").render(
        **common, root="", page="replay", board=board is not None, site={"params": params}))
    _write(out / "index.html", env.get_template("index.html").render(
        **common, root="", page="index", rows=view["league"], out=view["out"], game_count=view["game_count"],
        students=view["students"], builtins=view["builtins"]))
    env.get_template("crosstable.html").stream(             # cell by cell: never the whole table
        **common, root="", page="crosstable", table=view["crosstable"]).dump(str(out / "crosstable.html"), "utf-8")
    submission_page = env.get_template("submission.html")
    for row in view["rows"]:
        _write(out / "submissions" / f"{row['key']}.html",
               submission_page.render(**common, root="../", page="submission", sub=row | _games_part(row, *spilled)))
    _remove_stale(out / "submissions", (f"{r['key']}.html" for r in view["rows"]))


# ---------------------------------------------------------------------------------------------
# Screenshots for the README (needs Playwright and a Chromium; used by the browser test).

def screenshots(out_dir: str | Path, dest: str | Path, browser=None, executable: str = CHROMIUM) -> list[Path]:
    """PNGs for the README: the leaderboard, a failed submission's page (its failing position)
    and a replay half-way through.

    `out_dir` is a rendered site (the public one); returns the written files (leaderboard.png,
    failed-check.png, replay.png in `dest`). Pass a Playwright `browser` that is already open
    (Playwright's sync API cannot be started twice in one thread); otherwise Chromium at
    `executable` is launched."""
    if browser is None:
        from playwright.sync_api import sync_playwright  # here: Playwright is the optional `browser` extra
        with sync_playwright() as pw:
            own = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            try:
                return screenshots(out_dir, dest, own)
            finally:
                own.close()

    out, dest = Path(out_dir).resolve(), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    try:
        page = context.new_page()
        page.goto((out / "index.html").as_uri())
        page.screenshot(path=str(dest / "leaderboard.png"))
        written.append(dest / "leaderboard.png")
        links = [a.get_attribute("href") for a in page.locator("#not-in-league a, #leaderboard tbody a").all()]
        for selector in ("ol.checks li.fail img.picture", "ol.checks li.fail pre.picture", "ol.checks li.fail"):
            found = None
            for href in links:                  # a failing stage with its position's picture, if any
                page.goto((out / href).resolve().as_uri())
                if page.locator(selector).count():
                    found = page.locator(selector).first
                    break
            if found is not None:
                page.locator("ol.checks li.fail").first.scroll_into_view_if_needed()
                page.evaluate("() => window.scrollBy(0, -8)")
                page.screenshot(path=str(dest / "failed-check.png"))
                written.append(dest / "failed-check.png")
                break
        shards = sorted((out / "games").glob("*.js"))
        if shards:
            first = read_shard(shards[0].read_text(encoding="utf-8"))[0]
            page.goto(f"{(out / 'replay.html').as_uri()}#{shards[0].stem}/{first['key']}")
            page.wait_for_selector("#replay[data-ready]")
            plies = int(page.locator("#slider").get_attribute("max") or 0)
            for _ in range(plies // 2):
                page.keyboard.press("ArrowRight")
            page.screenshot(path=str(dest / "replay.png"))
            written.append(dest / "replay.png")
    finally:
        context.close()
    return written
