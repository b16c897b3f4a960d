"""What the sites store for each game's pictures, as write_sites makes them (site_pictures): the
moves alone for a ruleset with a board script, plus its start position where the script cannot
derive it from the seed; pictures per ply only for a ruleset without a script (the fallback)."""
from __future__ import annotations

import base64
import dataclasses
import random
import sys
from pathlib import Path

import pytest

import rulesets
from grader import selftest
from grader.assignment import load_assignments
from grader.outputs import site_pictures
from grader.report import read_shard, render_sites, script_json

CONFIG = Path(__file__).resolve().parents[2] / "config.yaml"


def records(site: Path) -> list[dict]:
    return [r for f in sorted((site / "games").glob("*.js")) for r in read_shard(f.read_text(encoding="utf-8"))]


def with_random_games(doc: dict, assignment) -> dict:
    """The document's games replaced by random games of the assignment's ruleset."""
    doc["assignment"].update(ruleset=assignment.ruleset.name, game=assignment.game.params)
    for g in doc["games"]:
        rng, state, g["moves"] = random.Random(g["seed"]), assignment.game.new_state(g["seed"]), []
        while not state.is_over and len(g["moves"]) < 30:
            move = rng.choice(state.legal_moves())
            g["moves"].append(state.move_to_json(move))
            state.play(move)
        g["move_texts"], g["times"] = [f"m{k}" for k in range(len(g["moves"]))], []
    return doc


def assignment_of(name: str):
    """The bundled config's assignment of game `name`; for a game it has none of, another's rules
    with this game's ruleset and default parameters."""
    every = load_assignments(CONFIG)
    if name in every:
        return every[name]
    ruleset = rulesets.load(name)
    return dataclasses.replace(next(iter(every.values())), ruleset=ruleset, game=ruleset.game())


def package_folder(name: str) -> Path:
    return Path(sys.modules[rulesets.module_of(name)].__file__ or "").parent


@pytest.mark.parametrize("name", rulesets.names())
def test_a_board_script_is_declared_exactly_where_one_exists(name):
    """A board.js the record does not name would never be drawn (nor tested); a named one that is
    missing would break every replay: both fail here rather than skip."""
    selftest.board_declared(rulesets.load(name))


def test_an_undeclared_board_script_is_named_in_a_sentence():
    rs = dataclasses.replace(rulesets.load("colosseum"), board_script=None)
    with pytest.raises(selftest.Broken, match=r"^colosseum: has a board\.js that RULESET.board_script does not name"):
        selftest.board_declared(rs)


WITH_SCRIPT = [n for n in rulesets.names() if rulesets.load(n).board_script is not None]


@pytest.mark.parametrize("name", WITH_SCRIPT)
def test_records_carry_moves_and_the_start_only_where_the_ruleset_needs_it(tmp_path, doc, name):
    assignment = assignment_of(name)
    ruleset = assignment.ruleset
    assert ruleset.board_script is not None and ruleset.board_script.is_file()
    with_random_games(doc, assignment)
    render_sites(doc, [(tmp_path / "s", False), (tmp_path / "p", True)], **site_pictures(assignment))
    for site in ("s", "p"):
        assert (tmp_path / site / "static" / "board.js").read_bytes() == ruleset.board_script.read_bytes()
        for record in records(tmp_path / site):
            assert "frames" not in record and "missing" not in record
            if ruleset.board_start is None:
                assert "start" not in record
            else:
                start = ruleset.board_start(assignment.game.new_state(record["seed"]))
                assert record["start"] == start and len(script_json(start)) < 400


def test_colosseum_and_quoridor_store_a_start_the_seed_draws():
    """Boards Python's RNG draws differ from seed to seed, so the script needs them stored."""
    for name in ("colosseum", "quoridor"):
        a = load_assignments(CONFIG)[name]
        if name == "quoridor":
            a = dataclasses.replace(a, game=a.ruleset.game(start="random", initial_obstacles=2))
        assert a.ruleset.board_start is not None
        starts = {script_json(a.ruleset.board_start(a.game.new_state(seed))) for seed in range(10)}
        assert len(starts) > 1, name


def test_a_ruleset_without_a_board_script_still_stores_the_engines_pictures(tmp_path, doc):
    real = load_assignments(CONFIG)["colosseum"]
    assignment = dataclasses.replace(real, ruleset=dataclasses.replace(real.ruleset, board_script=None,
                                                                        board_start=None))
    with_random_games(doc, assignment)
    render_sites(doc, [(tmp_path / "s", False)], **site_pictures(assignment))
    assert not (tmp_path / "s" / "static" / "board.js").exists()
    for record in records(tmp_path / "s"):
        assert "start" not in record
        state = assignment.game.new_state(record["seed"])
        want = [state.render_svg()]
        for wire in record["moves"]:
            state.play(state.parse_move(wire))
            want.append(state.render_svg())
        got = [base64.b64decode(uri.split(",", 1)[1]).decode("utf-8") for uri in record["frames"]]
        assert got == want
