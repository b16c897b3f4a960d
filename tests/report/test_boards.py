"""Each ruleset's board script (rulesets/<name>/board.js) in a real headless Chromium, through the
site's one replay viewer: every position of real games (random players, played by the Python
engine) is drawn exactly as the engine's render_svg draws it, and a record whose moves were
tampered with shows a sentence and no picture rather than a wrong one.

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import copy
import dataclasses
import os
import random
from pathlib import Path

import pytest

import rulesets
from grader.board_replay import (
    SEEDS,
    any_move,
    board_differs,
    first_difference,
    open_game,
    random_game,
    records,
)
from grader.outputs import replay_starts
from grader.report import CHROMIUM, read_shard, render_site, shard_text
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


def no_line(state, rng: random.Random):
    """Double Card's random player that makes no line while it can: its games reach recycling."""
    moves = state.internal_moves()
    safe = [m for m in moves if state.winner_if(m) is None]
    return move_text(rng.choice(safe or moves))


def no_line_until_recycling(state, rng: random.Random):
    return any_move(state, rng) if state.recycling else no_line(state, rng)


CHOOSERS = {("doublecard", 2): no_line, ("doublecard", 3): no_line_until_recycling}


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


# every discovered game with a board script (test_board_records checks that each board.js is declared)
SCRIPTED = [name for name in rulesets.names() if load_ruleset(name).board_script is not None]
CASES = [(name, n) for name in SCRIPTED for n in range(len(PARAMS.get(name, [{}])))]


@pytest.mark.parametrize(("name", "option"), CASES)
def test_the_board_script_draws_every_position_as_the_engine_does(page, request, tmp_path, name, option):
    site, expected = site_of(request, tmp_path, name, option, public=option == 1)
    assert (site / "static" / "board.js").is_file()
    assert all("frames" not in record for record in records(site))
    assert first_difference(page, site, expected) is None
    assert page.errors == []


def test_a_board_script_that_draws_otherwise_than_the_engine_is_named(browser, tmp_path):
    """`grader selftest`'s check: another game's board.js in colosseum's record draws no colosseum game."""
    rs = dataclasses.replace(load_ruleset("colosseum"), board_script=load_ruleset("rbnim").board_script)
    found = board_differs(rs, tmp_path, browser)
    assert found is not None and found.startswith(("the board script drew", "in the game of seed"))


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
