"""Where the seeds of player processes come from, so that no player can predict another's.

A game has one seed (the schedule's); each seat's process gets `sandbox.seeding.seat_seed(key,
game seed, seat)`. In a league the key is the league's secret: 32 random bytes generated once and
kept beside the league's results (`league-secret`, readable by the grader's user only), so that
knowing one's own seed says nothing of the opponent's, and a stored game still replays on the
machine that holds the results. Validation (the probes and the smoke games against a built-in)
draws a fresh seed for every check and records it in the report; its key is public
(`CHECK_KEY`), so the recorded seed replays the check anywhere (`grader check --seed`). Both kinds
of seat seed are 64 uniform bits: a player cannot tell a check from a league game by its seed.
The same secret salts the public site's pseudonyms (`pseudonym_salt`). Where no file may be kept
(a CI runner starts empty every night), the secret comes from the environment
(`GRADER_LEAGUE_SECRET`, e.g. a repository secret) and no file is written; a file that disagrees
with it is refused, since the stored games' replay lines would then replay other games.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

CHECK_KEY = b"grader check: seeds of probe and smoke-game processes"
SECRET_NAME = "league-secret"
SECRET_ENV = "GRADER_LEAGUE_SECRET"
SEED_BITS = 48          # game and check seeds: JSON- and JavaScript-safe integers


class SecretMismatch(ValueError):
    """The league's secret is given twice, differently (or badly): one sentence for the instructor."""


def league_key(results_dir: Path) -> bytes:
    """The league's secret: $GRADER_LEAGUE_SECRET if set (no file is written), else the one kept
    beside its results, made (0600, once, atomically) on first use."""
    path = results_dir / SECRET_NAME
    given = os.environ.get(SECRET_ENV, "").strip()
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = None
    if given:
        try:
            key = bytes.fromhex(given)
        except ValueError:
            key = b""
        if len(key) != 32:
            raise SecretMismatch(f"{SECRET_ENV} must be 64 hexadecimal digits (make one with: python -c "
                                 f"'import secrets; print(secrets.token_hex(32))'); nothing was played.")
        if kept is not None and kept.lower() != given.lower():
            raise SecretMismatch(f"{SECRET_ENV} differs from the league secret kept in {path}: the stored games' "
                                 f"replay lines would replay other games; set the variable to that file's "
                                 f"contents, or remove one of the two; nothing was played.")
        return key
    if kept is not None:
        return bytes.fromhex(kept)
    results_dir.mkdir(parents=True, exist_ok=True)
    tmp = results_dir / f".{SECRET_NAME}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(secrets.token_hex(32) + "\n")
    try:
        os.link(tmp, path)              # the first writer wins; every later one reads its secret
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


def pseudonym_salt(key: bytes, assignment: str) -> str:
    """The salt of an assignment's public stand-in names, from the league's secret `key`: never from
    public settings (the assignment's name and the league's seed are in the config and on the site,
    so a salt made of them let a student recompute every classmate's pseudonym)."""
    return hmac.new(key, f"pseudonyms/{assignment}".encode(), hashlib.sha256).hexdigest()[:32]


def new_check_seed() -> int:
    """A fresh seed for one check (probes and smoke games): a player never meets the same one twice."""
    return secrets.randbits(SEED_BITS)


def derived_seed(seed: int, purpose: str) -> int:
    """A seed for one part of a check (a smoke game's board, the probe processes), from the check's seed."""
    digest = hmac.new(CHECK_KEY, f"{seed}/{purpose}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:SEED_BITS // 8], "big")
