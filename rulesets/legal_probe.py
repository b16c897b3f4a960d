"""The probe every game can have with no code of its own: "the player returns a legal move", asked
as a game asks it (one player instance per game, one seat's turns in order, each with the moves a
game would have told it), from the engine's `new_state`, `random_move`, `parse_move` and
`why_illegal`. A ruleset may keep its own sentences (`check`) and labels (`label`) and add worked
examples; Bohnenspiel and Colosseum build theirs from `turn_case`, a new game's `probes` can be
`legal_move_probes` as it is (docs/NEW_GAME.md)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rulesets.base import Game, IllegalMove, Mismatch, Probe, ProbeCase, State, Told, played_turns
from rulesets.values import short_repr

RANDOM_POSITIONS = 24
TURNS_PER_GAME = 3                   # one seat's consecutive turns asked in each random game

Check = Callable[[Any], Callable[..., Mismatch | None]]     # Any: the game's own State subclass


def legal_move_check(state: State, not_a_move: Callable[[Any, IllegalMove], Mismatch] | None = None,
                     illegal: Callable[[Any, str], Mismatch] | None = None) -> Callable[..., Mismatch | None]:
    """A check(reply) that accepts any legal move of `state` and says why anything else is not: with
    the game's own sentences where it gives them (`not_a_move(reply, exc)`, `illegal(move, why)`)."""
    def check(reply) -> Mismatch | None:
        try:
            move = state.parse_move(reply)
        except IllegalMove as exc:
            if not_a_move is not None:
                return not_a_move(reply, exc)
            return Mismatch(f"the player answered {short_repr(reply)}, which is not a move: {exc}")
        why = state.why_illegal(move)
        if why is None:
            return None
        if illegal is not None:
            return illegal(move, why)
        return Mismatch(f"the player chose {state.move_text(move)}, which is illegal: {why}", {"illegal": [move]})
    return check


def turn_case(label: str, state: State, game: str, told: Told, check: Callable[..., Mismatch | None]) -> ProbeCase:
    """One turn asked of the instance playing game `game`, after the moves it is `told` of."""
    data = state.to_json()
    return ProbeCase(label=label, state=state, method="move", args={"state": data, "last": told}, check=check,
                     setup=[("setup", {"seat": state.to_move, "state": data, "name": "probe", "options": {}})],
                     reuse=True, game=game)


def legal_move_cases(game: Game, seed: int, examples: Mapping[str, State] | None = None, check: Check = legal_move_check,
                     label: Callable[[str, State], str] = lambda text, state: text,
                     count: int = RANDOM_POSITIONS, turns: int = TURNS_PER_GAME) -> list[ProbeCase]:
    """The worked `examples` (a game of one turn each), then `count` turns of random games drawn from
    `seed` (the check's own), `turns` consecutive turns of one seat a game."""
    cases = [turn_case(label(name, state), state, name, [], check(state)) for name, state in (examples or {}).items()]
    for g, played in enumerate(played_turns(game, seed, count, turns)):
        for k, (state, told) in enumerate(played):
            cases.append(turn_case(label(f"random game {g + 1}, turn {k + 1} (ply {state.ply})", state), state,
                                   f"random game {g + 1}", told, check(state)))
    return cases


def legal_move_probes(game: Game) -> list[Probe]:
    """The one stage a game gets for free: a legal move in every position asked, or no league."""
    return [Probe(name="legal_moves", title="Returns a legal move in given positions", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all", turn_check=legal_move_check)]
