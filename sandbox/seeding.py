"""Every source of randomness a Python player can reach, derived from one seed (the game's and the seat's).

So that the same submissions, seed and settings give the same game in both start modes and on
any executor, the player's process is seeded just before the submission is opened:
the global `random`; any `random.Random()` made (or `random.seed()` called) without a seed, which
takes the next seed from a stream of its own; `random.SystemRandom`, `secrets`, `os.urandom` and
`os.getrandom`, which answer from other streams; NumPy's global generator, and
`numpy.random.default_rng()` / `SeedSequence()` without a seed, which take their entropy from
`secrets`; and every generator a trusted module already holds (a course module's
`_rng = random.Random()`, made once in a pre-fork template), reseeded by its module and name. The string hash seed cannot change once the interpreter runs: every player process
starts with the fixed `HASH_SEED` instead (sandbox/interpreter.py's CHILD_ENV), in both modes.

Not reached: reading /dev/urandom as a file, the getrandom system call through ctypes, and the
time of day; a player that seeds itself from those is not reproducible.

`seed_process` replaces functions of `os` and `random`: only ever in the player's own process
(sandbox/child.py), never in the manager; InProcessPlayer uses `seed_generators`.

A player's process never sees its game's seed: the grader gives each seat its own seed,
`seat_seed(key, game seed, seat)`, an HMAC-SHA256 keyed with the league's secret, so one seat's
seed says nothing of the other's (nor of the game's), and the call loop drops the seed as soon as
it has seeded the process (sandbox/serve.py).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import random
import sys
from typing import Any

HASH_SEED = "0"              # PYTHONHASHSEED of every player process (and pre-fork template)


def seat_seed(key: bytes, game_seed: int, seat: int | str) -> int:
    """The seed one seat's process gets: 63 bits of HMAC-SHA256(key, "<game seed>/<seat>") (a
    Java long holds it: the Java shim reads the open message too)."""
    digest = hmac.new(key, f"{game_seed}/{seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seed_generators(seed: int | None) -> None:
    """Seed the generators players draw from unseeded (`random`, NumPy's global one if NumPy is loaded)."""
    if seed is None:
        return
    random.seed(seed)
    if "numpy" in sys.modules:                  # numpy may load numpy.random lazily: load it now
        import numpy.random
        numpy.random.seed(seed % 2**32)


def seed_process(seed: int | None) -> None:
    """Derive every randomness source of this process from `seed` (None: leave them to entropy)."""
    if seed is None:
        return
    unseeded = random.Random(f"{seed}/unseeded")     # seeds for Random() and random.seed()
    system = random.Random(f"{seed}/system")         # SystemRandom and secrets
    raw = random.Random(f"{seed}/urandom")           # os.urandom, os.getrandom
    original_seed = random.Random.seed

    def seed_or_derive(self: random.Random, a: Any = None, version: int = 2) -> None:
        original_seed(self, unseeded.getrandbits(64) if a is None else a, version)

    def urandom(size: int) -> bytes:
        if size < 0:
            raise ValueError("negative argument not allowed")
        return raw.randbytes(size)

    # Patching the standard library's methods in place is the point here: hence the ignores.
    random.Random.seed = seed_or_derive                                    # type: ignore[method-assign]
    random.seed = random._inst.seed    # the module function was bound before the patch
    random.SystemRandom.random = lambda self: system.random()              # type: ignore[method-assign]
    random.SystemRandom.getrandbits = lambda self, k: system.getrandbits(k)  # type: ignore[method-assign]
    random.SystemRandom.randbytes = lambda self, n: system.randbytes(n)    # type: ignore[method-assign]
    os.urandom = random._urandom = urandom                                 # type: ignore[attr-defined]
    if hasattr(os, "getrandom"):
        os.getrandom = lambda size, flags=0: urandom(size)
    import secrets  # binds SystemRandom's methods at import
    secrets.randbits = secrets._sysrand.getrandbits                        # type: ignore[attr-defined]
    secrets.choice = secrets._sysrand.choice                               # type: ignore[attr-defined]
    seed_generators(seed)
    _reseed_module_generators(seed)
    bit_generator = sys.modules.get("numpy.random.bit_generator")
    if bit_generator is not None:                     # imported `randbits` from secrets before the patch
        bit_generator.randbits = secrets.randbits  # type: ignore[attr-defined]


def _reseed_module_generators(seed: int) -> None:
    """Reseed the `random.Random` objects that loaded modules hold at module level (only trusted
    modules are loaded yet), each from its own name so the order of imports does not matter."""
    for name, module in sorted(sys.modules.items()):
        for attr, value in list(getattr(module, "__dict__", {}).items()):
            if type(value) is random.Random and value is not random._inst:
                value.seed(f"{seed}/{name}.{attr}")
