"""What the terminal shows of a use case's result, shared by the `grader` command and the demo:
the standings table, the similarity summary, the sandbox's protections."""
from __future__ import annotations

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .check_report import sandbox_summary
from .feedback import ranked_by, tied_on_points
from .feedback import rating as shown_rating
from .results_doc import ResultsDoc
from .safetext import markup, one_line
from .similarity_report import InstructorReport
from .usecases import Protections


def print_standings(out: Console, doc: ResultsDoc) -> None:
    """The table keeps to one line per submission; why a submission failed follows it as a list,
    then each league player's grade in one line with its reason. The number the table ranks by is
    always shown (a rating with its interval, however wide), and so is a rating that breaks a tie in
    points."""
    table = Table(title=f"Standings — {doc['assignment']['title']}", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, collapse_padding=True)
    for col in ("rank", "submission", "points", "W-D-L", "rating", "grade", "status"):
        table.add_column(col, no_wrap=True)
    reasons: list[str] = []
    graded: list[str] = []
    ranks = ranked_by(doc) == "rating"
    tied = tied_on_points(doc["submissions"])
    for s in doc["submissions"]:
        wdl = f"{s['wins']}-{s['draws']}-{s['losses']}" if s["games"] is not None else ""
        rating = " ".join(x for x in shown_rating(s.get("rating"), s.get("rating_low"), s.get("rating_high"),
                                                  ranks=ranks or s.get("points") in tied) if x)
        grade = f"{s['grade']:g}/{s['grade_max']:g}" if s.get("grade") is not None else ""
        status: str = s["status"]
        if grade and s.get("grade_reason") and status not in ("failed", "disqualified"):
            graded.append(f"{one_line(s['display_name'])}: {grade}: {one_line(s['grade_reason'])}")
        if status in ("failed", "disqualified") and s["status_detail"]:
            reasons.append(f"[{len(reasons) + 1}] {one_line(s['display_name'])}: {one_line(s['status_detail'])}")
            status += f" [{len(reasons)}]"
        table.add_row(str(s["rank"] or ""), markup(s["display_name"]),
                      "" if s["points"] is None else f"{s['points']:g}", wdl, rating, grade, escape(status))
    out.print(table)
    for line in reasons:
        out.print(escape(line))
    if graded:
        out.print(f"Grades (ranked by {'rating' if ranks else 'points'}):")
    for line in graded:
        out.print(escape(f"  {line}"), soft_wrap=True)


def print_similarity(out: Console, report: InstructorReport) -> None:
    """The most similar pairs, the collusion flags and where the instructor-only files are."""
    out.print(escape(report.similarity.summary()))
    for n, p in enumerate(report.similarity.pairs[:10], 1):
        out.print(f"  {n:>2}. {p.score:4.0%}  {escape(one_line(p.a.label))} ↔ {escape(one_line(p.b.label))}")
    if len(report.similarity.pairs) > 10:
        out.print(f"  … {len(report.similarity.pairs) - 10} more on the page")
    if report.similarity.skipped:
        out.print(f"  not compared, or only in part: {len(report.similarity.skipped)} line(s) on the page say what and why")
    pairs = {(f.player, f.beneficiary) for f in report.flags}
    out.print(escape(report.league_note) if report.league_note else
              f"collusion: {len(pairs)} pair(s) flagged" + (f" ({len(report.flags)} findings):" if report.flags else "."))
    for f in report.flags:
        out.print(f"  {escape(one_line(f.sentence))}")
    for label, path in report.paths.items():
        out.print(f"  {label}: {escape(str(path))}")
    out.print("  (instructor only: these files name students and show their code; do not publish them)")


def print_doctor(out: Console, found: Protections) -> None:
    """`grader doctor`: each sandbox layer, the Java players' toolchain and each program build."""
    out.print("[bold]Sandbox protections on this machine[/]"
              + (" (as an ordinary user: some layers need root)" if found.ordinary_user else ""))
    for line in sandbox_summary(found.sandbox)[:-1]:
        out.print(f"[yellow]{escape(line)}[/]")
    for name, state in found.sandbox.items():
        mark = ("[red]missing[/]" if state.startswith("missing") else
                "[yellow]partly [/]" if "missing" in state else "[green]active [/]")
        out.print(f"  {mark}  {name:<12} {escape(state)}")
        if name in found.fixes:
            out.print(f"           {'':<12} [cyan]fix:[/] {escape(found.fixes[name])}")
    for line in found.advice:
        out.print(f"  [cyan]faster:[/] {escape(line)}")
    for title, states in (("Java players (courses taught in Java)", found.java),
                          ("Builds of line-protocol programs (in the sandbox; processes allowed, toolchain only)",
                           found.builds)):
        out.print(f"[bold]{title}[/]")
        for name, state in states.items():
            mark = "[red]missing[/]" if state.startswith("missing") else "[green]active[/]"
            out.print(f"  {mark}  {name:<12} {escape(state)}")
    if found.state:
        out.print("[bold]The grader's own files[/]")
        mark = "[red]missing[/]" if found.state.startswith("missing") else "[green]active[/]"
        out.print(f"  {mark}  {'state':<12} {escape(found.state)}")
    if found.rules:
        out.print("[bold]Rules of the grader (on every machine)[/]")
        for name, rule in found.rules.items():
            out.print(f"  [green]active[/]  {name:<16} {escape(rule)}")
