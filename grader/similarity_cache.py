"""What a re-run of the similarity report and the collusion check may reuse: each compared pair's
token-level result, keyed by both documents' content digests and everything else the comparison
reads, and each game's obviously-losing-move counts, keyed by the game (whose key holds both
submissions' content hashes). One JSON file per assignment beside the instructor's report; a
missing or damaged file is an empty cache. So after one submission changes, only the pairs and
games that involve it are computed again.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path


def digest(*parts: object) -> str:
    """A key from the parts' text (documents' code, settings, sorted hash lists)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


class ComparisonCache:
    """{key: result} for pairs ("pairs") and games ("games"), read at start, written at the end.
    Only what this run used is written back, so the file never outgrows the class."""

    def __init__(self, path: Path | None):
        self.path = path
        self.hits = self.misses = 0
        self._old: dict[str, dict] = {"pairs": {}, "games": {}}
        self._used: dict[str, dict] = {"pairs": {}, "games": {}}
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self._old = {part: dict(data.get(part) or {}) for part in self._old}
            except (OSError, ValueError, AttributeError, TypeError):
                pass

    def get(self, part: str, key: str):
        value = self._old[part].get(key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
            self._used[part][key] = value
        return value

    def put(self, part: str, key: str, value) -> None:
        self._used[part][key] = value

    def games(self) -> dict:
        """The games' part as a plain dict the collusion check reads and fills (by game id)."""
        merged = self._old["games"] | self._used["games"]
        self._used["games"] = merged
        return merged

    def save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(self._used), encoding="utf-8")
        partial.replace(self.path)
