"""Who plays whom, on which seed: pure functions of the ids and one league seed.

Every game seed is a sha256 of (league seed, the unordered pair, the seat-swap index), so it does
not depend on the order of the id list, on the round, or on who else entered: adding a submission
leaves every other pairing's games (and therefore their cache keys) unchanged, and a pair that meets
in two rounds (e.g. a submission and a built-in in both the league and the gauntlet) gets the same
games, which the league deduplicates.

Games of a pair come in seat-swapped twins on one seed: games 2k and 2k+1 share seed k, game 2k has
the pair's lexicographically smaller id in seat 0, game 2k+1 the other. With an odd games_per_pair
the last game has no twin and its seat 0 is chosen by a bit of its seed.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class GameSpec:
    pairing: str        # "a vs b" with a < b: the same for both seatings
    seat0: str
    seat1: str
    seed: int
    game_index: int     # 0 .. games_per_pair-1 within the pairing
    round: str          # "league", "random", "playoff", "gauntlet", BASELINE_ROUND, ...


BASELINE_ROUND = "baseline test"    # games played on until a grade's test against a built-in decides;
                                    # they decide a pass, never a place, so the standings leave them out


def _digest(*parts) -> bytes:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()


def pairing_name(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"{x} vs {y}"


def game_seed(league_seed: int, a: str, b: str, twin: int) -> int:
    """The seed of the twin-th seat-swapped pair of games between a and b (48 bits: JSON/JS-safe)."""
    x, y = sorted((a, b))
    return int.from_bytes(_digest("game", league_seed, x, y, twin)[:6], "big")


def pair_games(a: str, b: str, games_per_pair: int, seed: int, round: str) -> list[GameSpec]:
    """The games of one pairing, in seat-swapped twins (see the module docstring)."""
    if a == b:
        raise ValueError(f"{a!r} cannot play itself.")
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1.")
    x, y = sorted((a, b))
    name = pairing_name(a, b)
    out = []
    for i in range(games_per_pair):
        s = game_seed(seed, x, y, i // 2)
        if i % 2 == 0 and i == games_per_pair - 1:       # the odd last game: seats from its seed
            first, second = (x, y) if s & 1 == 0 else (y, x)
        else:
            first, second = (x, y) if i % 2 == 0 else (y, x)
        out.append(GameSpec(name, first, second, s, i, round))
    return out


def more_games(a: str, b: str, scheduled: int, count: int, seed: int, round: str) -> list[GameSpec]:
    """`count` more games of a pairing that has `scheduled` games already, starting on a fresh twin
    (so every new game has its seat-swapped partner on a new seed)."""
    start = scheduled + scheduled % 2
    return pair_games(a, b, start + count, seed, round)[start:]


def _unique(ids) -> list[str]:
    ids = list(ids)
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"duplicate ids in the schedule: {', '.join(dupes)}.")
    return sorted(ids)


def _all_pairs(ids: list[str], games_per_pair: int, seed: int, round: str) -> list[GameSpec]:
    ids = _unique(ids)
    return [g for i, a in enumerate(ids) for b in ids[i + 1:] for g in pair_games(a, b, games_per_pair, seed, round)]


def round_robin(ids, games_per_pair: int, seed: int) -> list[GameSpec]:
    """Every unordered pair plays games_per_pair games."""
    return _all_pairs(ids, games_per_pair, seed, "league")


def random_opponents(ids, k: int, games_per_pair: int, seed: int) -> list[GameSpec]:
    """McGill's first round: each submission meets k random distinct opponents.

    Pairs are deduplicated, so some players get more than k opponents; everyone gets at least
    min(k, n-1). Each player, in an order drawn from the seed, adds opponents from its own seeded
    preference list until it has k. With k >= n-1 this is a full round robin.
    """
    ids = _unique(ids)
    if k < 1:
        raise ValueError("the number of opponents must be at least 1.")
    want = min(k, len(ids) - 1)
    opponents: dict[str, set[str]] = {i: set() for i in ids}
    for player in sorted(ids, key=lambda i: _digest("order", seed, i)):
        prefs = sorted((o for o in ids if o != player), key=lambda o: _digest("pref", seed, player, o))
        for other in prefs:
            if len(opponents[player]) >= want:
                break
            opponents[player].add(other)
            opponents[other].add(player)
    pairs = sorted({tuple(sorted((a, b))) for a in ids for b in opponents[a]})
    return [g for a, b in pairs for g in pair_games(a, b, games_per_pair, seed, "random")]


def playoff_qualifiers(ids_ranked, top_fraction: float, points: dict[str, float] | None = None) -> list[str]:
    """The top ceil(top_fraction·n) of the ranking (at least 2), plus everyone tied on points with
    the last qualifier (ties at the cut are included, never broken by list order)."""
    ids = list(ids_ranked)
    if not 0 < top_fraction <= 1:
        raise ValueError("top_fraction must be in (0, 1].")
    if len(ids) < 2:
        return ids
    cut = min(len(ids), max(2, math.ceil(top_fraction * len(ids) - 1e-9)))
    chosen = ids[:cut]
    if points is not None:
        last = points.get(chosen[-1])
        chosen += [i for i in ids[cut:] if points.get(i) == last]
    return chosen


def playoff(ids_ranked, top_fraction: float, games_per_pair: int, seed: int,
            points: dict[str, float] | None = None) -> list[GameSpec]:
    """A round robin among the top fraction of `ids_ranked` (best first); see playoff_qualifiers."""
    return _all_pairs(playoff_qualifiers(ids_ranked, top_fraction, points), games_per_pair, seed, "playoff")


def gauntlet(ids, builtins, games_per_pair: int, seed: int) -> list[GameSpec]:
    """Each submission against each built-in (built-ins do not play each other)."""
    ids, builtins = _unique(ids), _unique(builtins)
    return [g for a in ids for b in builtins if a != b for g in pair_games(a, b, games_per_pair, seed, "gauntlet")]
