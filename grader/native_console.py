"""Whether a program in a compiled language has a console of its own: a question it prints for a person.

A line-protocol program (rulesets/*/lines.py) prints its moves and nothing else; a program written
to be played at the keyboard (a mode menu, "Enter your move: ") prints questions. The grader
plays console programs whose waiting for input it can see: Python ones (sandbox/console_shim.py
runs the script in a thread of its own process), Java ones (the JVM shim's ConsoleHandler runs
`Main` in a thread the same way) and C, C++ and Rust ones (sandbox/console_lines.py watches the
process in /proc); grader/player_kinds.py `Kind.console`. Such a program must not be misread as a
line-protocol player (its menu taken for an illegal move): it is found here, from its sources.
`needs_human_sentence` is for a compiled kind with no console row.

The sources are the student's bytes: each file is size-checked before it is read, at most
MAX_TOTAL_BYTES are read in all, and the pattern runs on RE2 (time linear in the text).
"""
from __future__ import annotations

from pathlib import Path

from rulesets import linear_re

from .player_kinds import KINDS

# the compiled kinds (those with a build) and their languages, from the table of player kinds
LANGUAGES = {name: (kind.title, kind.sources) for name, kind in KINDS.items() if kind.build is not None and kind.asks}
MAX_FILE_BYTES = 1 << 20
MAX_TOTAL_BYTES = 4 << 20
# a text literal written to standard output that asks something: a word, then '?' or ':' at its end
# ("Choose a mode: ", "Who plays first? (human/ai): "), or a yes/no question
QUESTION = linear_re.compile(
    r"(?:\bcout\s*<<|\bprintf\s*\(|\bputs\s*\(|\bSystem\.out\.print(?:ln|f)?\s*\(|\bprint(?:ln)?!\s*\()\s*"
    r"\"([^\"\n]{0,160}[A-Za-z]{3}[^\"\n]{0,160}?(?:[?:]|\(y/n\))\s*)\"")


def console_question(staged: Path, kind: str) -> str | None:
    """The first question the `kind` program in `staged` prints for a person, or None (no console
    of its own, or a kind that is not a compiled language)."""
    if kind not in LANGUAGES:
        return None
    suffixes = LANGUAGES[kind][1]
    budget = MAX_TOTAL_BYTES
    for path in sorted(p for p in staged.rglob("*") if p.suffix in suffixes and p.is_file() and not p.is_symlink()):
        size = path.stat().st_size
        if size > MAX_FILE_BYTES or size > budget:
            continue
        budget -= size
        found = QUESTION.search(path.read_bytes().decode("utf-8", errors="replace"))
        if found:
            return found.group(1)
    return None


def needs_human_sentence(kind: str, question: str) -> str:
    """Why a TA must play this program, in one sentence."""
    language = LANGUAGES[kind][0]
    return (f"it is a {language} program with a console of its own (it asks {question.strip()!r} and waits for "
            f"an answer), and the grader has no way here to tell when a {language} program waits for its input.")
