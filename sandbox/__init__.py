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
    if name == "PlayerProcess":             # the portable one on macOS and Windows (sandbox/portable.py)
        from . import portable
        if portable.wanted():
            return portable.PortablePlayerProcess
        from .process import PlayerProcess
        return PlayerProcess
    if name == "InProcessPlayer":
        from .inprocess import InProcessPlayer
        return InProcessPlayer
    if name == "protections":
        from .host import protections
        return protections
    raise AttributeError(name)
