"""Grading an interactive command-line program: the grader plays the human through stdin/stdout.

The program runs in the sandbox under `sandbox.console_shim` (one fresh process per scenario).
A ruleset declares its command-line kind as data, the `console` field of its Ruleset record: a
rulesets.console.ConsoleProgram (entry and the names it may have, is_program(facts), patterns and
templates, points, and scenarios() -> objects with .label: str and .play(console) -> None).

`play` drives a `Console` (launch, send, find) and raises `console.fail(sentence)` when
the program does something wrong. Output the driver cannot follow raises `Unparsable` (through
`console.unparsable(...)`): that scenario "needs a human" — the sentence quotes the
output (trimmed) and the pattern that did not match, the transcript goes to the TA, and the check
records no points for the program rather than a silent 0. The game logic (what the right move is)
stays in the ruleset; this module knows nothing about games.

Reading a console as a person does is general, so the Console also offers what any ruleset's
scenarios need to answer prompts by their meaning: `prompt(text)` (the question the program is
asking now), `menu(text)` (its numbered options, in a menu or inside the question) and
`number(text)` (digits or number words).

The output is the student's, so reading it is bounded: every pattern runs on RE2
(rulesets/linear_re.py: time linear in the text, whatever the pattern), the output of one call is
cut to `OUTPUT_CHARS` here whatever the program's side sent, and each read has a budget of
`READ_BUDGET_S` of the grader's CPU time, checked at every `find`, `number`, `menu` and `prompt`:
past it the scenario ends with "the program's output could not be read in 2 s" (`OutputUnreadable`)
and the remaining scenarios are not tried.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesets import linear_re
from rulesets.base import Ruleset
from rulesets.console import ConsoleProgram
from sandbox import Limits, PlayerProcess, Verdict
from sandbox.command import Command
from sandbox.console_lines import ConsoleLines

from . import python_source
from .native_console import console_question, needs_human_sentence
from .player_kinds import kind_of

SHIM = "sandbox.console_shim"
SHOWN_CHARS = 300
OUTPUT_CHARS = 8000                  # what one call's output may hold (sandbox.console_shim trims to this too)
READ_BUDGET_S = 2.0                  # the grader's CPU time for reading the output of one call
NUMBER_WORDS = {"no": 0, "zero": 0, "none": 0, "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "pair": 2,
                "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# "1) Take 1 red", "2. blue 2", "[3] Red x1", "4 - Pick 2 blue marbles": a number, a closing mark, a label
# options offered inside the question: "Enter '0' for Colors or '1' for Dots", "(1 = red, 2 = blue)"
INLINE_OPTION = linear_re.compile(r"(?i)['\"(\[]?\b(\d)\b['\")\]]?\s*(?:for|=|:|->|-)\s*([a-z]+(?:\s+(?:vs\.?|versus|"
                                  r"against|first|second|starts?)(?:\s+[a-z]+)?)?)")
MENU_LINE = linear_re.compile(r"(?m)^[ \t]*[\[(]?(\d{1,2})[ \t]*[.):\]\-][ \t]*(\S.*?)\s*$")
# options in brackets on one line: "[1] Player vs Player  [2] Player vs Bot", "Who starts? (1) Human (2) AI:"
BRACKETED = linear_re.compile(r"[\[(](\d)[\])][ \t]*([A-Za-z][^\[(\n]*)")
# a label with its number after it: "colors(0) or dots(1)", "Human [1] / AI [2]"
NUMBER_AFTER = linear_re.compile(r"(?i)\b([a-z]+)\s*[\[(](\d)[\])]")


def read_number(text: str | None) -> int | None:
    """An integer written with digits or as a number word ("two", "a"); None if it is neither."""
    if text is None:
        return None
    word = text.strip().lower()
    if linear_re.fullmatch(r"[+-]?\d+", word):
        return int(word)
    return NUMBER_WORDS.get(word)


def last_prompt(text: str) -> str:
    """The question a program is asking: its last non-empty output line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def menu_options(text: str) -> dict[int, str]:
    """The numbered options the program offers now ({number: label}, at least two): those inside its
    question ("Select a pile (1 = red, 2 = blue):", "(1) Human (2) AI", "colors(0) or dots(1)") or on
    the line above it ("[1] PvP  [2] Player vs Bot", then "Choice> "), else those of the last menu in `text`."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    forms = ((INLINE_OPTION, 1, 2), (BRACKETED, 1, 2), (NUMBER_AFTER, 2, 1))
    for line, patterns in ((lines[-1] if lines else "", forms), (lines[-2] if len(lines) > 1 else "", forms[1:2])):
        for pattern, number, label in patterns:
            inline = {int(m[number]): m[label].strip() for m in pattern.finditer(line)}
            if len(inline) >= 2:
                return inline
    found: dict[int, str] = {}
    for match in MENU_LINE.finditer(text):
        key = int(match[1])
        if key in found:              # a new menu starts: keep only the last one
            found = {}
        found[key] = match[2]
    return found if len(found) >= 2 else {}


def question_of(text: str) -> str:
    """The question a program is asking, menu or not: the last output line that is not one of the
    options of a menu under it ("Select the game mode:" above "1 - Human vs. Human"), else its last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines[-8:]):
        if not MENU_LINE.fullmatch(line):
            return line
    return lines[-1] if lines else ""


