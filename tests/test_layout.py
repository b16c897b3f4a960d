"""How the code is laid out: imports point down and say why when they wait (issue 28).

An import inside a function is either gone (moved to the top of its module) or carries its reason
as a comment: an optional extra that may be absent (Dask, Starlette, psycopg, Playwright), a
module of one platform only, or a measured heavy import kept off a start that does not need it.
"To avoid an import cycle" is never a reason: the second test finds any cycle, counting the
imports inside functions too, so a cycle cannot hide behind one.
"""
from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("grader", "sandbox", "rulesets")
# What `import grader.config` may load of the project: the packages it sits in (their __init__
# files), the ruleset record it asks, the penalty rules (a leaf), and the names of the sandbox's protections.
CONFIG_MAY_LOAD = {"grader", "grader.config", "grader.penalties", "rulesets", "rulesets.base", "sandbox",
                   "sandbox.layers", "sandbox.limits", "sandbox.verdict"}
# The front doors that render what grader/usecases.py decides (a package is a door with every module
# in it), and what they reach only through it: the LMS formats, the results' outputs, and each other.
# (`grader serve` starts the service: the one door another door may open.)
DOORS = ("grader.cli", "grader.gradescope", "grader.demo", "grader.serve")
BEHIND_THE_USE_CASES = ("grader.lms", "grader.outputs", "grader.autograder_zip", "grader.cli", "grader.gradescope",
                        "grader.demo")


def _sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


def _commented_lines(text: str) -> set[int]:
    """Lines holding a comment (tokenize, so a # inside a string does not count)."""
    return {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT}


def _imports_in_functions(tree: ast.AST):
    """(import statement, the statement list it sits in) for every import inside a function."""
    def walk(node: ast.AST, in_function: bool):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if isinstance(block, list) and in_function:
                for stmt in block:
                    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                        yield stmt, block
        for child in ast.iter_child_nodes(node):
            yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                     ast.Lambda)))
    yield from walk(tree, False)


def unexplained_imports(path: Path) -> list[str]:
    """Imports inside functions with no reason: no comment on the statement itself, nor on the line
    just above the run of import statements it belongs to (`try:  # here: ...` counts)."""
    text = path.read_text(encoding="utf-8")
    comments = _commented_lines(text)
    out = []
    for stmt, block in _imports_in_functions(ast.parse(text)):
        i = block.index(stmt)
        while i > 0 and isinstance(block[i - 1], (ast.Import, ast.ImportFrom)) and \
                block[i - 1].end_lineno == block[i].lineno - 1:
            i -= 1
        first = block[i]
        own = set(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
        if not (own & comments) and first.lineno - 1 not in comments:
            out.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{stmt.lineno}: "
                       f"{ast.unparse(stmt)}")
    return out


def test_every_import_inside_a_function_says_why():
    missing = [line for path in _sources() for line in unexplained_imports(path)]
    assert not missing, ("an import inside a function needs a reason comment (an optional extra, one "
                         "platform's module, a measured heavy import), or belongs at the top:\n"
                         + "\n".join(missing))


def _import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports, at the top or inside functions (TYPE_CHECKING
    blocks left out; a module importing its own parent package is not an edge: that package is
    always loaded first)."""
    modules = {_module_name(p)[0]: p for p in _sources()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = _module_name(path)[1]
        here = name if package else name.rpartition(".")[0]
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for top in ast.walk(tree)
                       if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
                       for stmt in top.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here.split(".")[:len(here.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                targets = [target] + [f"{target}.{a.name}" for a in node.names]
            for t in targets:
                parts = t.split(".")
                for k in range(1, len(parts) + 1):
                    m = ".".join(parts[:k])
                    if m in modules and m != name and not name.startswith(m + "."):
                        edges.add(m)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_no_import_cycle_even_through_imports_inside_functions():
    cycle = _cycle(_import_graph())
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])


def _reaching_around(graph: dict[str, set[str]]) -> list[str]:
    """"door -> module" for every import of a door that belongs behind the use cases."""
    def within(module: str, names: tuple[str, ...]) -> str | None:
        return next((n for n in names if module == n or module.startswith(n + ".")), None)

    return [f"{m} -> {to}" for m in sorted(graph) if (door := within(m, DOORS))
            for to in sorted(graph[m]) if within(to, BEHIND_THE_USE_CASES) not in (None, door)]


def test_a_door_reaches_the_lms_and_the_outputs_only_through_the_use_cases():
    around = _reaching_around(_import_graph())
    assert not around, "a door imports what a use case should call for it:\n" + "\n".join(around)


def test_the_checks_find_what_they_look_for(tmp_path):
    """The scanners themselves: an unexplained import is found, an explained one is not, and a
    cycle through an import inside a function is one."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    import json\n    return json\n\n"
                      "def g():\n    try:  # here: an optional extra\n        import dask\n        import distributed\n"
                      "    except ImportError:\n        return None\n\n"
                      "def h():\n    import csv  # here, not above: measured 80 ms\n    s = '# not a comment'\n"
                      "    import io\n")
    found = [line.split(": ", 1)[1] for line in unexplained_imports(sample)]
    assert found == ["import json", "import io"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    assert _reaching_around({"grader.cli": {"grader.usecases", "grader.lms.export", "grader.gradescope"},
                             "grader.usecases": {"grader.outputs"},
                             "grader.serve.practice": {"grader.outputs", "grader.serve.db", "grader.pseudonyms"}}) \
        == ["grader.cli -> grader.gradescope", "grader.cli -> grader.lms.export",
            "grader.serve.practice -> grader.outputs"]


def _loaded_by(module: str) -> set[str]:
    """The project's modules a fresh interpreter holds after `import module`."""
    code = (f"import json, sys, {module}; print(json.dumps(sorted(m for m in sys.modules "
            f"if m.split('.')[0] in {PACKAGES!r})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def test_the_config_is_a_leaf():
    """Reading a config loads no machinery: what needs the grader (grading formulas, console
    patterns, the kinds table) is checked by grader/config_checks.py when assignments are loaded."""
    loaded = _loaded_by("grader.config")
    assert "grader.config" in loaded
    assert loaded <= CONFIG_MAY_LOAD, f"grader.config loads {sorted(loaded - CONFIG_MAY_LOAD)}"
