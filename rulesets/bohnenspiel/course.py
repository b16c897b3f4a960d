"""The course package `bohnenspiel` as students import it: a Python port of the 2017 Java skeleton.

The shim registers this module as ``sys.modules["bohnenspiel"]``, so a student writes::

    from bohnenspiel import BohnenspielBoardState, BohnenspielMove, BohnenspielPlayer

The Java package's sample players come too (`RandomBohnenspielPlayer`, `GreedyBohnenspielPlayer`,
for roll-outs and tests), and `boardgame.Server`'s limits (`DEFAULT_TIMEOUT`, `FIRST_MOVE_TIMEOUT`).

Names are the Java ones in snake_case (``get_legal_moves``), each with its camelCase alias
(``getLegalMoves``). `BohnenspielBoardState` is the course's board: plain data and the rules, as
the Java class had them, so students simulate with `clone()` and `move()`. It is the grader's
own port, separate from the referee (engine.py), which never enters the player's process; the
tests check that both agree on every move of many games.
"""
from __future__ import annotations

import enum
import random as _random

from rulesets.base import IllegalMove

from .moves import DEFAULT_MAX_TURNS, PITS, SKIP, SKIPS, START_BEANS, parse_wire, settle_end, sow

_DEFAULT_ID = -1          # the Java "player_id not set"
_rng = _random.Random()


class MoveType(enum.Enum):
    PIT = "PIT"
    SKIP = "SKIP"
    NOTHING = "NOTHING"


class BohnenspielMove:
    """A move: play a pit, skip, or the degenerate NOTHING (never legal).

    BohnenspielMove(pit) / BohnenspielMove(pit, player_id): play `pit` (0..5);
    BohnenspielMove("skip", player_id): a skip (any string with a player id makes a skip, as in Java);
    BohnenspielMove("PIT 0 3"): parse the transport string; BohnenspielMove(): NOTHING.
    """

    MoveType = MoveType
    _UNSET = object()

    def __init__(self, pit_or_text=None, player_id=_UNSET):
        self.pit = 0
        self.player_id = _DEFAULT_ID if player_id is BohnenspielMove._UNSET else int(player_id)
        if pit_or_text is None:
            self.move_type = MoveType.NOTHING
        elif isinstance(pit_or_text, str) and player_id is not BohnenspielMove._UNSET:
            self.move_type = MoveType.SKIP
        elif isinstance(pit_or_text, str):
            self._parse(pit_or_text)
        elif isinstance(pit_or_text, int) and not isinstance(pit_or_text, bool):
            self.move_type, self.pit = MoveType.PIT, pit_or_text
        else:
            raise ValueError(f"BohnenspielMove({pit_or_text!r}) is not a move: give a pit number, "
                             f"\"skip\" and a player id, or a transport string.")

    def _parse(self, text: str) -> None:
        words = text.split()
        if words and words[0].upper() == "NOTHING":
            self.move_type = MoveType.NOTHING
            if len(words) > 1 and words[1].lstrip("-").isdigit():
                self.player_id = int(words[1])
            return
        try:
            move, player = parse_wire(text)
        except IllegalMove as exc:
            raise ValueError(str(exc)) from None
        self.player_id = _DEFAULT_ID if player is None else player
        if move == SKIP:
            self.move_type = MoveType.SKIP
        else:
            self.move_type, self.pit = MoveType.PIT, move[1]

    @classmethod
    def from_transport(cls, text: str) -> BohnenspielMove:
        return cls(str(text))

    # ---- accessors ---------------------------------------------------------------------------
    def get_move_type(self) -> MoveType:  # type: ignore[valid-type]  # the class alias, as the course nests it
        return self.move_type

    def get_pit(self) -> int:
        return self.pit

    def get_player_id(self) -> int:
        return self.player_id

    def set_player_id(self, player_id: int) -> None:
        self.player_id = int(player_id)

    def canonical(self):
        """The engine's form: ("pit", i), ("skip",), or None for NOTHING."""
        if self.move_type is MoveType.PIT:
            return ("pit", self.pit)
        return SKIP if self.move_type is MoveType.SKIP else None

    def to_transport_string(self) -> str:
        if self.move_type is MoveType.PIT:
            return f"PIT {self.player_id} {self.pit}"
        return f"{self.move_type.value} {self.player_id}"

    def to_pretty_string(self) -> str:
        if self.move_type is MoveType.PIT:
            return f"Player {self.player_id} plays pit {self.pit}"
        if self.move_type is MoveType.SKIP:
            return f"Player {self.player_id} skips turn."
        return f"Player {self.player_id} ends turn."

    def to_json(self) -> dict:
        return {"move_type": self.move_type.value, "player_id": self.player_id, "pit": self.pit}

    getMoveType = get_move_type
    getPit = get_pit
    getPlayerID = get_player_id
    setPlayerID = set_player_id
    toTransportable = to_transport_string
    toPrettyString = to_pretty_string

    def __eq__(self, other) -> bool:
        return (isinstance(other, BohnenspielMove) and self.move_type == other.move_type
                and self.player_id == other.player_id
                and (self.move_type is not MoveType.PIT or self.pit == other.pit))

    def __hash__(self) -> int:
        return hash((self.move_type, self.player_id, self.pit if self.move_type is MoveType.PIT else None))

    def __repr__(self) -> str:
        return f"BohnenspielMove({self.to_transport_string()!r})"

    __str__ = to_pretty_string


