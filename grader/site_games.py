"""The games of a league's sites, spilled to a temporary SQLite file while the pages are written.

A 300-student round robin has ~90,000 games per site. Holding even a light view of each (names,
result, reason, `grader play` line) for the submission pages, the crosstable and the numbering
made the manager's memory grow by a few KB a game. Here each game's facts go to a private
temporary database (deleted when closed, spilled to disk past a small page cache), and come back
in the order a page needs them: sorted by identity for numbering, one submission at a time for its
page, in stream order for the record files. Memory then grows with the students, not the games.

Texts are stored as JSON (ASCII) or UTF-8 bytes (surrogates passed through), so anything a
submission put in its names or messages round-trips, and byte order sorts like Python's strings.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import NamedTuple

_SCHEMA = """
CREATE TABLE games (site INTEGER, pos INTEGER, pair_a BLOB, pair_b BLOB, game_index REAL, seed BLOB,
                    first BLOB, id BLOB, index_text BLOB, row TEXT, PRIMARY KEY (site, pos)) WITHOUT ROWID;
CREATE TABLE numbered (site INTEGER, pos INTEGER, n INTEGER, key TEXT, PRIMARY KEY (site, pos)) WITHOUT ROWID;
CREATE UNIQUE INDEX numbered_keys ON numbered (site, key);
CREATE TABLE plays (site INTEGER, sub BLOB, opponent BLOB, seat INTEGER, pos INTEGER);
CREATE INDEX plays_by_submission ON plays (site, sub);
"""


def _blob(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8", "surrogatepass")


def _text(blob: bytes | None) -> str | None:
    return None if blob is None else blob.decode("utf-8", "surrogatepass")


class Identity(NamedTuple):
    """What a game's number and URL key come from: the pairing as shown, the game's index in the
    pairing and its seed, the first seat's name; its id where the site shows ids."""

    pair_a: str
    pair_b: str
    game_index: float
    seed: str
    first: str
    id: str | None
    index_text: str | None


class Play(NamedTuple):
    """One of a submission's games from its seat, as its page's table row shows it."""

    seat: int
    opponent: str | None
    n: int
    key: str
    row: list


class SiteGames:
    """The spill of one render: `add` every game of every site, `number` each site, then read."""

    def __init__(self) -> None:
        self._db = sqlite3.connect("", isolation_level=None)      # "": a private temporary file
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.executescript(_SCHEMA)
        self._db.execute("BEGIN")                 # one transaction, never committed: the file goes on close
        self._games: list[tuple] = []
        self._plays: list[tuple] = []

    def __enter__(self) -> SiteGames:
        return self

    def __exit__(self, *exc) -> None:
        self._db.close()

    def add(self, site: int, pos: int, identity: Identity, seats: tuple[str | None, str | None], row: list) -> None:
        """Game `pos` of the stream as site `site` shows it: its identity, its seats' submission
        ids and `row`, the JSON-able facts each seat's table row prints."""
        self._games.append((site, pos, _blob(identity.pair_a), _blob(identity.pair_b), identity.game_index,
                            _blob(identity.seed), _blob(identity.first), _blob(identity.id),
                            _blob(identity.index_text), json.dumps(row)))
        for seat, sub in enumerate(seats):
            if sub is not None:
                self._plays.append((site, _blob(sub), _blob(seats[1 - seat]), seat, pos))
        if len(self._games) >= 2048:
            self._flush()

    def _flush(self) -> None:
        self._db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._games)
        self._db.executemany("INSERT INTO plays VALUES (?, ?, ?, ?, ?)", self._plays)
        self._games.clear()
        self._plays.clear()

    def in_identity_order(self, site: int) -> Iterator[tuple[int, Identity]]:
        """(pos, identity) of the site's games sorted by identity (UTF-8 bytes sort as Python's
        strings do); equal identities keep the stream's order."""
        self._flush()
        cursor = self._db.execute(
            "SELECT pos, pair_a, pair_b, game_index, seed, first, id, index_text FROM games WHERE site=? "
            "ORDER BY pair_a, pair_b, game_index, seed, first, pos", (site,))
        for pos, a, b, index, seed, first, gid, index_text in cursor:
            yield pos, Identity(_text(a) or "", _text(b) or "", index, _text(seed) or "", _text(first) or "",
                                _text(gid), _text(index_text))

    def number(self, site: int, pos: int, n: int, key: str) -> bool:
        """Give game `pos` its number and URL key; False (nothing kept) if the key is taken."""
        try:
            self._db.execute("INSERT INTO numbered VALUES (?, ?, ?, ?)", (site, pos, n, key))
        except sqlite3.IntegrityError:
            return False
        return True

    def count(self, site: int) -> int:
        self._flush()
        return int(self._db.execute("SELECT count(*) FROM games WHERE site=?", (site,)).fetchone()[0])

    def numbers(self, site: int) -> Iterator[tuple[int, str]]:
        """(number, key) of the site's games in the stream's order (a cursor: it ends with the spill)."""
        return iter(self._db.execute("SELECT n, key FROM numbered WHERE site=? ORDER BY pos", (site,)))

    def opponents(self, site: int, sub: str) -> set[str | None]:
        """The submission ids a submission met on this site (None: a seat without an id)."""
        rows = self._db.execute("SELECT DISTINCT opponent FROM plays WHERE site=? AND sub=?", (site, _blob(sub)))
        return {_text(r[0]) for r in rows}

    def plays(self, site: int, sub: str) -> list[Play]:
        """A submission's games in number order (twice, once per seat, for a game against itself)."""
        self._flush()
        rows = self._db.execute(
            "SELECT p.seat, p.opponent, n.n, n.key, g.row FROM plays p "
            "JOIN numbered n ON n.site = p.site AND n.pos = p.pos "
            "JOIN games g ON g.site = p.site AND g.pos = p.pos "
            "WHERE p.site=? AND p.sub=? ORDER BY n.n, p.seat", (site, _blob(sub)))
        return [Play(seat, _text(opponent), n, key, json.loads(row)) for seat, opponent, n, key, row in rows]
