"""Correctness stages of a Double Card submission, played as short scripted games.

A Double Card ``Player`` keeps its own board and can only be told the opponent's moves, so a probe
cannot hand it a position: each case starts a fresh player and plays a game against the scripted
opponent of `scripted.py`, which runs here, in the grader (the player's process holds no engine).
The case's calls are exactly a game's (grader/match.py): one ``setup`` and then one ``move`` per
turn of the player, with the position and the opponent's moves since its last turn (``state``,
``last``), so a player that walks its call frames sees a game. Their arguments are made from the
replies so far: the grader replays the exchange from the player's answers and plays the scripted
opponent's move; once the game is over (a win, or an illegal answer, which a game forfeits) no
further call is made. `check` is given every reply of the case (``ProbeCase.judge_all``) and
replays the whole exchange (the scripted opponent is deterministic given the policy, the seed and
the position), so nothing the player's process reports about the board is trusted. Every answer
must be legal when it was given; the tactics cases also judge the last answer.

Stages:
- ``legal_moves`` (required, 1 point): games run to several lengths, with the player first or
  second, up to a few moves past card 24 (the recycling phase, the locked card, resting cards).
  The scripted opponent keeps the game quiet, but a player can still end it early (a fork, or a
  line of the opponent's kind); the case then checks the moves made until the end.
- ``tactics`` (informational): the opponent leaves a win in one (the player should take it) or
  makes a threat of its own (the player should block it).
"""
from __future__ import annotations

from rulesets.base import Mismatch, Probe, ProbeCase

from . import board as B
from .engine import DoubleCardGame, DoubleCardState
from .scripted import Exchange, winning_moves

# (label, seat of the player under test, turns it answers, seed offset). Each phase from both seats
# where it matters: the first move, the middle game, the first recycling move, the recycling phase.
# Games of one seat and seed are each the start of the longest of them: one line, played once
# (ProbeCase.line), so each turn of the player's own thinking is paid once. The second seat's first
# answer is also asked after an opening of its own seed: one turn more, one more opening drawn.
LEGAL_GAMES = [
    ("first move on the empty board", 0, 1, 9),
    ("answering the opening move", 1, 1, 1),
    ("middle game", 0, 9, 9),
    ("middle game", 1, 9, 8),
    ("a game run to the first recycling move", 0, 13, 9),
    ("a game run into the recycling phase", 1, 16, 8),
    ("a game run into the recycling phase", 0, 16, 9),
]
# (label, seat, quiet turns before the tactical one, the scripted opponent's policy on it, seed offset)
TACTICS = [("takes a win in one", 0, 2, "gift", 0), ("takes a win in one", 1, 3, "gift", 1),
           ("blocks the opponent's win in one", 0, 3, "threat", 4),
           ("blocks the opponent's win in one", 1, 3, "threat", 5)]


def replay(game: DoubleCardGame, seat: int, policies: list[str], seed: int, answers: list) -> tuple[Exchange, list]:
    """The exchange of `len(policies)` turns as it was played, rebuilt from the answers alone; also
    the position before each answer (for judging the last one). Missing answers end it."""
    exchange = Exchange(game.new_state(0), seat)
    before: list[DoubleCardState] = []
    answers = list(answers)
    for policy in policies:
        exchange.opponent_turn(policy, seed)
        if not exchange.wants_answer():
            continue
        before.append(exchange.state.copy())
        exchange.answer(answers.pop(0) if answers else
                        {"invalid": "the player's process reported fewer answers than it was asked for."})
    return exchange, before


def _answers(replies: list) -> list:
    """The player's answers so far: the replies to the case's `move` calls (after `setup`'s)."""
    return list(replies[1:])


def _turn(game: DoubleCardGame, seat: int, policies: list[str], seed: int, k: int):
    """The arguments of the player's k-th `move` call, made from the replies before it, as a game
    makes them: the position and the scripted opponent's move since the player's last turn. None
    when the game ended before that turn (no call is made, as in a game)."""
    def args(replies: list) -> dict | None:
        exchange, _ = replay(game, seat, policies[:k], seed, _answers(replies))
        told = exchange.opponent_turn(policies[k], seed)
        if not exchange.wants_answer():
            return None
        return {"state": exchange.state.to_json(),
                "last": [] if told is None else [{"seat": 1 - seat, "move": told}]}
    return args


def _setup(game: DoubleCardGame, seat: int) -> tuple[str, dict]:
    return "setup", {"seat": seat, "state": game.new_state(0).to_json(), "name": "probe", "options": {}}


