"""Each ruleset's board script (rulesets/<name>/board.js) in a real headless Chromium, through the
site's one replay viewer: every position of real games (random players, played by the Python
engine) is drawn exactly as the engine's render_svg draws it, and a record whose moves were
tampered with shows a sentence and no picture rather than a wrong one.

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import copy
import os
import random
from pathlib import Path

import pytest

import rulesets
from grader.outputs import replay_starts
from grader.report import CHROMIUM, game_shard, read_shard, render_site, shard_text
from rulesets import load as load_ruleset
from rulesets.doublecard.board import move_text

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

# the games' parameters: small boards and caps keep each game short; several ways to end each (a
# game not named here is drawn at its default parameters)
PARAMS = {
    "rbnim": [{}, {"red": 3, "blue": 25, "version": "misère"}],
    "colosseum": [{}, {"board_size": 4}],
    "quoridor": [{}, {"sizex": 5, "sizey": 6, "max_obstacles": 3, "start": "random", "initial_obstacles": 3},
                 {"sizex": 2, "sizey": 4, "max_obstacles": 1},              # passes, the ply cap
                 {"sizex": 2, "sizey": 3, "max_obstacles": 1, "initial_obstacles": 1, "start": "random"}],
    "doublecard": [{}, {"max_moves": 20}, {"max_moves": 120, "seat0_role": "dots", "strict_recycle": True},
                   {"max_moves": 120}],
}


def any_move(state, rng: random.Random):
    return rng.choice(state.legal_moves())


def no_line(state, rng: random.Random):
    """Double Card's random player that makes no line while it can: its games reach recycling."""
    moves = state.internal_moves()
    safe = [m for m in moves if state.winner_if(m) is None]
    return move_text(rng.choice(safe or moves))


def no_line_until_recycling(state, rng: random.Random):
    return any_move(state, rng) if state.recycling else no_line(state, rng)


CHOOSERS = {("doublecard", 2): no_line, ("doublecard", 3): no_line_until_recycling}
SEEDS = (3, 4, 5)
MAX_PLIES = 400


@pytest.fixture
def page(browser):
    """A fresh page that records console errors and uncaught exceptions."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    p = context.new_page()
    p.errors = []
    p.on("console", lambda m: p.errors.append(f"console: {m.text}") if m.type in ("error", "warning") else None)
    p.on("pageerror", lambda e: p.errors.append(f"exception: {e}"))
    yield p
    context.close()


def random_game(game, seed: int, choose=any_move) -> tuple[list, list[str]]:
    """A whole game of two random players by the Python engine: its stored (wire) moves and the
    engine's own picture of every position."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    moves, pictures = [], [state.render_svg()]
    while not state.is_over and len(moves) < MAX_PLIES:
        move = choose(state, rng)
        moves.append(state.move_to_json(move))
        state.play(move)
        pictures.append(state.render_svg())
    return moves, pictures


def site_of(request, tmp_path: Path, name: str, option: int, public: bool = False) -> tuple[Path, dict]:
    """The replay site of three random games of ruleset `name`, built as write_sites builds it;
    returns it and each game's pictures by its moves."""
    ruleset = load_ruleset(name)
    game = ruleset.game(**PARAMS.get(name, [{}])[option])
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = conftest.base_document()
    doc["assignment"].update(ruleset=name, game=game.params)
    expected = {}
    for g, seed in zip(doc["games"], SEEDS, strict=True):
        g["seed"] = seed
        g["moves"], pictures = random_game(game, seed, CHOOSERS.get((name, option), any_move))
        g["move_texts"], g["times"] = [f"m{k}" for k in range(len(g["moves"]))], []
        expected[repr(g["moves"])] = pictures
    site = tmp_path / "site"
    render_site(doc, site, public=public, board=ruleset.board_script,
                starts=replay_starts(game, ruleset.board_start) if ruleset.board_start else None)
    return site, expected


