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



SEED_HUNTER = """
import gc, sys

def _ints(value, depth=0):
    if isinstance(value, int) and not isinstance(value, bool):
        yield value
    elif depth < 4 and isinstance(value, dict):
        for v in list(value.values()):
            yield from _ints(v, depth + 1)
    elif depth < 4 and isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value):
            yield from _ints(v, depth + 1)

SEEN = set()
frame = sys._getframe()
while frame is not None:                       # every frame of the call stack, the sandbox's own too
    SEEN.update(_ints(dict(frame.f_locals)))
    SEEN.update(_ints(frame.f_globals.get("__dict__", {})))
    frame = frame.f_back
for obj in gc.get_objects():                   # and everything the collector tracks
    if isinstance(obj, (dict, list, tuple)):
        SEEN.update(_ints(obj))

def found(candidates):
    return [c for c in candidates if c in SEEN]
"""


def test_a_player_walking_frames_and_gc_at_import_finds_no_seed(player):
    """Issue 27: the seed of the open message stayed in the call loop's frame, readable at import."""
    seed = 0x5EED_1234_5678_9ABC
    p = player(SEED_HUNTER, seed=seed)
    r = p.call("found", {"candidates": [seed, seed % 2**32]})
    assert r.ok, r
    assert r.value == [], "the player's process still holds its seed after seeding"


def test_seat_seeds_are_keyed_and_unrelated():
    """One seat's seed says nothing of the other's: no arithmetic link, and another key gives others."""
    from sandbox.seeding import seat_seed

    key = b"k" * 32
    seeds = [seat_seed(key, game, seat) for game in range(200) for seat in (0, 1)]
    assert len(set(seeds)) == len(seeds) and all(0 <= s < 2**63 for s in seeds)
    pairs = [(seat_seed(key, g, 0), seat_seed(key, g, 1)) for g in range(200)]
    assert len({b - a for a, b in pairs}) == len(pairs) and len({a ^ b for a, b in pairs}) == len(pairs)
    assert all(seat_seed(b"other" * 8, g, 0) != a for g, (a, _) in enumerate(pairs))
    assert {seat_seed(key, g, s) for g in range(200) for s in (0, 1)}.isdisjoint({2 * g + s for g in range(200)
                                                                                   for s in (0, 1)})
