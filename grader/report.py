"""The static HTML site of a league: leaderboard, crosstable, one page per submission and per game.

`render_site(doc, out_dir, frames)` turns the results document (results.json, see docs) into a
folder that opens from disk without a server or network: Jinja2 templates (autoescaped, compiled
once), one CSS file and two small plain-JS files copied next to the pages. `public=True` makes the
site to publish: pseudonyms (`public_name`), no ids, paths, commands or captured output;
`render_sites` writes the instructor's and the public site in one pass.

Everything a submission controls (names, ids, output, exception text, move texts) is escaped; JSON
put into a page is made safe inside <script>; board pictures are shown as <img> data URIs, so even
an SVG carrying script could not run. Any field of the document may be missing: the page then says
"not available" instead of breaking.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import overload

import jinja2
import markupsafe

from .feedback import rating, verdict

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

Frames = Callable[[dict], list[str]]

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


def move_list_html(plies: list[dict]) -> markupsafe.Markup:
    """The replay's move list items, built here rather than in the template because a league has
    ~a million plies and Jinja's per-value escaping dominated the report's run time. Only the
    move text comes from a player and is escaped; the rest are our own integers and numbers."""
    escape = markupsafe.escape
    items = []
    for p in plies:
        time = ""
        if p["wall"] is not None:
            cpu = f" / {p['cpu']}" if p["cpu"] is not None else ""
            time = f'<span class="time" title="wall / CPU seconds">{p["wall"]}{cpu} s</span>'
        items.append(f'<li><button type="button" data-ply="{p["n"]:d}" class="seat{p["seat"]:d}">'
                     f'{escape(p["text"])}</button>{time}</li>')
    return markupsafe.Markup("\n".join(items))


# ---------------------------------------------------------------------------------------------
# The view model: the document reshaped into exactly what the templates print.

class _Names:
    """Submission id → (URL key, name shown). In anonymised mode the key comes from the
    pseudonym only, so neither file names nor links contain the raw id."""

    def __init__(self, submissions: list[dict], anonymised: bool, public: bool = False):
        self.anonymised = anonymised = anonymised or public
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
        """Public site: a message without absolute paths, student ids or real names."""
        if text is None or (not self.hidden and not self.anonymised):
            return text
        text = _PATH.sub(lambda m: m.group("name"), text)
        for secret in sorted(self.hidden, key=len, reverse=True):
            text = text.replace(secret, self.hidden[secret])
        return text


_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\](?:[^\s/\\'\"<>:]+[/\\])+(?P<name>[^\s/\\'\"<>:,;)]*)")


def submission_pages(doc: dict, public: bool = True) -> dict[str, str]:
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
            detail = f"failed at {_text(failing[0].get('name')) or 'a check'}"
    return status, detail or ""


def _incident_text(incident) -> str:
    if isinstance(incident, dict):
        return ", ".join(f"{k}: {_text(v) or '—'}" for k, v in incident.items())
    return _text(incident) or "—"


def _plies(g: dict) -> list[dict]:
    """One entry per move: its number, the seat that made it, its text and its times."""
    texts, times = _list(g.get("move_texts")), _list(g.get("times"))
    plies = []
    for i, move in enumerate(_list(g.get("moves"))):
        t = _list(times[i]) if i < len(times) else []
        text = _text(texts[i]) if i < len(texts) else None
        plies.append({"n": i + 1, "seat": i % 2, "text": text or _text(move) or "?",
                      "wall": _fmt(t[0], 2) if len(t) > 0 else None,
                      "cpu": _fmt(t[1], 2) if len(t) > 1 else None})
    return plies


def _games(games_raw: list[dict], names: _Names) -> list[dict]:
    """The games as the game pages and submission pages show them, each with its URL key.

    A game's number and key come from its identity (the pairing as shown, the game's index in the
    pairing and its seed), never from the order games finished in, so "game 12" and its link stay
    the same when the league is run again. Anonymised: the key is made from the names shown, and
    neither the game id nor the `grader play` line (both name submissions by id) is shown."""
    def identity(g: dict) -> tuple[str, str, float, str, str]:
        first = names.shown(_text(g.get("seat0")))
        pair = sorted([first, names.shown(_text(g.get("seat1")))])
        return pair[0], pair[1], _number(g.get("game_index")) or 0.0, str(g.get("seed")), first

    games, used = [], set()
    for n, g in enumerate(sorted(games_raw, key=identity), 1):
        raw_id = _text(g.get("id"))
        seats = [_text(g.get("seat0")), _text(g.get("seat1"))]
        if names.anonymised or raw_id is None:
            a, b, _, seed, first = identity(g)
            key = slug_hash("\x1f".join((a, b, _text(g.get("game_index")) or "", seed, first)))
        else:
            key = slug_hash(raw_id)
        while key in used:
            key = slug_hash(f"{key}#{n}")
        used.add(key)
        games.append({
            "raw": g, "key": key, "id": None if names.anonymised else raw_id, "index": n,
            "seats": seats,
            "seat_names": [names.shown(s) for s in seats],
            "seat_keys": [names.key.get(s) if s is not None else None for s in seats],
            "points": _list(g.get("points")),
            "result": _result(g.get("points")),
            "reason": _text(g.get("reason")), "detail": names.scrub(_text(g.get("detail"))),
            "seed": _text(g.get("seed")), "game_index": _text(g.get("game_index")),
            "plies": _plies(g),
            "incidents": [names.scrub(_incident_text(i)) for i in _list(g.get("incidents"))],
            "reproduce": None if names.anonymised else _text(g.get("reproduce")),
        })
    return games


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


def _opponents(played: list[tuple[dict, int]], names: _Names) -> list[dict]:
    """A submission's games grouped by opponent (the crosstable links to each group's anchor)."""
    opponents: dict[str, dict] = {}
    for g, seat in played:
        opp = g["seats"][1 - seat]
        entry = opponents.setdefault(opp or "", {"name": names.shown(opp), "key": names.key.get(opp),
                                                 "anchor": "vs-" + (names.key.get(opp) or "unknown"),
                                                 "games": []})
        entry["games"].append({"key": g["key"], "index": g["index"], "seat": seat,
                               "result": _result(g["points"], seat), "score": g["result"],
                               "reason": g["reason"], "detail": g["detail"], "reproduce": g["reproduce"]})
    return sorted(opponents.values(), key=lambda o: o["name"].lower())


def _rating(sub: dict) -> tuple[str | None, str | None]:
    return rating(*(_number(sub.get(k)) for k in ("rating", "rating_low", "rating_high")))


def _row(sub: dict, played: list[tuple[dict, int]], names: _Names, public: bool = False) -> dict:
    """One submission as its leaderboard row and its own page show it."""
    status, why = _status(sub)
    why = names.scrub(why)
    rating, spread = _rating(sub)
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
        "opponents": _opponents(played, names),
        "game_count": len(played),
    }


def _crosstable(cross: dict, rows: list[dict], ids: dict[str, str]) -> list[dict]:
    """Rows and columns in leaderboard order; a cell links to the row submission's games
    against the column submission (to its page when those games are not in the document)."""
    line_of = {r["key"]: _dict(cross.get(ids[r["key"]])) for r in rows if r["key"] in ids}
    order = [r for r in rows if r["key"] in ids]
    table = []
    for a in order:
        anchors = {o["anchor"] for o in a["opponents"]}
        cells = []
        for b in order:
            cell = _dict(line_of[a["key"]].get(ids[b["key"]]))
            anchor = f"vs-{b['key']}"
            href = f"submissions/{a['key']}.html" + (f"#{anchor}" if anchor in anchors else "")
            cells.append({"self": a is b, "points": _points(cell.get("points")),
                          "games": _fmt(cell.get("games"), 0), "href": href if cell else None})
        table.append({"key": a["key"], "name": a["name"], "cells": cells})
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
    }


def _view(doc: dict, public: bool = False) -> dict:
    """Reshape the results document for the templates (every value present, possibly None)."""
    assignment = _dict(doc.get("assignment"))
    submissions = [dict(s) for s in _list(doc.get("submissions")) if isinstance(s, dict)]
    names = _Names(submissions, assignment.get("anonymised") is True, public)
    games = _games([g for g in _list(doc.get("games")) if isinstance(g, dict)], names)

    played: dict[str | None, list[tuple[dict, int]]] = defaultdict(list)   # looked up by ids that may be None
    for g in games:
        for seat, s in enumerate(g["seats"]):
            if s is not None:
                played[s].append((g, seat))
    rows = [_row(sub, played.get(_text(sub.get("id")), []), names, public) for sub in submissions]
    rows.sort(key=lambda r: (r["rank_sort"] is None, r["rank_sort"] or 0, r["name"].lower()))
    ids = {sub["_key"]: sub_id for sub in submissions if (sub_id := _text(sub.get("id"))) is not None}
    league = [r for r in rows if r["in_league"]]
    header = _header(assignment) | {"public": public}
    return {"header": header, "rows": rows, "league": league, "games": games,
            "out": [r for r in rows if not r["in_league"]],
            "students": sum(not r["builtin"] for r in rows), "builtins": sum(r["builtin"] for r in rows),
            "crosstable": _crosstable(_dict(doc.get("crosstable")), league, ids)}


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
        _env.filters["move_list"] = move_list_html
        _env.globals["na"] = not_available
    return _env


def render_page(template: str, **context) -> str:
    """A stand-alone page (the instructor's similarity report) with the site's escaping rules."""
    return _environment().get_template(template).render(**context)


def _game_frames(game: dict, frames: Frames | None) -> tuple[list[str] | None, str | None]:
    """The replay's board pictures as data URIs, or None and a sentence saying why not."""
    if frames is None:
        return None, "Board pictures are not available for this report."
    try:
        pictures = list(frames(game["raw"]))
    except Exception as e:
        return None, f"Board pictures are not available: {type(e).__name__}: {e}"
    want = len(game["plies"]) + 1
    if len(pictures) != want or not all(isinstance(p, str) for p in pictures):
        return None, f"Board pictures are not available: expected {want} pictures, got {len(pictures)}."
    return [svg_data_uri(p) for p in pictures], None


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _remove_stale(folder: Path, keep: Iterable[str]) -> None:
    """Delete pages a previous render left behind (they might carry names this render hides)."""
    keep = set(keep)
    for page in folder.glob("*.html"):
        if page.name not in keep:
            page.unlink()


def render_site(doc: dict, out_dir: str | Path, frames: Frames | None = None, public: bool = False) -> Path:
    """Write the whole site for results document `doc` into `out_dir`; returns index.html's path.

    `frames(game)` returns the SVG of the board after each ply of that game (index 0 = start);
    without it, or if it fails for a game, that replay shows the move list without pictures.
    `public`: the site to publish: students under their `public_name` (a pseudonym unless the
    config allows the name), no ids, paths, `grader play` lines or captured output."""
    return render_sites(doc, [(out_dir, public)], frames)[0]


def render_sites(doc: dict, targets: list[tuple[str | Path, bool]], frames: Frames | None = None) -> list[Path]:
    """Several sites of one document ((folder, public) each: the instructor's and the public one)
    in one pass, so each game's board pictures are replayed once however many sites show them."""
    if not isinstance(doc, dict):
        raise ReportError(f"The results document must be a JSON object, not {type(doc).__name__}.")
    env = _environment()
    sites = []
    for out_dir, public in targets:
        out = Path(out_dir)
        try:
            for sub in ("", "submissions", "games", "static"):
                (out / sub).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ReportError(f"Cannot create the report folder {out}: {e.strerror or e}.") from None
        view = _view(doc, public)
        facts = markupsafe.Markup(env.get_template("facts.html").render(header=view["header"]))
        common = {"header": view["header"], "facts": facts}      # the facts block is the same on every page
        _write_pages(env, out, view, common)
        sites.append((out, view, common))

    game_page = env.get_template("game.html")
    for n in range(len(sites[0][1]["games"]) if sites else 0):      # every view lists the games in one order
        pictures, missing = _game_frames(sites[0][1]["games"][n], frames)
        for out, view, common in sites:
            game = view["games"][n]
            data = {"frames": pictures, "plies": len(game["plies"])}
            _write(out / "games" / f"{game['key']}.html",
                   game_page.render(**common, root="../", page="game", game=game, data=data, missing=missing))
    for out, view, _ in sites:
        _remove_stale(out / "games", (f"{g['key']}.html" for g in view["games"]))
    return [out / "index.html" for out, _, _ in sites]


def _write_pages(env: jinja2.Environment, out: Path, view: dict, common: dict) -> None:
    """Everything but the game pages: static files, leaderboard, crosstable, submission pages."""
    for f in STATIC.iterdir():
        if f.is_file():
            shutil.copyfile(f, out / "static" / f.name)
    _write(out / "index.html", env.get_template("index.html").render(
        **common, root="", page="index", rows=view["league"], out=view["out"], game_count=len(view["games"]),
        students=view["students"], builtins=view["builtins"]))
    _write(out / "crosstable.html", env.get_template("crosstable.html").render(
        **common, root="", page="crosstable", table=view["crosstable"]))
    submission_page = env.get_template("submission.html")
    for row in view["rows"]:
        _write(out / "submissions" / f"{row['key']}.html",
               submission_page.render(**common, root="../", page="submission", sub=row))
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
        games = sorted((out / "games").glob("*.html"))
        if games:
            page.goto(games[0].as_uri())
            plies = int(page.locator("#slider").get_attribute("max") or 0)
            for _ in range(plies // 2):
                page.keyboard.press("ArrowRight")
            page.screenshot(path=str(dest / "replay.png"))
            written.append(dest / "replay.png")
    finally:
        context.close()
    return written
