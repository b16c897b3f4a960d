"""A generic shim for submissions that are a plain module of functions.

options["entry"] names the entry file (default "player.py"); `rpc_call(function, args)` calls
a module-level function of it with keyword arguments, and any other `rpc_<name>(**args)` calls the
module-level function `<name>` directly (so a call named "move" reaches `move`). Used by the sandbox tests and by games
whose student API is a plain module.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

PRELOAD: list[str] = []


class ModuleHandler:
    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def __getattr__(self, name: str) -> Callable[..., Any]:
        fn = getattr(self.module, name[4:], None) if name.startswith("rpc_") else None
        if not callable(fn):
            raise AttributeError(name)
        return fn  # type: ignore[no-any-return]  # the student's function, whatever it is

    def rpc_interface(self) -> list[str]:
        return []

    def rpc_call(self, function: str, args: dict[str, Any] | None = None) -> Any:
        fn = getattr(self.module, function, None)
        if not callable(fn):
            raise AttributeError(f"the submission has no function {function!r}")
        return fn(**(args or {}))


def open_submission(path: str, options: dict[str, Any]) -> ModuleHandler:
    entry = options.get("entry", "player.py")
    name = os.path.splitext(os.path.basename(entry))[0]
    spec = importlib.util.spec_from_file_location(name, os.path.join(path, entry))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {entry!r} from the submission")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return ModuleHandler(module)
