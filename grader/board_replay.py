"""A ruleset's board script against its engine: random games played by the Python engine, their
replay site written as `grader run` writes it (the board script draws each position from the moves),
and every position the site's one replay viewer shows in a headless Chromium compared with the
engine's own render_svg. Shared by `grader selftest` and tests/report/test_boards.py."""
from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

from rulesets.base import Game, Ruleset, State

from .outputs import replay_starts
from .report import CHROMIUM, CHROMIUM_ARGS, game_shard, read_shard, render_site
from .results_doc import ResultsDoc

SEEDS = (3, 4, 5)
MAX_PLIES = 400
Chooser = Callable[[State, random.Random], Any]

# every frame the viewer shows, slid through ply by ply, as the SVG text its <img> holds
SHOWN = """() => {
  const slider = document.getElementById('slider'), img = document.getElementById('frame'), out = [];
  for (let k = 0; k <= Number(slider.max); k++) {
    slider.value = String(k);
    slider.dispatchEvent(new Event('input'));
    out.push(decodeURIComponent(escape(atob(img.src.split(',')[1]))));
  }
  return out;
}"""


def any_move(state: State, rng: random.Random) -> Any:
    return rng.choice(state.legal_moves())


def random_game(game: Game, seed: int, choose: Chooser = any_move) -> tuple[list, list[str]]:
    """A whole game of two random players by the Python engine: its stored (wire) moves and the
    engine's own picture of every position."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    moves: list = []
    pictures = [state.render_svg()]
    while not state.is_over and len(moves) < MAX_PLIES:
        move = choose(state, rng)
        moves.append(state.move_to_json(move))
        state.play(move)
        pictures.append(state.render_svg())
    return moves, pictures


def document(rs: Ruleset, game: Game, seeds: tuple[int, ...] = SEEDS) -> dict:
    """The smallest results document with one random game per seed between two players."""
    games = []
    for k, seed in enumerate(seeds):
        moves, _ = random_game(game, seed)
        games.append({"id": f"g{k}", "seat0": "a", "seat1": "b", "seed": seed, "game_index": k, "points": [0.5, 0.5],
                      "reason": "selftest", "detail": "", "moves": moves,
                      "move_texts": [f"m{i}" for i in range(len(moves))], "times": [], "incidents": []})
    return {"assignment": {"name": "selftest", "ruleset": rs.name, "game": game.params},
            "submissions": [{"id": "a", "status": "valid"}, {"id": "b", "status": "valid"}], "games": games}


def write_site(rs: Ruleset, game: Game, doc: dict, out: Path, public: bool = False) -> Path:
    """The replay site of `doc`'s games, drawn by the ruleset's board script."""
    # a partial document: the site reads any field as possibly missing (an older grader's results.json)
    render_site(cast(ResultsDoc, doc), out, public=public, board=rs.board_script,
                starts=replay_starts(game, rs.board_start) if rs.board_start else None)
    return out


def records(site: Path) -> list[dict]:
    return [r for f in sorted((site / "games").glob("*.js")) for r in read_shard(f.read_text(encoding="utf-8"))]


def open_game(page, site: Path, key: str) -> None:
    page.goto(f"{(site / 'replay.html').as_uri()}#{game_shard(key)}/{key}")
    page.wait_for_selector("#replay[data-ready]", state="attached")


def first_difference(page, site: Path, expected: dict[str, list[str]]) -> str | None:
    """Where the viewer's pictures of the site's games first differ from the engine's (`expected`:
    the engine's pictures by repr of a game's moves), as a sentence; None when every one is the same."""
    for record in records(site):
        open_game(page, site, record["key"])
        if not page.locator("#no-frames").is_hidden():
            return (f"the board script drew no picture of the game of seed {record.get('seed')}: "
                    f"{page.locator('#no-frames').inner_text()}")
        shown = page.evaluate(SHOWN)
        want = expected[repr(record["moves"])]
        if len(shown) != len(want):
            return f"the board script drew {len(shown)} positions of a game of {len(want)}."
        for ply, (got, engine) in enumerate(zip(shown, want, strict=True)):
            if got != engine:
                return (f"in the game of seed {record.get('seed')}, the board script draws ply {ply} otherwise "
                        f"than the engine's render_svg.")
    return None


def unavailable() -> str | None:
    """Why the board script cannot be drawn here (no Chromium, no playwright), None when it can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"there is no Chromium at {CHROMIUM} to draw the board script in"
    try:
        import playwright.sync_api  # noqa: F401  here: an optional package, loaded only to draw
    except ImportError:
        return "the playwright package is not installed, so the board script cannot be drawn"
    return None


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """The system Chromium driven by Playwright, closed on leaving (Playwright's sync API cannot be
    started twice in one thread: a caller with a browser open passes that one instead)."""
    from playwright.sync_api import sync_playwright  # here: an optional package (see `unavailable`)

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def board_differs(rs: Ruleset, where: Path, browser) -> str | None:
    """Random games of `rs` at its default parameters drawn by its board script in `browser` (a
    Playwright browser): a sentence naming the first position it draws otherwise than the engine,
    None when all agree."""
    game = rs.game()
    doc = document(rs, game)
    expected = {repr(g["moves"]): random_game(game, g["seed"])[1] for g in doc["games"]}
    return drawn_differs(browser, write_site(rs, game, doc, where / "site"), expected)


def drawn_differs(browser, site: Path, expected: dict[str, list[str]]) -> str | None:
    """`first_difference` in a new page of `browser`, or the first exception the board script raised."""
    errors: list[str] = []
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(f"the board script raised {e}"))
        found = first_difference(page, site, expected)
    finally:
        context.close()
    return found or (errors[0] if errors else None)
