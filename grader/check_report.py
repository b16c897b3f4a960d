"""The check's report as people read it: one rendering for `grader check`, the upload service's
verdict page and the Gradescope autograder's output, so the three never say different things."""
from __future__ import annotations

import io
from collections.abc import Mapping

from rich.console import Console
from rich.markup import escape

from . import usecases
from .assignment import Assignment
from .feedback import num
from .safetext import markup
from .submissions import Submission
from .validation import ValidationReport


def verdict_sentence(report: ValidationReport) -> tuple[bool | None, str]:
    """(passed, the last sentence of the check), as `grader check` ends with it: the shared use case's."""
    return usecases.check_verdict(report.to_json())


def game_line(game: Mapping[str, object]) -> str:
    """One smoke game in a sentence: opponent, seat, result and why."""
    seat = ("first", "second")[int(str(game["seat"]))]
    return f"game vs {game['opponent']} as {seat} player: {game['result']} ({game['reason']})"


def print_check_report(assignment: Assignment, sub: Submission, report: ValidationReport, out: Console) -> None:
    """What `grader check` prints; the upload service keeps the same text for its pages."""
    out.print(f"[bold]{escape(assignment.title)}[/] — checking [bold]{markup(sub.source)}[/]")
    for line in sandbox_summary(report.sandbox):
        out.print(f"[yellow]{escape(line)}[/]" if "stricter" in line else escape(line))
    if report.environment:
        out.print(escape(report.environment))
    out.print(escape(report.replay))
    width = max((len(c.title) for c in report.checks), default=0)
    for c in report.checks:
        mark = "[green]PASS[/]" if c.passed else ("[yellow]INFO[/]" if c.informational else
                                                  "[yellow]TA[/]  " if c.needs_human else "[red]FAIL[/]")
        pts = f"{'?' if c.needs_human else num(c.points)}/{num(c.max_points)} pt" if c.max_points else (
            "gate" if not c.informational else "info")
        out.print(f"  {mark}  {escape(c.title.ljust(width))}  {pts}")
    shown = set()
    for c in report.checks:
        if c.passed:
            continue
        out.print(f"\n[bold]{escape(c.title)}[/]: {escape(c.message)}")
        if c.picture and c.picture in shown:
            out.print("(the same position as shown above)")
        elif c.picture:
            out.print(escape(c.picture))
            shown.add(c.picture)
    for g in report.games:
        replaced = f", {g['replaced']} of {g['moves']} moves replaced by random ones" if g.get("replaced") else ""
        if g.get("why_replaced"):
            replaced += f" (the first: {escape(g['why_replaced'])})"
        out.print(f"  game vs {markup(g['opponent'])} as {('first', 'second')[g['seat']]} player: "
                  f"{g['result']} ({escape(g['reason'])}){replaced}")
        if g.get("losing"):                     # grader/losing_move.py, where the ruleset has an evaluator
            out.print(f"    {escape(g['losing']['sentence'])}")
    passed, sentence = verdict_sentence(report)
    colour = ("yellow" if passed is None or (passed and ("lost" in sentence or "failed" in sentence))
              else "green" if passed else "red")
    out.print(f"\nResult: [{colour}]{escape(sentence)}[/]")


def verdict_text(assignment: Assignment, sub: Submission, report: ValidationReport) -> str:
    """The check's report exactly as `grader check` prints it, as plain text (the service's page)."""
    buffer = io.StringIO()
    print_check_report(assignment, sub, report, Console(file=buffer, width=100, color_system=None,
                                                         highlight=False, soft_wrap=True))
    return buffer.getvalue()


def sandbox_summary(prot: Mapping[str, str]) -> list[str]:
    """The sandbox in two sentences: the layers applied here and the missing ones, and whether the
    server's sandbox is stricter (always, in the portable sandbox of macOS and Windows)."""
    if not prot:
        return []
    have = [k + (" (partly)" if "missing" in v else "") for k, v in prot.items()
            if not v.startswith("missing") and k != "sandbox"]
    missing = [k for k, v in prot.items() if v.startswith("missing")]
    partly = [k for k, v in prot.items() if "missing" in v[1:] and not v.startswith("missing")]
    lines = [f"Sandbox on this machine: {', '.join(have)}" + (f"; missing: {', '.join(missing)}" if missing else "")
             + " (grader doctor says more)."]
    if "sandbox" in prot:            # the portable sandbox (sandbox/portable.py)
        lines.insert(0, "The server's sandbox is stricter: there a player cannot touch files outside its folder, "
                        "the network or other processes; here only its time, memory and turns are limited.")
    elif missing or partly:
        lines.insert(0, "The server's sandbox may be stricter than this machine's: "
                        f"{', '.join(missing + partly)} cannot be fully applied here.")
    if prot.get("first_turn", "").startswith("missing"):
        lines.insert(len(lines) - 1, "The first-turn rule (files readable only until the first move) is not "
                                     "enforced for this user: a player can keep reading them here.")
    return lines
