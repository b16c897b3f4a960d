"""How one submission's player process is started: the ruleset's Python shim; for a Java player
its JVM after its sources are compiled in the sandbox; for a line-protocol program (any language,
grader/builds.py) the built program with the ruleset's `lines` adapter. Builds are cached by content.

`player_kwargs` is what match.py and validation.py hand to the player factory; `build_java` is
also the validation stage "compile". Nothing here is game-specific: the ruleset's `java`
(rulesets.base.JavaApi) names the course API's sources, the package and the bridge class.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from rulesets.base import Ruleset
from sandbox import Limits

from .assignment import Assignment
from .builds import run_build
from .submissions import Submission

BUILD_MEMORY_MB = 1024       # javac is a JVM of its own; its limits are the build's, not the player's
BUILD_TIME_S = 120.0
BUILD_OUTPUT_KB = 64


class BuildFailed(Exception):
    """The submission's sources did not compile; str() is the sentence with javac's messages."""


@dataclass
class Build:
    ok: bool
    message: str                       # one sentence
    classes: Path | None = None
    seconds: float = 0.0
    compiler: str = ""                 # javac's messages, cleaned and capped


def language(ruleset: Ruleset, staged: Path | None) -> str:
    """"java" when the staged copy holds the Java entry in its package, "program" when it is a
    line-protocol program (grader/builds.py), else "python" (the ruleset's entry file)."""
    from .builds import detect

    java = ruleset.java
    if staged is None:
        return "python"
    if ruleset.lines is not None and detect(staged, ruleset.lines.API_NAMES) == "python":
        return "program"                  # a Python console program, not the Python API
    if (staged / ruleset.entry).is_file():
        return "python"
    if java is not None and (staged / java.package / java.entry).is_file():
        return "java"
    return "program" if ruleset.lines is not None and detect(staged, ruleset.lines.API_NAMES) else "python"


def build_java(assignment: Assignment, sub: Submission) -> Build:
    """Compile a Java submission against the course API with javac inside the sandbox (its own
    limits: BUILD_TIME_S, BUILD_MEMORY_MB, output, writes only into a fresh folder)."""
    from sandbox import java

    ruleset = assignment.ruleset
    if java.unavailable_reason():
        return Build(False, f"This Java player cannot be graded here: {java.unavailable_reason()}.")
    api = java.api_classes(ruleset.java.sources, ruleset.java.bridge)
    target = java.cache_root() / f"classes-{sub.content_hash[:24]}-{api.name}"
    sources = sorted(p.relative_to(sub.staged).as_posix() for p in (sub.staged / ruleset.java.package).rglob("*.java"))
    limits = Limits(memory_mb=BUILD_MEMORY_MB, start_s=BUILD_TIME_S, output_kb=BUILD_OUTPUT_KB, freeze=False)
    run = run_build(ruleset.shim, sub, target, lambda out: java.compile_program(api, sources, out, BUILD_MEMORY_MB),
                    limits)
    if run.result is None:
        return Build(True, "compiled (cached)", target)
    if not run.ok:
        res = run.result
        why = {"killed": f"javac did not finish within {BUILD_TIME_S:g} s",
               "memory": f"javac went over {BUILD_MEMORY_MB} MB"}.get(res.verdict.value)
        errors = re.search(r"^(\d+) errors?$", run.messages, re.MULTILINE)
        count = f": {errors.group(1)} error(s), javac's messages are below" if errors else ""
        return Build(False, f"{ruleset.java.entry} does not compile ({why})." if why else
                     f"{ruleset.java.entry} does not compile{count}.", seconds=res.wall_s,
                     compiler=run.messages or res.message)
    return Build(True, f"compiled {len(sources)} file(s) in {run.result.wall_s:.1f} s", target, run.result.wall_s)


def player_kwargs(assignment: Assignment, sub: Submission, cpu: int | None = None) -> dict:
    """The factory's arguments for this submission's player; BuildFailed if Java that does not compile."""
    kwargs = {"shim": assignment.ruleset.shim, "submission": str(sub.staged), "limits": assignment.limits(cpu),
                  "options": assignment.config.options, "name": sub.display_name}
    kind = language(assignment.ruleset, sub.staged)
    if kind == "program":
        from .builds import build
        built = build(assignment, sub)
        if not built.ok:
            raise BuildFailed(built.message + (f"\n{built.compiler}" if built.compiler else ""))
        kwargs.update(program=built.run, lines=assignment.ruleset.lines())
    if kind == "java":
        from sandbox import java

        build = build_java(assignment, sub)
        if not build.ok:
            raise BuildFailed(build.message + (f"\n{build.compiler}" if build.compiler else ""))
        jv = assignment.ruleset.java
        read_once = any((sub.staged / p).exists() for p in kwargs["limits"].readable_until_first_reply)
        kwargs["program"] = java.player_program(java.api_classes(jv.sources, jv.bridge), jv.bridge, build.classes,
                                                assignment.memory_mb, read_once=read_once)
    return kwargs
