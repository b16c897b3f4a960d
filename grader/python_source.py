"""Facts the grader reads from a student's Python source (never running it): its top-level
functions, the names it binds or imports, whether it reads its console.

Each parse is size-checked and runs in a bounded child (grader/bounded.py): the syntax tree of a
large or hostile file lives and dies there, and only the answer (a few names) comes back.
`bounded.ReadRefused` says, in one sentence, when a file is too large or too costly to read.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from rulesets import linear_re

from . import bounded


@dataclass(frozen=True)
class Facts:
    functions: frozenset[str]       # functions defined at the top level
    bound: frozenset[str]           # names bound at the top level by def, class or import
    imported: frozenset[str]        # every module name imported anywhere (each dotted part, relative imports' names)
    reads_console: bool             # calls input(...) or touches a .stdin
    prompts: bool                   # asks a question at its console: input("...") with a prompt
    asks: bool = False              # prints a question or a numbered menu (print("Your move?"), print("1 - Human vs AI"))
    methods: frozenset[str] = frozenset()   # "Class.method" of every class at its top level
    runs: bool = False              # does something when started: `if __name__ == "__main__"` or a top-level call


def facts(path: Path) -> Facts | None:
    """The facts of the Python file at `path`; None when it does not parse (the interface stage says
    why). OSError if it cannot be opened; `bounded.ReadRefused` if it is too large or too costly."""
    source = bounded.read_source(path)
    return bounded.run(facts_of, source, what=path.name)


def facts_each(paths: list[Path]) -> list[Facts | bounded.ReadRefused | None]:
    """The facts of each file, read in one bounded child (a file too large or too costly is `Refused`)."""
    sources: list[tuple] = []
    for path in paths:
        try:
            sources.append((bounded.read_source(path),))
        except bounded.ReadRefused as exc:
            sources.append((exc,))
    found = bounded.run_each(_facts_or_refused, sources, what=lambda k: paths[k].name)
    return list(found)


def _facts_or_refused(source: bytes | bounded.ReadRefused) -> Facts | bounded.ReadRefused | None:
    return source if isinstance(source, bounded.ReadRefused) else facts_of(source)


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
    methods = {f"{node.name}.{item.name}" for node in tree.body if isinstance(node, ast.ClassDef)
               for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
    runs = any(_is_main_guard(node) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
               for node in tree.body)
    reads_console = prompts = asks = False
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
            prompts = prompts or _literal(each.args[0]).strip() != ""
        if isinstance(each, ast.Call) and isinstance(each.func, ast.Name) and each.func.id == "print" and each.args \
                and not any(k.arg == "file" for k in each.keywords):
            asks = asks or bool(QUESTION_TEXT.search(_literal(each.args[0])))
    return Facts(frozenset(functions), frozenset(bound), frozenset(imported), reads_console, prompts, asks,
                 frozenset(methods), runs)


# printed text that asks a person something: a question or a prompt (a word, then "?" or ":" at its
# end), a yes/no, or a numbered menu line ("1 - Human vs AI", "2. Play against the computer")
QUESTION_TEXT = linear_re.compile(r"(?m)[A-Za-z]{3}[^\n]{0,80}(?:[?:]|\([yY]/[nN]\))[ \t]*$|^\s*[\[(]?\d[ \t]*[.):\]-][ \t]*[A-Za-z]{3}")


def _literal(node: ast.expr) -> str:
    """The text of a string literal or an f-string's literal parts ("" for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value[:2000]
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))[:2000]
    return ""


def _is_main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":`"""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators))


# what a SyntaxError under an older `feature_version` says ("Pattern matching is only supported in
# Python 3.10 and greater"), and the name a student knows the feature by
NEWER_GRAMMAR = re.compile(r"(?P<what>.+?) (?:is|are) only supported in Python (?P<version>3\.\d+) and greater")
FEATURE_NAMES = {"pattern matching": "a `match` statement", "assignment expressions": "`:=` (an assignment "
                 "expression)", "parenthesized context managers": "a parenthesised `with`",
                 "exception groups": "`except*`", "variadic generics": "a starred subscript"}


def too_new(folder: Path, version: tuple[int, int]) -> str | None:
    """One sentence naming the first of the submission's Python files (the top level and its
    subfolders) whose grammar the course's Python `version` would have refused, or None. Files this
    Python cannot parse either are left to the interface stage."""
    files = sorted(p for p in folder.rglob("*.py") if p.is_file() and not p.is_symlink())
    sources = [(bounded.read_source(path), version) for path in files]
    for path, found in zip(files, bounded.run_each(grammar_error, sources, what=lambda k: files[k].name)):
        if isinstance(found, bounded.ReadRefused):
            raise found
        if found is not None:
            line, why = found
            where = f"{path.relative_to(folder)} line {line}"
            return f"{where}: {why}; the course runs Python {version[0]}.{version[1]}, which refuses this file."
    return None


def grammar_error(source: bytes, version: tuple[int, int]) -> tuple[int, str] | None:
    """(line, what needs a newer Python) if `source` parses here but not in Python `version`."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None                    # broken in every Python: the interface stage says why
    try:
        ast.parse(source, feature_version=version)
    except SyntaxError as exc:
        named = NEWER_GRAMMAR.match(exc.msg or "")
        if named:
            what = named["what"]
            # a `match` is refused at its first `case`: name the line the statement starts on
            line = min((n.lineno for n in ast.walk(tree) if isinstance(n, ast.Match)), default=exc.lineno) \
                if what.lower() == "pattern matching" else exc.lineno
            return line or 0, f"{FEATURE_NAMES.get(what.lower(), what)} needs Python {named['version']}"
        return exc.lineno or 0, f"this line needs a Python newer than {version[0]}.{version[1]} ({exc.msg})"
    except (ValueError, RecursionError):
        return None
    return None
