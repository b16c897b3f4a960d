"""How every player's Python starts: the interpreter's flags and the only environment it gets.

Shared by the spawned child (sandbox/spawn.py), the pre-fork templates (sandbox/prefork.py) and the
portable sandbox (sandbox/portable.py), so none of them needs the player process's module.
"""
from __future__ import annotations

import sys

from . import seeding

CHILD_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "1",
             "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
             "PYTHONHASHSEED": seeding.HASH_SEED}
# `python -I` less its -E: no user site (-s), no script folder on sys.path (-P), and the
# environment is CHILD_ENV alone, so its PYTHONHASHSEED fixes the string hash seed.
PYTHON = (sys.executable, "-s", "-P")