def records(site: Path) -> list[dict]:
    return [r for f in sorted((site / "games").glob("*.js")) for r in read_shard(f.read_text(encoding="utf-8"))]


def open_game(page, site: Path, key: str) -> None:
    page.goto(f"{(site / 'replay.html').as_uri()}#{game_shard(key)}/{key}")
    page.wait_for_selector("#replay[data-ready]", state="attached")


SHOWN = """() => {
  const slider = document.getElementById('slider'), img = document.getElementById('frame'), out = [];
  for (let k = 0; k <= Number(slider.max); k++) {
    slider.value = String(k);
    slider.dispatchEvent(new Event('input'));
    out.push(decodeURIComponent(escape(atob(img.src.split(',')[1]))));
  }
  return out;
}"""


# every discovered game with a board script (test_board_records checks that each board.js is declared)
SCRIPTED = [name for name in rulesets.names() if load_ruleset(name).board_script is not None]
CASES = [(name, n) for name in SCRIPTED for n in range(len(PARAMS.get(name, [{}])))]


@pytest.mark.parametrize(("name", "option"), CASES)
def test_the_board_script_draws_every_position_as_the_engine_does(page, request, tmp_path, name, option):
    site, expected = site_of(request, tmp_path, name, option, public=option == 1)
    assert (site / "static" / "board.js").is_file()
    for record in records(site):
        assert "frames" not in record
        open_game(page, site, record["key"])
        assert page.locator("#no-frames").is_hidden() and page.locator("#frame").is_visible()
        shown = page.evaluate(SHOWN)
        want = expected[repr(record["moves"])]
        assert len(shown) == len(want)
        for ply, (got, engine) in enumerate(zip(shown, want, strict=True)):
            assert got == engine, (name, record["key"], ply)
    assert page.errors == []


def tampered(moves: list, how: str) -> list:
    """The stored moves changed as a damaged or edited record might be."""
    moves = copy.deepcopy(moves)
    if how == "garbage":
        moves[len(moves) // 2] = ["no such move", 99]
    elif how == "after the end":
        moves.append(moves[-1])
    return moves


@pytest.mark.parametrize("how", ["garbage", "after the end"])
@pytest.mark.parametrize("name", SCRIPTED)
def test_a_tampered_record_shows_why_and_no_picture(page, request, tmp_path, name, how):
    site, _ = site_of(request, tmp_path, name, 0)
    for shard in (site / "games").glob("*.js"):
        edited = [{**r, "moves": tampered(r["moves"], how)} for r in read_shard(shard.read_text(encoding="utf-8"))]
        shard.write_text(shard_text(edited), encoding="utf-8")
    for record in records(site):
        open_game(page, site, record["key"])
        assert page.locator("#frame").is_hidden(), record["key"]
        message = page.locator("#no-frames")
        assert message.is_visible() and message.inner_text().startswith("Board pictures are not available: ")
        assert "ply" in message.inner_text()
    assert page.errors == []



@pytest.mark.parametrize("name", [n for n in SCRIPTED if load_ruleset(n).board_start is not None])
def test_a_record_without_its_start_board_shows_why_and_no_picture(page, request, tmp_path, name):
    """The start of these games is drawn from the seed by Python's RNG: a record without it (its
    start could not be computed) must not be drawn from a guessed board."""
    ruleset = load_ruleset(name)
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = conftest.base_document()
    game = ruleset.game()
    doc["assignment"].update(ruleset=name, game=game.params)
    for g in doc["games"]:
        g["moves"] = random_game(game, g["seed"])[0]

    def broken(record: dict):
        raise RuntimeError("no start today")

    site = tmp_path / "site"
    render_site(doc, site, board=ruleset.board_script, starts=broken)
    for record in records(site):
        assert "start" not in record
        open_game(page, site, record["key"])
        assert page.locator("#frame").is_hidden()
        assert page.locator("#no-frames").inner_text().startswith(
            "Board pictures are not available: this game's record has no start ")
    assert page.errors == []
