"""Importing a submission's entry file inside a shim: one implementation for every game.

The sandbox child opens exactly one submission, but in-process runs (InProcessPlayer, the shim
tests, the benchmarks) open several in one interpreter. Each `open_folder` first forgets the
modules and sys.path entries of the submissions opened before, so one student's helper modules
never answer another student's imports.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types

_opened: list[str] = []          # submission folders opened in this process
_added_to_path: list[str] = []   # ... of which we put on sys.path


def forget_submissions(forget: tuple[str, ...] = ()) -> None:
    """Drop the modules and sys.path entries of the submissions opened so far, and the module
    names (or name prefixes ending in ".") in `forget`."""
    for name in list(sys.modules):
        origin = getattr(sys.modules[name], "__file__", None) or ""
        if (name in forget or any(p.endswith(".") and name.startswith(p) for p in forget)
                or any(origin.startswith(f + os.sep) for f in _opened)):
            del sys.modules[name]
    for f in _added_to_path:
        if f in sys.path:
            sys.path.remove(f)
    _opened.clear()
    _added_to_path.clear()


def open_folder(path: str, forget: tuple[str, ...] = ()) -> str:
    """Make `path` the submission whose modules import: forget earlier ones (see
    `forget_submissions`), put it first on sys.path."""
    folder = os.path.abspath(path)
    forget_submissions(forget)
    if not sys.path or os.path.abspath(sys.path[0] or ".") != folder:
        sys.path.insert(0, folder)
        _added_to_path.append(folder)
    _opened.append(folder)
    return folder


def import_entry(folder: str, entry: str, module_name: str, aliases: tuple[str, ...] = ()) -> types.ModuleType:
    """Execute `folder/entry` as module `module_name` (also registered under `aliases`)."""
    path = os.path.join(folder, entry)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"the submission has no {entry}")
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    for name in (module_name, *aliases):
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
