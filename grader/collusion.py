"""Game throwing in a league: pairs whose games against each other are far from what everything
else they played predicts. Flags are for the instructor to look at; they never change a grade.

Two tests, each with a Bonferroni correction over every test made in the league, so that among
honest players of mixed strength a false flag is rare (the rate on leagues of the built-in and
example players is in docs/BENCHMARKS.md):

- **results**: Bradley–Terry ratings fitted on every game except the pair's own (leave the pair
  out, so the thrown games do not explain themselves) predict each one's chance against the other,
  averaged over the ratings' own uncertainty; the binomial tail of what the pair actually scored is
  the p-value. Strong only when a pair plays
  many games: two games cannot be unlikely enough alone.
- **moves**: where the ruleset can tell an obviously losing move (`Ruleset.blunder(state, move)`:
  Quoridor's step away from the goal while a step that does not lengthen the path exists,
  Bohnenspiel's move that gives away far more than the best one-ply choice), a player's rate of
  such moves against one opponent is compared with its rate against everyone else by Fisher's exact
  test (one-sided), with a floor on the difference so that a tiny but steady gap in huge samples
  does not count.

Two games a pair (a course's usual league) cannot make any result unlikely enough after the
correction, so a league first **replays suspicious pairs** (`replay_suspicious`): a pair whose
results against each other are improbable at an uncorrected screening level (`screen`) gets one
more seat-swapped twin of games, wave after wave, until the corrected test decides it (flagged),
its surprise fades above the screening level (an honest streak regresses), or it has played
`max_games`. The replayed games are ordinary stored games of round `REPLAY_ROUND`: a re-run
replays nothing, the report shows them, and they never count in the standings.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .standings import ELO_SCALE, Z95, ratings

ALPHA = 0.01                # family-wise false-flag rate per league and test
MIN_OTHER_GAMES = 4         # the leave-pair-out rating needs games outside the pair
MIN_MOVES = 10              # judged moves against the opponent in question
MIN_OTHER_MOVES = 20        # judged moves against everyone else
SCREEN = 0.05              # results: pairs refitted without their own games
MIN_RATE_GAP = 0.15         # blunder rate against the opponent minus the rate against the others
REPLAY_ROUND = "collusion replay"   # the round of the games a suspicious pair replays


@dataclass(frozen=True)
class ReplaySettings:
    """When a league replays a pair before the corrected test (config: league.collusion)."""

    replay: bool = True         # replay suspicious pairs at all
    screen: float = 0.1         # uncorrected p-value under which a pair is suspicious
    max_games: int = 12         # a pair's games in all (its league games included), then the test decides
    alpha: float = ALPHA        # the corrected test's family-wise false-flag rate

    def __post_init__(self) -> None:
        if not 0 < self.screen < 1:
            raise ValueError(f"collusion screen must be between 0 and 1, not {self.screen:g}.")
        if self.max_games < 2:
            raise ValueError(f"collusion max_games must be at least 2, not {self.max_games}.")


@dataclass
class Flag:
    test: str                   # "results" | "moves"
    player: str                 # who played badly (lost or blundered)
    beneficiary: str            # the opponent it happened against
    p_value: float              # corrected (Bonferroni) p-value
    sentence: str
    games: list[str] = field(default_factory=list)   # ids of the pair's games

    def to_json(self) -> dict:
        return {"test": self.test, "player": self.player, "beneficiary": self.beneficiary,
                "p_value": self.p_value, "sentence": self.sentence, "games": self.games}


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    return min(1.0, sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1)))


def fisher_greater(b1: int, m1: int, b0: int, m0: int) -> float:
    """One-sided Fisher exact test: P(at least b1 of the b1+b0 events fall among the m1 trials)."""
    total, events = m1 + m0, b1 + b0

    def log_comb(n: int, k: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)

    denom = log_comb(total, m1)
    return min(1.0, sum(math.exp(log_comb(events, i) + log_comb(total - events, m1 - i) - denom)
                        for i in range(b1, min(events, m1) + 1)))


def win_probability(rated: dict, a: str, b: str) -> float:
    """a's chance a game against b from ratings {id: (elo, low, high)}, averaged over the ratings'
    own uncertainty (the logistic-normal approximation σ(μ / √(1 + πs²/8))): a rating from few games
    predicts little, so a surprise against it is less surprising."""
    mu = (rated[a][0] - rated[b][0]) / ELO_SCALE
    se = [(rated[x][2] - rated[x][1]) / (2 * Z95 * ELO_SCALE) for x in (a, b)]
    var = se[0] ** 2 + se[1] ** 2
    return 1.0 / (1.0 + math.exp(-mu / math.sqrt(1 + math.pi * var / 8)))


def _scored(games: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [g for g in games if g.get("points") and g.get("seat0") != g.get("seat1")
            and not (g["points"][0] == 0 and g["points"][1] == 0)]


@dataclass
class PairTest:
    """One direction of one pair: `winner` scored `score` of `n` against `loser` where the rest of
    the league gives it `p_win` a game; `p` is the uncorrected tail probability."""

    p: float
    loser: str
    winner: str
    p_win: float
    score: float
    n: int
    games: list[Mapping[str, Any]]


def pair_tests(games: Iterable[Mapping[str, Any]], refit_below: float = SCREEN) -> list[PairTest]:
    """Both directions of every pair with enough games outside it, uncorrected; a pair whose
    surprise under the full fit is below `refit_below` is judged by the fit without its games."""
    games = sorted(_scored(games), key=lambda g: (str(g.get("id")), g["seat0"], g["seat1"]))
    by_pair: dict[tuple[str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for g in games:
        by_pair[_pair(g)].append(g)
    played: dict[str, int] = defaultdict(int)
    for g in games:
        played[g["seat0"]] += 1
        played[g["seat1"]] += 1
    ids = sorted(played)
    everything = [(g["seat0"], g["seat1"], g["points"][0], g["points"][1]) for g in games]
    full = ratings(ids, everything)
    tests = []
    for (a, b), own in sorted(by_pair.items()):
        if min(played[a], played[b]) - len(own) < MIN_OTHER_GAMES or a not in full or b not in full:
            continue
        n = len(own)
        score_a = sum(g["points"][0] if g["seat0"] == a else g["points"][1] for g in own)
        # The fit with the pair's own games already absorbs part of a thrown result, so it screens
        # conservatively; only a pair surprising even then is refitted without its games.
        p_full = win_probability(full, a, b)
        screen = min(binomial_tail(n, math.ceil(n - score_a - 1e-9), 1 - p_full),
                     binomial_tail(n, math.ceil(score_a - 1e-9), p_full))
        if screen < refit_below:
            others = [r for r, g in zip(everything, games) if _pair(g) != (a, b)]
            rated = ratings(ids, others)
            if a not in rated or b not in rated:
                continue
            p_a = win_probability(rated, a, b)
        else:
            p_a = p_full
        for loser, winner, p_win, score in ((a, b, 1 - p_a, n - score_a), (b, a, p_a, score_a)):
            tests.append(PairTest(binomial_tail(n, math.ceil(score - 1e-9), p_win), loser, winner, p_win,
                                  score, n, own))
    return tests


def _pair(g: Mapping[str, Any]) -> tuple[str, str]:
    a, b = sorted((g["seat0"], g["seat1"]))
    return a, b


def result_flags(games: Iterable[Mapping[str, Any]], alpha: float = ALPHA) -> list[Flag]:
    """Pairs whose results against each other the rest of the league makes very unlikely."""
    candidates = pair_tests(games)
    tests = max(len(candidates), 1)
    flags = []
    for t in candidates:
        p = min(1.0, t.p * tests)
        if p < alpha and t.score / t.n > t.p_win:
            replayed = sum(g.get("round") == REPLAY_ROUND for g in t.games)
            extra = f", {replayed} of them replayed because the first were improbable" if replayed else ""
            flags.append(Flag("results", t.loser, t.winner, p,
                              f"{t.winner} scored {t.score:g} of {t.n} against {t.loser}{extra}, where their other "
                              f"games give {t.winner} a {t.p_win:.0%} chance a game (p = {p:.2g} after correcting "
                              f"for {tests} tests).", [g["id"] for g in t.games]))
    return flags


def replay_pairs(games: list[dict], players: Iterable[str], settings: ReplaySettings) -> list[tuple[str, str]]:
    """The pairs (both in `players`) that should play one more twin: suspicious at the screening
    level, not yet decided by the corrected test, under `max_games`."""
    allowed = set(players)
    candidates = pair_tests(games, max(SCREEN, settings.screen))
    tests = max(len(candidates), 1)
    out: set[tuple[str, str]] = set()
    for t in candidates:
        if t.loser in allowed and t.winner in allowed and t.n < settings.max_games \
                and t.score / t.n > t.p_win and t.p < settings.screen and t.p * tests >= settings.alpha:
            out.add((min(t.loser, t.winner), max(t.loser, t.winner)))
    return sorted(out)


def replay_suspicious(games: list[dict], players: Iterable[str], settings: ReplaySettings,
                      play: Callable[[list[tuple[str, str]]], list[dict]]) -> tuple[list[dict], int]:
    """Replay suspicious pairs until none is left undecided. `play(pairs)` plays (or finds stored)
    one more seat-swapped twin for each pair and returns every game of the league so far. Each
    wave is a pure function of the games, so a re-run asks for the same games in the same waves.
    Returns (every game, waves played); at most max_games / 2 waves, even if games go missing."""
    players = sorted(set(players))
    waves = 0
    while settings.replay and waves < math.ceil(settings.max_games / 2):
        pairs = replay_pairs(games, players, settings)
        if not pairs:
            break
        games = play(pairs)
        waves += 1
    return games, waves


def blunder_counts(games: Iterable[Mapping[str, Any]], game, blunder,
                   known: dict | None = None) -> dict[tuple[str, str], list[int]]:
    """{(player, opponent): [obviously losing moves, moves the ruleset could judge]}. `known`: {game
    id: [seat 0's, seat 1's [blunders, judged]]} of games counted before, read and filled in (a
    game's id holds both submissions' content, so a re-run replays only new games)."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        seats = (g["seat0"], g["seat1"])
        if seats[0] == seats[1]:
            continue
        if known is not None and g["id"] in known:
            for seat, (b, m) in enumerate(known[g["id"]]):
                counts[seats[seat], seats[1 - seat]][0] += b
                counts[seats[seat], seats[1 - seat]][1] += m
            continue
        before = [list(counts[seats[0], seats[1]]), list(counts[seats[1], seats[0]])]
        try:
            state = game.new_state(g["seed"])
            for wire in g.get("moves", []):
                seat = state.to_move
                move = state.parse_move(wire)
                verdict = blunder(state, move) if seat is not None else None
                if verdict is not None:
                    cell = counts[seats[seat], seats[1 - seat]]
                    cell[0] += bool(verdict)
                    cell[1] += 1
                state.play(move)
        except Exception:               # a stored game the current engine cannot replay: judge what was read
            pass
        if known is not None:
            known[g["id"]] = [[counts[seats[s], seats[1 - s]][k] - before[s][k] for k in (0, 1)] for s in (0, 1)]
    return counts


