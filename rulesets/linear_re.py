"""Regular expressions that take time linear in the text they read (RE2, google-re2 on PyPI).

Console output and line-protocol answers come from students. Python's `re` backtracks, so a
pattern with nested or adjacent quantifiers over prompt text ("(\\s+|\\s*,\\s*)+") can take
exponential time on a crafted line, inside the grader's own process. RE2 matches in one pass
over the text whatever the pattern; it has no look-arounds and no back-references, so a config
pattern that uses them is refused with a sentence when the config is read. The API is `re`'s:
`compile(p).finditer(text)`, `search`, `match`, `fullmatch`, `findall`, and matches with `m["name"]`,
`.group()`, `.groupdict()`, `.start()`. Flags go inline: `(?i)`, `(?m)`, `(?s)`.
"""
from __future__ import annotations

import functools
from typing import Any

import re2

error = re2.error
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False              # a refused pattern is our sentence, not RE2's log line


@functools.lru_cache(maxsize=512)
def compile(pattern: str) -> Any:        # the name `re` users expect
    """The compiled pattern; `error` if RE2 cannot run it (look-arounds, back-references)."""
    return re2.compile(pattern, _OPTIONS)


def search(pattern: str, text: str) -> Any:
    return compile(pattern).search(text)


def findall(pattern: str, text: str) -> list:
    return compile(pattern).findall(text)


def finditer(pattern: str, text: str) -> Any:
    return compile(pattern).finditer(text)


def fullmatch(pattern: str, text: str) -> Any:
    return compile(pattern).fullmatch(text)
