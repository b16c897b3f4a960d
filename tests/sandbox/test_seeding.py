"""Every randomness source a Python player can reach is derived from the game seed and seat, so a
game replays the same in both start modes, on every run; the string hash seed is fixed."""
from __future__ import annotations

from sandbox import PlayerProcess

from .conftest import FAST, SHIM

SOURCES = """
import os, random, secrets, uuid

def draws():
    import numpy as np
    return {
        "global": random.random(),
        "unseeded Random()": random.Random().random(),
        "reseeded global": (random.seed(), random.random())[1],
        "SystemRandom": random.SystemRandom().random(),
        "urandom": os.urandom(8).hex(),
        "getrandom": os.getrandom(8).hex(),
        "secrets": [secrets.token_hex(8), secrets.randbits(32), secrets.choice("abcdefgh")],
        "uuid4": str(uuid.uuid4()),
        "numpy global": float(np.random.random()),
        "numpy default_rng()": float(np.random.default_rng().random()),
        "numpy RandomState()": float(np.random.RandomState().random_sample()),
        "string hash": hash("quoridor"),
        "set order": list({"alpha", "beta", "gamma", "delta", "epsilon"}),
    }
"""


def test_a_seeded_player_meets_the_same_luck_from_every_source(player):
    first = player(SOURCES, name="a", seed=7).call("call", {"function": "draws"})
    again = player(SOURCES, name="b", seed=7).call("call", {"function": "draws"})
    other = player(SOURCES, name="c", seed=8).call("call", {"function": "draws"})
    assert first.ok and again.ok and other.ok, (first, again, other)
    assert first.value == again.value
    differ = {k for k in first.value if first.value[k] != other.value[k]}
    assert differ == set(first.value) - {"string hash", "set order"}, differ


def test_both_start_modes_give_the_same_draws(write_submission, prefork_pool):
    """A league played pre-forked meets the same luck as one played with spawned players."""
    folder = write_submission(SOURCES)
    values = {}
    for mode, pool in (("spawn", None), ("prefork", prefork_pool)):
        with PlayerProcess(SHIM, folder, FAST, name=mode, prefork=pool, seed=11) as p:
            assert p.start().ok and p.started_by == mode
            r = p.call("call", {"function": "draws"})
            assert r.ok, r
            values[mode] = r.value
    assert values["spawn"] == values["prefork"]