def move_flags(counts: dict[tuple[str, str], list[int]], games: Iterable[Mapping[str, Any]],
               alpha: float = ALPHA) -> list[Flag]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (player, _), (b, m) in counts.items():
        totals[player][0] += b
        totals[player][1] += m
    candidates = []
    for (player, opponent), (b1, m1) in sorted(counts.items()):
        b0, m0 = totals[player][0] - b1, totals[player][1] - m1
        if m1 < MIN_MOVES or m0 < MIN_OTHER_MOVES:
            continue
        candidates.append((fisher_greater(b1, m1, b0, m0), player, opponent, b1, m1, b0, m0))
    tests = max(len(candidates), 1)
    flags = []
    for p, player, opponent, b1, m1, b0, m0 in candidates:
        if p * tests < alpha and b1 / m1 - b0 / m0 >= MIN_RATE_GAP:
            ids = [g["id"] for g in games if {g["seat0"], g["seat1"]} == {player, opponent}]
            flags.append(Flag("moves", player, opponent, min(1.0, p * tests),
                              f"{player} made an obviously losing move in {b1} of {m1} judged moves against "
                              f"{opponent}, but in {b0} of {m0} against everyone else (p = {min(1.0, p * tests):.2g} "
                              f"after correcting for {tests} tests).", ids))
    return flags


def find_collusion(games: Iterable[Mapping[str, Any]], game=None, blunder=None, alpha: float = ALPHA,
                   known: dict | None = None) -> list[Flag]:
    """Every flag of a league's games (results.json's `games`), most significant first. `known`:
    the per-game move counts of an earlier run (see blunder_counts), read and filled in."""
    flags = result_flags(games, alpha)
    if blunder is not None and game is not None:
        flags += move_flags(blunder_counts(games, game, blunder, known), games, alpha)
    return sorted(flags, key=lambda f: (f.p_value, f.player, f.beneficiary))