class BohnenspielBoardState:
    """A position with the Java board state's methods; `move` changes it, `clone` copies it."""

    BOARD_WIDTH = 3
    MAX_TURN = 200
    MAX_TURN_LENGTH = 200
    DRAW = 2**31 - 1
    NOBODY = DRAW - 1
    CANCELLED0 = DRAW - 2
    CANCELLED1 = DRAW - 3

    def __init__(self, pits=None, scores=(0, 0), credit=(SKIPS, SKIPS), barred=(0, 0), turn_player=0,
                 turn_number=0, max_turns=DEFAULT_MAX_TURNS, end=None):
        self.pits = [list(row) for row in (pits or [[START_BEANS] * PITS] * 2)]
        self.scores = list(scores)
        self.credit = list(credit)             # skips left
        self.barred = list(barred)             # the Java turnsToSkip: 1 = may not skip this turn
        self.turn_player = turn_player
        self.turn_number = turn_number         # grows after each move of player 1
        self.max_turns = max_turns
        self.end = dict(end) if end else None

    @classmethod
    def from_json(cls, data: dict) -> BohnenspielBoardState:
        """The board a player is shown, from the grader's plain position data (State.to_json)."""
        pair = lambda key: [int(x) for x in data[key]]  # noqa: E731
        return cls([[int(x) for x in row] for row in data["pits"]], pair("scores"), pair("credit"),
                   pair("barred"), int(data["turn_player"]), int(data["turn_number"]),
                   int(data.get("max_turns", DEFAULT_MAX_TURNS)), data.get("end"))

    # ---- turn and result -----------------------------------------------------------------------
    def get_turn_player(self) -> int:
        return self.turn_player

    def get_turn_number(self) -> int:
        return self.turn_number

    def get_winner(self) -> int:
        """0 or 1, DRAW, or NOBODY while the game goes on."""
        if self.end is None:
            return self.NOBODY
        a, b = self.scores
        return 0 if a > b else 1 if b > a else self.DRAW

    def game_over(self) -> bool:
        return self.end is not None

    def first_player(self) -> int:
        return 0

    # ---- position ------------------------------------------------------------------------------
    def get_pits(self) -> list[list[int]]:
        """The live 2×6 board, as Java's getPits(): changing it changes this board state."""
        return self.pits

    def get_score(self, player: int) -> int:
        return self.scores[player]

    def get_credit(self, player: int) -> int:
        """Skips `player` has left (2 at the start)."""
        return self.credit[player]

    # ---- moves ---------------------------------------------------------------------------------
    def _moves_of(self, player: int) -> list:
        """`player`'s moves on this board: own non-empty pits ascending, then skip if allowed."""
        moves = [("pit", i) for i in range(PITS) if self.pits[player][i] > 0]
        if self.credit[player] > 0 and not self.barred[player]:
            moves.append(SKIP)
        return moves

    def get_legal_moves(self) -> list[BohnenspielMove]:
        """Pits with beans in ascending order, then skip if allowed; each for the player to move."""
        p = self.turn_player
        if self.end is not None:
            return []
        return [BohnenspielMove(m[1], p) if m != SKIP else BohnenspielMove("skip", p) for m in self._moves_of(p)]

    def is_legal(self, move: BohnenspielMove) -> bool:
        return self._why_illegal(move) is None

    def _why_illegal(self, move) -> str | None:
        if not isinstance(move, BohnenspielMove):
            return f"{move!r} is not a BohnenspielMove."
        canonical = move.canonical()
        if canonical is None:
            return "NOTHING is never a legal move."
        p = self.turn_player
        if move.player_id not in (_DEFAULT_ID, p):
            return f"the move is for player {move.player_id}, but it is player {p}'s turn."
        if self.end is not None:
            return "the game is already over."
        if canonical == SKIP:
            if self.credit[p] <= 0:
                return f"player {p} has used both skips."
            if self.barred[p]:
                return f"player {p} may not skip right after the opponent skipped."
            return None
        if not 0 <= canonical[1] < PITS:
            return f"pit {canonical[1]} does not exist; pits are numbered 0 to 5."
        if self.pits[p][canonical[1]] == 0:
            return f"pit {canonical[1]} of player {p} is empty."
        return None

    def get_random_move(self) -> BohnenspielMove:
        return _rng.choice(self.get_legal_moves())

    def get_next_pit(self, pit: int, direction: str = "CCW") -> int:
        return (pit + (1 if str(direction).upper() == "CCW" else -1)) % PITS

    # ---- simulation ----------------------------------------------------------------------------
    def move(self, move: BohnenspielMove) -> bool:
        """Apply `move` (a move without a player id is taken as the mover's); IllegalMove if illegal."""
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMove(f"Invalid move for current context ({why}) Move: {move!r}")
        p = self.turn_player
        if move.move_type is MoveType.SKIP:
            self.credit[p] -= 1
            self.barred[1 - p] = 1
        else:
            self._sow(p, move.pit)
            self.barred[p] = 0
        if p == 1:
            self.turn_number += 1
        self.turn_player = 1 - p
        self._update_winner()
        return True

    def _sow(self, p: int, start: int) -> None:
        sow(self, p, start)

    def _update_winner(self) -> None:
        settle_end(self, bool(self._moves_of(self.turn_player)))

    def clone(self) -> BohnenspielBoardState:
        return BohnenspielBoardState(self.pits, self.scores, self.credit, self.barred, self.turn_player,
                                     self.turn_number, self.max_turns, self.end)

    def __str__(self) -> str:
        return (f"Bohnenspiel board:\nPlayer 0: {','.join(map(str, self.pits[0]))}\n"
                f"Player 1: {','.join(map(str, self.pits[1]))}\nNext to play: {self.turn_player}\n"
                f"Scores: {self.scores[0]} / {self.scores[1]}\nSkips left: {self.credit[0]} / {self.credit[1]}\n"
                f"Turns played: {self.turn_number}")

    getTurnPlayer = get_turn_player
    getTurnNumber = get_turn_number
    getWinner = get_winner
    gameOver = game_over
    firstPlayer = first_player
    getPits = get_pits
    getScore = get_score
    getCredit = get_credit
    getLegalMoves = get_legal_moves
    isLegal = is_legal
    getRandomMove = get_random_move
    getNextPit = get_next_pit
    toString = __str__