def trimmed(text: str, limit: int = SHOWN_CHARS) -> str:
    """Output as a quoted one-liner for a report sentence, cut in the middle if long."""
    text = text.strip()
    if len(text) > limit:
        text = text[: limit // 2] + " […] " + text[-limit // 2:]
    return repr(text)


class ScenarioFailed(Exception):
    """The program did something wrong; str(exc) is one sentence for the student."""


class ProgramHangs(ScenarioFailed):
    """The program stopped making progress; the remaining scenarios are not tried."""

    stopped = "the program hung"


class OutputUnreadable(ProgramHangs):
    """Reading one call's output took more than the read budget: the check stops as for a hang."""

    stopped = "its output could not be read in time"


class NotPlayable(ProgramHangs):
    """The grader cannot play this compiled program here (it cannot see it wait for input, or give it
    its arguments): a TA plays it (no points are recorded)."""

    stopped = "the grader cannot play the program here"


class Unparsable(ScenarioFailed):
    """Output the driver could not follow: a TA must read the transcript (no points are recorded).
    The sentence quotes the output with the pattern that did not match."""

    def __init__(self, what: str, name: str, pattern: str, output: str, why: str = "") -> None:
        why = why or f"the output did not match the pattern {name} /{pattern}/"
        super().__init__(f"Could not read {what}: {why}; "
                         f"the program printed {trimmed(output) if output.strip() else 'nothing'}.")
        self.name, self.pattern, self.output = name, pattern, output


class Console:
    """One run of the program in a sandboxed process, as the human at the keyboard sees it."""

    def __init__(self, proc, patterns: dict[str, str], limits: Limits, templates: tuple[str, ...] = (),
                 read_budget_s: float = READ_BUDGET_S, clock=time.thread_time) -> None:
        self.proc, self.limits = proc, limits
        self.patterns = patterns
        self.compiled = {name: linear_re.compile(p) for name, p in patterns.items() if name not in templates}
        self.transcript: list[str] = []          # ">>> " marks what the human typed
        self.waiting = self.exited = False
        self.exit_code: int | None = None
        self.error: str | None = None
        self.read_budget_s, self.clock = read_budget_s, clock
        self.read_from, self.read_when = clock(), "after starting"

    # ------------------------------------------------------------------ the program
    def launch(self, argv: list[str]) -> str:
        self.transcript.append("$ " + " ".join([self.proc.options.get("entry", "program"), *argv]))
        return self._call("launch", {"argv": list(argv)}, "after starting")

    def send(self, line: str, complete: bool = True) -> str:
        """Type `line`; the output it produced. After a `complete` answer (not the first line of a
        several-line one) a program that prints nothing and waits again is reported as hanging."""
        if not self.waiting:
            raise self.fail(f"The program was not asking for input when the human wanted to type {line!r}.")
        self.transcript.append(">>> " + line)
        output = self._call("send", {"line": line}, f"after the human typed {line!r}")
        if complete and self.waiting and not output.strip():
            raise ProgramHangs(f"After the human typed {line!r} the program printed nothing and waited for "
                               f"more input: it hangs waiting for input (does it read to the end of input "
                               f"instead of one line?).")
        return output

    def _call(self, method: str, args: dict, when: str) -> str:
        res = self.proc.call(method, args, soft=self.limits.call_s)
        if res.verdict is Verdict.OK:
            reply = res.value
            if not _console_reply(reply):
                raise self.fail(f"{when.capitalize()}, the program's side of the console sent something that "
                                f"is not a console reply (does the program write to the grader's pipes?).")
            output = reply["output"]
            if len(output) > OUTPUT_CHARS:
                output = (f"[{len(output) - OUTPUT_CHARS} earlier characters of output trimmed]\n"
                          + output[-OUTPUT_CHARS:])
            self.waiting, self.exited = bool(reply["waiting"]), bool(reply["exited"])
            self.exit_code, self.error = reply["exit_code"], reply["error"]
            self.transcript.append(output)
            self.read_from, self.read_when = self.clock(), when
            return output
        if res.verdict is Verdict.INFRA and self.proc.program is not None and self.proc.program.io == "lines":
            raise NotPlayable(f"Could not play the program: {res.message}.")
        if res.verdict in (Verdict.KILLED, Verdict.LATE):
            raise ProgramHangs(f"{when.capitalize()}, the program neither asked for input nor ended within "
                               f"{self.limits.call_s:g} s: it hangs.")
        raise self.fail(f"{when.capitalize()}, the program failed: {res.message or res.verdict.value}.")

    # ------------------------------------------------------------------ reading its output
    def pattern(self, name: str) -> str:
        return self.patterns[name]

    def find(self, name: str, text: str) -> list:
        """Every match of pattern `name` in `text` (RE2 matches: m["group"], .group(), .start())."""
        self.within_budget()
        return list(self.compiled[name].finditer(text))

    def within_budget(self) -> None:
        """OutputUnreadable once reading the last call's output has used more than the read budget."""
        if self.clock() - self.read_from > self.read_budget_s:
            raise OutputUnreadable(f"{self.read_when.capitalize()}, the program's output could not be read in "
                                   f"{self.read_budget_s:g} s.")

    def unparsable(self, what: str, name: str, text: str, why: str = "") -> Unparsable:
        """The exception for output `text` where pattern `name` should have found `what`."""
        return Unparsable(what, name, self.patterns[name], text, why)

    # ------------------------------------------------------------------ reading prompts as a person does
    def prompt(self, text: str) -> str:
        self.within_budget()
        return last_prompt(text)

    def question(self, text: str) -> str:
        self.within_budget()
        return question_of(text)

    def menu(self, text: str) -> dict[int, str]:
        self.within_budget()
        return menu_options(text)

    def number(self, text: str | None) -> int | None:
        self.within_budget()
        return read_number(text)

    @staticmethod
    def quoted(text: str) -> str:
        """Output as a quoted one-liner for a sentence (cut in the middle if long)."""
        return trimmed(text)

    def fail(self, sentence: str) -> ScenarioFailed:
        """The exception to raise for a wrong behaviour, with the program's error if it crashed."""
        if self.error:
            sentence += f" (The program stopped with {self.error}.)"
        return ScenarioFailed(sentence)


@dataclass
class ScenarioResult:
    label: str
    passed: bool
    sentence: str
    transcript: str = ""
    hung: bool = False                  # stopped making progress: later scenarios are skipped
    stopped: str = ""                   # why, when hung: "the program hung", "its output could not be read in time"
    needs_human: bool = False           # the driver could not follow the output: a TA reads the transcript


@dataclass
class ConsoleReport:
    """The command-line check of one submission: points for the share of scenarios passed."""

    points: float
    max_points: float
    passed: bool
    lines: list[str]                                        # one sentence per failing scenario
    scenarios: list[ScenarioResult] = field(default_factory=list)

    @property
    def needs_human(self) -> bool:
        """Some output could not be read: the points are not recorded until a TA has read it."""
        return any(s.needs_human for s in self.scenarios)

    def to_json(self) -> dict[str, Any]:
        return {"points": self.points, "max_points": self.max_points, "passed": self.passed, "lines": self.lines,
                "needs_human": self.needs_human, "scenarios": [vars(s) for s in self.scenarios]}


def console_kind(ruleset: Ruleset) -> ConsoleProgram | None:
    """The ruleset's command-line kind (its record's `console` field), None if it has none."""
    return ruleset.console


def check_patterns(kind: ConsoleProgram, patterns: dict | None, *more: dict | None) -> dict[str, str]:
    """The kind's default patterns with config overrides (later ones win: the assignment's, then one
    submission's); ValueError with a sentence if one is bad."""
    merged = dict(kind.patterns)
    overrides: dict[str, Any] = {}
    for layer in (patterns, *more):
        overrides |= layer or {}
    for name, value in overrides.items():
        if name not in merged:
            raise ValueError(f"there is no program pattern {name!r}; the patterns are {', '.join(sorted(merged))}.")
        if not isinstance(value, str):
            raise ValueError(f"program pattern {name!r} must be text, not {value!r}.")
        merged[name] = value
    for name, value in merged.items():
        if name in kind.templates:
            continue
        try:
            linear_re.compile(value)
        except linear_re.error as exc:
            why = exc.args[0].decode(errors="replace") if exc.args and isinstance(exc.args[0], bytes) else exc
            raise ValueError(f"program pattern {name!r} is not a regular expression that reads in linear time "
                             f"(no look-arounds or back-references): {why}.") from None
    return merged


def entry_file(kind: ConsoleProgram, folder: Path) -> str | None:
    """The kind's script present in `folder` (the first of `kind.entries`), None if none is. A kind
    that takes a script of any name (`kind.any_entry`: students named theirs game.py, DoubleCard.py,
    driver.py) gets the one a person would run (`console_script`)."""
    if kind.any_entry:
        return console_script(kind, Path(folder))
    return next((name for name in kind.names() if (Path(folder) / name).is_file()), None)


def console_script(kind: ConsoleProgram, folder: Path) -> str | None:
    """Of the top-level .py files that are the kind's program (`kind.is_program`, read in a bounded
    child, never run), the one no other file imports; of several, the first named in `kind.entries`,
    else the only one that does something when started (`if __name__ == "__main__"`, a top-level
    call). None when there is none, or no way to tell which (the interface stage then says so)."""
    paths = sorted(p for p in folder.glob("*.py") if p.is_file() and not p.is_symlink())
    try:
        read = python_source.facts_each(paths)
    except OSError:
        return None
    found = {path.name: facts for path, facts in zip(paths, read) if isinstance(facts, python_source.Facts)}
    imported = {name for facts in found.values() for name in facts.imported}
    scripts = [name for name, facts in found.items() if kind.is_program(facts) and name[:-3] not in imported]
    named = [name for name in kind.entries if name in scripts]
    if named:
        return named[0]
    started = [name for name in scripts if found[name].runs]
    if len(scripts) == 1 or len(started) == 1:
        return scripts[0] if len(scripts) == 1 else started[0]
    return None


def run_scenario(kind: ConsoleProgram, scenario, submission_dir: Path, limits: Limits, patterns: dict[str, str],
                 entry: str | None = None, program: Command | None = None) -> ScenarioResult:
    """One scenario in a fresh sandboxed process (`program`: a compiled console program: the JVM
    shim's, which answers the console shim's calls, or a C/C++/Rust program itself (`io="lines"`),
    watched by sandbox/console_lines.py; else the Python console shim runs the script `entry`)."""
    entry = entry or kind.entry
    lines = ConsoleLines() if program is not None and program.io == "lines" else None    # C, C++, Rust
    proc = PlayerProcess(SHIM, submission_dir, limits, options={"entry": entry}, name=f"program {scenario.label}",
                         program=program, lines=lines)
    console = Console(proc, patterns, limits, kind.templates)
    try:
        res = proc.start()
        if not res.ok:
            raise ProgramHangs(f"The program could not be started: {res.message or res.verdict.value}.")
        scenario.play(console)
        return ScenarioResult(scenario.label, True, "passed", "".join(_lines(console.transcript)))
    except ScenarioFailed as exc:
        return ScenarioResult(scenario.label, False, str(exc), "".join(_lines(console.transcript)),
                              hung=isinstance(exc, ProgramHangs),
                              needs_human=isinstance(exc, (Unparsable, NotPlayable)),
                              stopped=exc.stopped if isinstance(exc, ProgramHangs) else "")
    finally:
        proc.close()


def _console_reply(reply: Any) -> bool:
    """Whether `reply` has the shape sandbox.console_shim sends (the program can write the pipe itself)."""
    return (isinstance(reply, dict) and isinstance(reply.get("output"), str)
            and isinstance(reply.get("waiting"), bool) and isinstance(reply.get("exited"), bool)
            and (reply.get("exit_code") is None or type(reply.get("exit_code")) is int)
            and (reply.get("error") is None or isinstance(reply.get("error"), str)))


def _lines(parts: list[str]):
    for part in parts:
        yield part if part.endswith("\n") else part + "\n"


def check_console(ruleset, submission_dir: Path, limits: Limits, patterns: dict | None = None,
                  own_patterns: dict | None = None, program: Command | None = None) -> ConsoleReport:
    """Play every scenario of the ruleset's command-line kind against the program in `submission_dir`
    (`patterns`: the assignment's overrides; `own_patterns`: this submission's, for the rare program
    the default reading cannot follow; `program`: a compiled console program, built, as its kind
    runs one, grader/player_kinds.py `Kind.console`).

    A scenario where the program hangs ends the check: the remaining ones are counted as failed
    without running them, so a hanging program costs one time limit, not one per scenario.
    """
    kind = console_kind(ruleset)
    if kind is None:
        raise ValueError(f"the {ruleset.name} ruleset has no command-line kind of submission.")
    merged = check_patterns(kind, patterns, own_patterns)
    submission_dir = Path(submission_dir)
    scenarios = kind.scenarios()
    entry = entry_file(kind, submission_dir)
    native = kind_of(ruleset, submission_dir) or ""
    if program is not None:
        entry = "Main"
    question = console_question(submission_dir, native) if entry is None else None
    if question is not None:
        sentence = f"Could not play the program: {needs_human_sentence(native, question)}"
        return ConsoleReport(0.0, kind.points, False, [sentence],
                             [ScenarioResult(s.label, False, sentence, needs_human=True) for s in scenarios])
    if entry is None:
        lines = [f"The submission has no {kind.entry}."]
        return ConsoleReport(0.0, kind.points, False, lines,
                             [ScenarioResult(s.label, False, lines[0]) for s in scenarios])
    results: list[ScenarioResult] = []
    for k, scenario in enumerate(scenarios):
        result = run_scenario(kind, scenario, submission_dir, limits, merged, entry, program)
        results.append(result)
        if result.hung:
            stopped = result.stopped or "the program hung"
            results += [ScenarioResult(s.label, False, f"not tried: {stopped} in an earlier scenario")
                        for s in scenarios[k + 1:]]
            break
    good = sum(r.passed for r in results)
    lines = [f"{r.label}: {r.sentence}" for r in results if not r.passed and not r.sentence.startswith("not tried")]
    skipped = sum(r.sentence.startswith("not tried") for r in results)
    if skipped:
        stopped = next((r.stopped for r in results if r.hung), "") or "the program hung"
        lines.append(f"{skipped} more scenario(s) were not tried because {stopped}.")
    points = round(kind.points * good / len(results), 4) if results else 0.0
    return ConsoleReport(points, kind.points, good == len(results), lines, results)
