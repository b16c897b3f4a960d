"""The probes' scripted opponent and the exchange it plays with a student's player.

A Double Card player keeps its own board and only hears the opponent's moves, so the probes
cannot hand it a position: they play one. The scripted opponent answers adaptively (a fixed
list of moves could become illegal after the player's own answers) but deterministically: its
move depends only on the policy, the case's seed and the position. It runs in the grader, never
in the player's process: before each turn the grader replays the exchange from the player's
answers so far and sends the opponent's move as text (probes.py).

Policies:
- "guard": the quietest of a seeded sample of moves: one that neither ends the game nor lets the
  player win at once, and leaves it the fewest replies that end the game (even by losing), so
  games run on into the recycling phase whatever the player answers (nearly always);
- "gift": the move that leaves the player the most winning moves (tests taking a win);
- "threat": the move that leaves the opponent itself a winning move next turn, preferably on
  one cell only, so the player can block it (tests blocking).
"""
from __future__ import annotations

import random

from rulesets.base import IllegalMove

from . import board as B
from .engine import DoubleCardState

POLICIES = ("guard", "gift", "threat")
GUARD_SAMPLE = 64           # how many (shuffled) candidate moves the guard compares
LINES = B.lines()


def _rng(seed: int, state: DoubleCardState) -> random.Random:
    return random.Random(f"{seed}|{'/'.join(state.history)}")


def winning_moves(state: DoubleCardState, seat: int) -> list[tuple]:
    """Moves with which `seat` wins at once; `seat` must be the player to move."""
    return [m for m in state.internal_moves() if state.winner_if(m) == seat]


def can_win_next(state: DoubleCardState, seat: int) -> bool:
    """Whether `seat` (to move in `state`) has a move that wins at once."""
    return any(state.winner_if(m) == seat for m in state.internal_moves())


def safe_after(state: DoubleCardState, move: tuple) -> bool:
    """After the mover plays `move`, the opponent cannot win (by this move or its next one)."""
    mover = state.to_move
    assert mover is not None                       # only asked while the game goes on
    branch = state.copy()
    branch._apply(move)
    out = branch.outcome
    if out is not None:
        return out.winner != 1 - mover
    return not can_win_next(branch, 1 - mover)


def potential(state: DoubleCardState, role: str) -> int:
    """How promising the board is for `role`: windows of 4 holding only one value of its kind."""
    values = state.colour if role == "colours" else state.dot
    score = 0
    for window in LINES:
        seen = None
        count = 0
        for cell in window:
            v = values[cell]
            if v is None:
                continue
            if seen is None:
                seen = v
            elif v != seen:
                count = -1
                break
            count += 1
        if count > 0:
            score += 4 ** count
    return score


def _quiet(state: DoubleCardState) -> list[tuple]:
    moves = state.internal_moves()
    return [m for m in moves if state.winner_if(m) is None] or list(moves)


_remembered: dict[tuple, tuple] = {}     # (params, policy, seed, history) -> move; see opponent_move


def opponent_move(state: DoubleCardState, policy: str, seed: int) -> tuple:
    """The scripted opponent's internal move in `state` (it is the player to move).

    Remembered per position: a case replayed in the same process (the tests run shim and
    check in one) costs nothing the second time."""
    key = (tuple(sorted(state.game.params.items())), policy, seed, tuple(state.history))
    if key not in _remembered:
        if len(_remembered) > 4096:
            _remembered.clear()
        _remembered[key] = _choose(state, policy, seed)
    return _remembered[key]


def _choose(state: DoubleCardState, policy: str, seed: int) -> tuple:
    rng = _rng(seed, state)
    me = state.to_move
    assert me is not None                          # only asked while the game goes on
    candidates = _quiet(state)
    rng.shuffle(candidates)
    if policy == "gift" and not state.recycling:
        return max(candidates, key=lambda m: _gift_score(state, m, 1 - me))
    if policy == "threat" and not state.recycling:
        return max(candidates, key=lambda m: _threat_score(state, m, me))
    return _quietest(state, candidates[:GUARD_SAMPLE], me)


def _quietest(state: DoubleCardState, candidates: list[tuple], me: int) -> tuple:
    """The candidate leaving the player the fewest winning replies, then the fewest replies that
    end the game at all (a line of my kind made by the player), then the least promising board
    for both kinds (only computed among the ties)."""
    scored = []
    best = None
    for move in candidates:
        branch = state.copy()
        branch._apply(move)
        wins = ends = 0
        for reply in branch.internal_moves():
            winner = branch.winner_if(reply)
            if winner is not None:
                ends += 1
                wins += winner != me
                if best is not None and (wins, ends) > best:
                    break               # already worse than the best: its exact count cannot matter
        else:
            best = (wins, ends) if best is None else min(best, (wins, ends))
            scored.append(((wins, ends), move, branch))
    best = min(score for score, _, _ in scored)
    ties = [(move, branch) for score, move, branch in scored if score == best]
    return min(ties, key=lambda t: potential(t[1], "colours") + potential(t[1], "dots"))[0]


def _gift_score(state: DoubleCardState, move: tuple, player: int) -> tuple:
    branch = state.copy()
    branch._apply(move)
    if branch.outcome is not None:
        return (-1, 0)
    return (len(winning_moves(branch, player)), potential(branch, state.role(player)))


def _threat_score(state: DoubleCardState, move: tuple, me: int) -> tuple:
    branch = state.copy()
    branch._apply(move)
    if branch.outcome is not None:
        return (-1, 0, 0)
    if can_win_next(branch, 1 - me):
        return (-1, 0, 0)           # never hand the player a win: the test is about blocking
    branch.ply += 1                 # as if it were my turn again: what would win for me?
    branch._legal = None
    wins = winning_moves(branch, me)
    cells = {m[2] for m in wins}
    return (1 if wins else 0, -len(cells), potential(branch, state.role(me)))


class Exchange:
    """The shim's side of one probe case: the mirror board, the opponent, the answers so far."""

    def __init__(self, start: DoubleCardState, seat: int):
        self.state = start
        self.seat = seat
        self.answers: list = []
        self.refusal: str | None = None     # why the last answer was refused, if it was
        self.done = False

    def opponent_turn(self, policy: str, seed: int) -> str | None:
        """Play the scripted opponent's move if it is its turn; the move's text, or None."""
        if self.done or self.state.to_move != 1 - self.seat:
            return None
        move = opponent_move(self.state, policy, seed)
        self.state._apply(move)
        self.done = self.state.is_over
        return B.move_text(move)

    def wants_answer(self) -> bool:
        return not self.done and self.state.to_move == self.seat

    def answer(self, answer) -> None:
        """Record the player's answer and play it; an illegal one ends the exchange."""
        self.answers.append(answer)
        try:
            self.state.play(answer)
        except IllegalMove as exc:
            self.refusal = str(exc)
            self.done = True
        self.done = self.done or self.state.is_over