class BohnenspielPlayer:
    """Base class of every player. The constructor only takes the name (the student number)."""

    def __init__(self, name: str = "HusPlayer"):
        self.name = name
        self.player_id = _DEFAULT_ID
        self.opponent_id = _DEFAULT_ID

    def set_color(self, color: int) -> None:
        """Called by the grader before the first move, like the Java server's setColor."""
        self.player_id = color
        self.opponent_id = (color + 1) % 2

    def get_name(self) -> str:
        return self.name

    def choose_move(self, board_state: BohnenspielBoardState) -> BohnenspielMove:
        raise NotImplementedError("StudentPlayer must define choose_move(self, board_state).")

    def chooseMove(self, board_state: BohnenspielBoardState) -> BohnenspielMove:
        return self.choose_move(board_state)

    setColor = set_color
    getName = get_name


class RandomBohnenspielPlayer(BohnenspielPlayer):
    """The course's random player: any legal move, uniformly."""

    def __init__(self, name: str = "RandomPlayer"):
        super().__init__(name)

    def choose_move(self, board_state: BohnenspielBoardState) -> BohnenspielMove:
        return board_state.get_random_move()


class GreedyBohnenspielPlayer(BohnenspielPlayer):
    """The course's greedy player: the legal move after which its own score is highest; ties go to
    the first such move in legal-move order (pits ascending, then skip), as in the Java code."""

    def __init__(self, name: str = "GreedyPlayer"):
        super().__init__(name)

    def choose_move(self, board_state: BohnenspielBoardState) -> BohnenspielMove:
        moves = board_state.get_legal_moves()
        best_move, best_score = moves[0], -1
        for move in moves:
            after = board_state.clone()
            after.move(move)
            score = after.get_score(self.player_id)
            if score > best_score:
                best_move, best_score = move, score
        return best_move


# boardgame.Server's limits, in milliseconds, as the Java code named them
DEFAULT_TIMEOUT = 700
FIRST_MOVE_TIMEOUT = 30_000

__all__ = [
    "DEFAULT_TIMEOUT",
    "FIRST_MOVE_TIMEOUT",
    "BohnenspielBoardState",
    "BohnenspielMove",
    "BohnenspielPlayer",
    "GreedyBohnenspielPlayer",
    "MoveType",
    "RandomBohnenspielPlayer",
]
