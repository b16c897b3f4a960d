"""Facts the grader reads from a student's Python source (never running it): its top-level
functions, the names it binds or imports, whether it reads its console.

Each parse is size-checked and runs in a bounded child (grader/bounded.py): the syntax tree of a
large or hostile file lives and dies there, and only the answer (a few names) comes back.
`bounded.Refused` says, in one sentence, when a file is too large or too costly to read.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from . import bounded


@dataclass(frozen=True)
class Facts:
    functions: frozenset[str]       # functions defined at the top level
    bound: frozenset[str]           # names bound at the top level by def, class or import
    imported: frozenset[str]        # every module name imported anywhere (each dotted part, relative imports' names)
    reads_console: bool             # calls input(...) or touches a .stdin
    prompts: bool                   # asks a question at its console: input("...") with a prompt


def facts(path: Path) -> Facts | None:
    """The facts of the Python file at `path`; None when it does not parse (the interface stage says
    why). OSError if it cannot be opened; `bounded.Refused` if it is too large or too costly."""
    source = bounded.read_source(path)
    return bounded.run(facts_of, source, what=path.name)


def facts_of(source: bytes) -> Facts | None:
    """The facts of one source text, in this process (bounded.run calls it in its child)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    functions, bound, imported = set(), set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.add(node.name)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
    reads_console = prompts = False
    for each in ast.walk(tree):
        if isinstance(each, ast.Import):
            imported |= {part for alias in each.names for part in alias.name.split(".")}
        elif isinstance(each, ast.ImportFrom):
            imported |= set((each.module or "").split(".")) - {""}
            if each.level:
                imported |= {alias.name for alias in each.names}
        elif (isinstance(each, ast.Name) and each.id == "input") or (isinstance(each, ast.Attribute)
                                                                     and each.attr == "stdin"):
            reads_console = True
        if isinstance(each, ast.Call) and isinstance(each.func, ast.Name) and each.func.id == "input" and each.args:
            prompts = True
    return Facts(frozenset(functions), frozenset(bound), frozenset(imported), reads_console, prompts)