def _case(game: DoubleCardGame, label: str, seat: int, policies: list[str], seed: int, judge=None,
          line: str | None = None) -> ProbeCase:
    """A fresh player, `len(policies)` turns against the scripted opponent, every answer legal;
    `judge(position_before, answer)` may also return a sentence about the last answer."""
    shown = game.new_state(0)     # the picture: check() rebuilds the reached position in it

    def check(replies) -> Mismatch | None:
        if not isinstance(replies, list):
            return Mismatch(f"the probe's calls answered {replies!r:.60} instead of the player's moves.")
        exchange, before = replay(game, seat, policies, seed, _answers(replies))
        _show(shown, exchange.state)
        if exchange.refusal is not None:
            bad = exchange.answers[-1]
            if not isinstance(bad, str):
                return Mismatch(f"after the moves {_upto(before[-1])}: {exchange.refusal}")
            return Mismatch(f"after the moves {_upto(before[-1])} the player answered {bad!r}, which is "
                            f"illegal: {exchange.refusal}", {"illegal": [bad]})
        if judge is not None and len(exchange.answers) == len(policies):
            sentence = judge(before[-1], exchange.answers[-1])
            if sentence:
                _show(shown, before[-1])
                return Mismatch(f"after the moves {_upto(before[-1])}, {sentence}",
                                {"chosen": [exchange.answers[-1]]})
        return None

    where = "first" if seat == 0 else "second"
    turns = [_turn(game, seat, policies, seed, k) for k in range(len(policies))]
    setup = [_setup(game, seat)] + [("move", args) for args in turns[:-1]]
    return ProbeCase(label=f"{label} (playing {game.role(seat)}, moving {where}, {len(policies)} turn(s))",
                     state=shown, method="move", args=turns[-1], check=check, fresh=True, setup=setup,
                     judge_all=True, line=line)


def _upto(state: DoubleCardState) -> str:
    return ", ".join(state.history) if state.history else "(none: the board was empty)"


def _show(target: DoubleCardState, source: DoubleCardState) -> None:
    """Make the case's picture show `source` (the validator renders case.state after check)."""
    target.__dict__.update(source.copy().__dict__)


def legal_move_cases(game: DoubleCardGame, seed: int) -> list[ProbeCase]:
    """`seed`: the check's (it varies per run), so the scripted opponent's moves do not tell a check
    from a game either."""
    return [_case(game, label, seat, ["guard"] * turns, seed + k, line=f"seat {seat}, seed {k}")
            for label, seat, turns, k in LEGAL_GAMES]


def takes_the_win(position: DoubleCardState, answer: str) -> str | None:
    mover = position.to_move
    assert mover is not None                   # probe positions are games still going on
    wins = winning_moves(position, mover)
    if not wins or B.parse_text(answer) in wins:
        return None
    return (f"the player could win at once with {B.move_text(wins[0])} but played {answer!r}.")


def blocks_the_threat(position: DoubleCardState, answer: str) -> str | None:
    me = position.to_move
    assert me is not None                      # probe positions are games still going on
    if winning_moves(position, me):
        return takes_the_win(position, answer)
    after = position.copy()
    after.play(answer)
    if after.is_over or not winning_moves(after, 1 - me):
        return None
    threat = winning_moves(after, 1 - me)[0]
    blocking = [m for m in position.internal_moves() if _blocks(position, m, me)]
    if not blocking:
        return None
    return (f"the opponent threatens to win with {B.move_text(threat)}; {B.move_text(blocking[0])} "
            f"would have stopped it, but the player played {answer!r}.")


def _blocks(position: DoubleCardState, move: tuple, me: int) -> bool:
    after = position.copy()
    after._apply(move)
    if after.outcome is not None:
        return after.outcome.winner == me
    return not winning_moves(after, 1 - me)


def tactics_cases(game: DoubleCardGame, seed: int) -> list[ProbeCase]:
    judges = {"gift": takes_the_win, "threat": blocks_the_threat}
    return [_case(game, label, seat, ["guard"] * quiet + [policy], seed + 100 + k, judges[policy])
            for label, seat, quiet, policy, k in TACTICS]


def probes(game: DoubleCardGame) -> list[Probe]:
    return [Probe(name="legal_moves", title="Legal moves in scripted games", points=1.0,
                  cases=legal_move_cases, required=True, scoring="all"),
            Probe(name="tactics", title="Wins in one taken, threats blocked", points=0.0,
                  cases=tactics_cases, required=False, scoring="share", informational=True)]

