"""The portable child's bootstrap: `python -I -m sandbox.portable_child '<config json>'`.

Used where the Linux layers are absent (macOS, Windows) or switched off (GRADER_SANDBOX=portable):
stdin carries the requests and the original stdout the replies; stdout is then pointed at stderr,
the manager's capture pipe, so print() never reaches the protocol (no descriptors are passed, which
Windows cannot do). Nothing is restricted in here: the manager's time limits, memory watch and
suspension between calls (sandbox/portable.py) are this sandbox. Imports nothing Linux-only.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
from types import ModuleType

from sandbox import wire
from sandbox.callloop import course_packages, prepare_interpreter, serve
from sandbox.wire import ChildConfig


class Bootstrap:
    """What sandbox.callloop needs of a bootstrap; the ready frame says that nothing was restricted."""

    def __init__(self, cfg: ChildConfig) -> None:
        self.cfg = cfg
        self.applied = {"restrictions": "none inside the player process (portable sandbox)"}

    def load(self) -> ModuleType:
        """Import the shim and its PRELOAD, then put the submission first on sys.path (as on Linux)."""
        course_packages(self.cfg.python_path)
        shim = importlib.import_module(self.cfg.shim)
        for name in getattr(shim, "PRELOAD", ()):
            importlib.import_module(name)
        os.chdir(self.cfg.submission)
        sys.path.insert(0, self.cfg.submission)
        return shim

    def forget_first_turn_paths(self) -> None:
        """Nothing was made readable only for the first turn: nothing to take back."""


def main() -> None:
    cfg = ChildConfig.from_message(json.loads(sys.argv[1]))
    request_fd, reply_fd = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    prepare_interpreter()
    try:
        boot = Bootstrap(cfg)
        serve(boot, boot.load(), request_fd, reply_fd)
    except MemoryError:
        os._exit(wire.MEMORY_EXIT)


if __name__ == "__main__":
    main()
