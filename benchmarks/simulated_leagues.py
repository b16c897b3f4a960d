"""Leagues played by simple simulated players, for the collusion check's tests and its false-flag
benchmark: honest players of mixed strength, and optionally one player who throws its games
against one partner by walking away from its goal.

Quoridor on a 7x7 board with random initial walls; pawns only step (the blunder check judges steps).
A player of skill s takes a shortest-path step with probability s and a random step otherwise.
"""
from __future__ import annotations

import random

import rulesets
from grader.collusion import REPLAY_ROUND
from grader.schedule import GameSpec, more_games

GAME_PARAMS = {"sizex": 7, "sizey": 7, "max_obstacles": 0, "initial_obstacles": 6, "start": "random"}


def choose(state, rng: random.Random, skill: float, throw: float = 0.0):
    seat = state.to_move
    steps = state.steps(seat)
    if not steps:
        return state.legal_moves()[0]

    def length(s):
        branch = state.copy()
        branch.play(s)
        d = branch.distance(seat)
        return 10**6 if d is None else d

    if throw and rng.random() < throw:
        return max(steps, key=lambda s: (length(s), rng.random()))
    if rng.random() < skill:
        return min(steps, key=lambda s: (length(s), rng.random()))
    return rng.choice(steps)


def play(game, seed: int, players: tuple[str, str], skills: dict[str, float], thrower: tuple[str, str] | None,
         throw: float) -> dict:
    rng = random.Random(seed * 7919 + 1)
    state = game.new_state(seed)
    moves = []
    while state.to_move is not None:
        me, other = players[state.to_move], players[1 - state.to_move]
        t = throw if thrower == (me, other) else 0.0
        move = choose(state, rng, skills[me], t)
        moves.append(state.move_to_json(move))
        state.play(move)
    points = list(state.outcome.points)
    return {"id": f"{players[0]}-{players[1]}-{seed}", "seat0": players[0], "seat1": players[1], "seed": seed,
            "points": points, "moves": moves}


def league(n_players: int = 8, games_per_pair: int = 4, seed: int = 0, thrower: tuple[str, str] | None = None,
           throw: float = 0.6) -> tuple[list[dict], object, object]:
    """(games, game, blunder): a round robin of n players, seat-swapped games, skills spread 0.3..0.95."""
    ruleset = rulesets.load("quoridor")
    game = ruleset.game(**GAME_PARAMS)
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(n_players)]
    skills = {name: 0.3 + 0.65 * i / max(n_players - 1, 1) for i, name in enumerate(names)}
    games = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for g in range(games_per_pair):
                s = rng.randrange(1 << 30)
                seats = (a, b) if g % 2 == 0 else (b, a)
                games.append(play(game, s, seats, skills, thrower, throw))
    return games, game, ruleset.blunder


def bt_league(rng: random.Random, strengths: dict[str, float], games_per_pair: int,
              lose_to: tuple[str, str] | None = None) -> list[dict]:
    """A round robin of Bradley–Terry players of any game (results only, no moves): a wins a game
    against b with probability 1 / (1 + 10^((s_b − s_a)/400)); `lose_to=(thrower, friend)` makes
    the thrower lose every game to its friend."""
    games = []
    names = sorted(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for g in range(games_per_pair):
                p_a = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
                a_wins = rng.random() < p_a
                if lose_to and {a, b} == set(lose_to):
                    a_wins = a == lose_to[1]
                seats = (a, b) if g % 2 == 0 else (b, a)
                points = [1.0, 0.0] if a_wins == (seats[0] == a) else [0.0, 1.0]
                games.append({"id": f"{a}-{b}-{g}", "seat0": seats[0], "seat1": seats[1], "seed": g,
                              "points": points})
    return games


def bt_result(strengths: dict[str, float], spec: GameSpec, lose_to: tuple[str, str] | None = None) -> dict:
    """One Bradley–Terry game as the collusion check reads it, a function of its spec only (so a
    replayed game gives the same result); the thrower of `lose_to` loses every game to its friend."""
    a, b = spec.seat0, spec.seat1
    p_a = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
    a_wins = random.Random(f"{spec.seed}/{spec.game_index}/{spec.pairing}").random() < p_a
    if lose_to and {a, b} == set(lose_to):
        a_wins = a == lose_to[1]
    return {"id": f"{spec.pairing}#{spec.game_index}", "seat0": a, "seat1": b, "seed": spec.seed,
            "game_index": spec.game_index, "round": spec.round, "points": [1.0, 0.0] if a_wins else [0.0, 1.0]}


class SimulatedReplays:
    """`play(pairs)` for grader.collusion.replay_suspicious over simulated players, as the league
    does it: one more twin per pair, numbered on from the games this run scheduled for the pair,
    taken from `store` (game id -> game, kept across runs) when there, else played and stored
    (`played` lists those). `stop_after` games played, it raises KeyboardInterrupt (a kill)."""

    def __init__(self, strengths: dict[str, float], games: list[dict], seed: int,
                 lose_to: tuple[str, str] | None = None, store: dict[str, dict] | None = None,
                 stop_after: int | None = None):
        self.strengths, self.seed, self.lose_to, self.stop_after = strengths, seed, lose_to, stop_after
        self.store = {} if store is None else store
        self.games = list(games)
        self.played: list[str] = []

    def __call__(self, pairs: list[tuple[str, str]]) -> list[dict]:
        for a, b in pairs:
            had = sum({g["seat0"], g["seat1"]} == {a, b} for g in self.games)
            for spec in more_games(a, b, had, 2, self.seed, REPLAY_ROUND):
                game = bt_result(self.strengths, spec, self.lose_to)
                if game["id"] not in self.store:
                    if self.stop_after is not None and len(self.played) >= self.stop_after:
                        raise KeyboardInterrupt
                    self.store[game["id"]] = game
                    self.played.append(game["id"])
                self.games = self.games + [self.store[game["id"]]]
        return self.games
