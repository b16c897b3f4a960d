"""Importing a submission's entry file inside a shim: one implementation for every game.

The sandbox child opens exactly one submission, but in-process runs (InProcessPlayer, the shim
tests, the benchmarks) open several in one interpreter. Each `open_folder` first forgets the
modules and sys.path entries of the submissions opened before, so one student's helper modules
never answer another student's imports.

A course's own modules (rulesets/<game>/course/) are compiled when the shim is imported, before
the sandbox closes, and served from that code by `CourseModules`: the player's process never
needs to read rulesets/ again, and what it imports is the student-side copy, never the engine.
"""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types
from pathlib import Path

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
    if spec is None or spec.loader is None:
        raise ImportError(f"{entry} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    for name in (module_name, *aliases):
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def compile_course(folder: Path, files: dict[str, str]) -> dict[str, types.CodeType]:
    """Module name -> code of the course's files (paths relative to `folder`)."""
    return {name: compile((folder / rel).read_text(), str(folder / rel), "exec") for name, rel in files.items()}


class CourseModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves a course's modules from their compiled code. It goes last on sys.meta_path, so a
    student's own file of the same name is found first; `packages` maps a course package to the
    folders its submodules are searched in before the course's own."""

    def __init__(self, code: dict[str, types.CodeType], packages: dict[str, list[str]] | None = None) -> None:
        self.code = code
        self.packages = packages or {}

    def find_spec(self, name, path=None, target=None):
        code = self.code.get(name)
        if code is None:
            return None
        package = name in self.packages
        spec = importlib.machinery.ModuleSpec(name, self, origin=code.co_filename, is_package=package)
        spec.has_location = True
        if package:
            spec.submodule_search_locations = list(self.packages[name])
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        exec(self.code[module.__name__], module.__dict__)


def install_course(code: dict[str, types.CodeType], installed: tuple[str, ...] = (),
                   packages: dict[str, list[str]] | None = None) -> dict[str, types.ModuleType]:
    """Fresh course modules: those in `installed` put in sys.modules now, in that order (always the
    course's, whatever the submission holds); the others when imported."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, CourseModules)]
    finder = CourseModules(code, packages)
    sys.meta_path.append(finder)
    modules: dict[str, types.ModuleType] = {}
    for name in installed:
        module = importlib.util.module_from_spec(finder.find_spec(name))
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], child, module)
        finder.exec_module(module)
        modules[name] = module
    return modules
