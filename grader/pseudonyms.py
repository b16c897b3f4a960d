"""The public site's stand-in names ("Calm Otter"): a function of the league's salt and an id only,
unique within a league and kept from run to run. Shared by the results document and the service's
practice matches, which name classmates as the league's public pages do."""
from __future__ import annotations

import hashlib
from collections.abc import Iterable

ADJECTIVES = ("Amber", "Brisk", "Calm", "Daring", "Eager", "Fuzzy", "Gentle", "Hasty", "Icy", "Jolly", "Keen",
              "Lucky", "Mellow", "Nimble", "Odd", "Proud", "Quiet", "Rapid", "Shy", "Tidy", "Upbeat", "Vivid",
              "Witty", "Young", "Zesty", "Bold", "Crisp", "Dusky", "Fair", "Grand", "Hardy", "Merry")
ANIMALS = ("Otter", "Lynx", "Heron", "Badger", "Falcon", "Gecko", "Ibis", "Koala", "Lemur", "Marten", "Newt",
           "Ocelot", "Puffin", "Quokka", "Raven", "Stoat", "Tapir", "Urial", "Vole", "Wombat", "Bison", "Crane",
           "Dingo", "Egret", "Ferret", "Gibbon", "Hare", "Jackal", "Kestrel", "Llama", "Moose", "Okapi")


def pseudonym(sub_id: str, salt: str, attempt: int = 0) -> str:
    """The `attempt`-th stand-in name a submission would take, a function of the salt and its id
    only (unguessable without the salt); `pseudonyms` makes them unique within a league."""
    digest = hashlib.sha256(f"{salt}:{sub_id}:{attempt}".encode()).digest()
    n = int.from_bytes(digest[:8], "big")
    words = f"{ADJECTIVES[n % len(ADJECTIVES)]} {ANIMALS[(n // len(ADJECTIVES)) % len(ANIMALS)]}"
    tries_per_word_pair = 4 * len(ADJECTIVES) * len(ANIMALS)
    return words if attempt < tries_per_word_pair else f"{words} {attempt - tries_per_word_pair + 2}"


def pseudonyms(ids: Iterable[str], salt: str, kept: dict[str, str] | None = None) -> dict[str, str]:
    """{id: stand-in name}, no two alike in the league. A name kept from an earlier run (`kept`,
    read from the store) stays its holder's; the others, in an order drawn from the salt, take
    the first of their own seeded names that no one holds or held. So names are stable across
    runs and a newcomer never takes a name someone already has."""
    ids = sorted(set(ids))
    out: dict[str, str] = {}
    taken: set[str] = set()
    for sid in ids:
        name = (kept or {}).get(sid)
        if name and name not in taken:
            out[sid] = name
            taken.add(name)
    taken |= set((kept or {}).values())         # an absent student's name waits for its return
    for sid in sorted((i for i in ids if i not in out), key=lambda i: hashlib.sha256(f"{salt}:{i}".encode()).digest()):
        attempt = 0
        while (fresh := pseudonym(sid, salt, attempt)) in taken:
            attempt += 1
        out[sid] = fresh
        taken.add(fresh)
    return out
