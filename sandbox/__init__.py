"""Running untrusted player code: one restricted process, one call at a time.

Knows nothing about games: a *shim* module (named by the caller) turns calls into the
student's API inside the process. See docs/ARCHITECTURE.md.
"""
from typing import Any

from .limits import Limits
from .verdict import CallResult, ProcessReport, Verdict

__all__ = [
    "CallResult",
    "InProcessPlayer",
    "Limits",
    "PlayerProcess",
    "ProcessReport",
    "Verdict",
    "protections",
]


def __getattr__(name: str) -> Any:  # lazy, so `import sandbox` stays cheap in the child
    if name in ("PlayerProcess", "protections"):   # the portable sandbox's on macOS and Windows (sandbox/portable.py)
        # here, not above: the portable sandbox (psutil) adds ~40 ms to a child's start, which never uses it
        from . import portable
        if portable.wanted():
            return portable.PortablePlayerProcess if name == "PlayerProcess" else portable.protections
        if name == "protections":
            from .host import protections  # here: chosen per platform, like PlayerProcess
            return protections
        from .process import (
            PlayerProcess,  # here, not above: ~15 ms more on a child's start, which never uses it
        )
        return PlayerProcess
    if name == "InProcessPlayer":
        from .inprocess import (
            InProcessPlayer,  # here: benchmarks and shim tests only; the child never uses it
        )
        return InProcessPlayer
    raise AttributeError(name)
