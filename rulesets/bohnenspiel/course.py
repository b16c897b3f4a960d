"""The course package `bohnenspiel` as students import it: a Python port of the 2017 Java skeleton.

The shim registers this module as ``sys.modules["bohnenspiel"]``, so a student writes::

    from bohnenspiel import BohnenspielBoardState, BohnenspielMove, BohnenspielPlayer

Names are the Java ones in snake_case (``get_legal_moves``), each with its camelCase alias
(``getLegalMoves``). `BohnenspielBoardState` wraps a full copy of the grader's engine state, so
simulation with `clone()` and `move()` follows exactly the rules the referee applies.
"""
from __future__ import annotations

import enum
import random as _random

from rulesets.base import IllegalMove

from .engine import PITS, SKIP, BohnenspielGame, BohnenspielState, parse_wire

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
    def from_transport(cls, text: str) -> "BohnenspielMove":
        return cls(str(text))

    # ---- accessors ---------------------------------------------------------------------------
    def get_move_type(self) -> MoveType:
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

    def __init__(self, state: BohnenspielState | None = None):
        self._state = state if state is not None else BohnenspielGame().new_state(0)

    @classmethod
    def from_json(cls, data: dict) -> "BohnenspielBoardState":
        """The board a player is shown: the grader's State.to_json, rebuilt with its turn cap."""
        return cls(BohnenspielGame().state_from_json(data))

    # ---- turn and result -----------------------------------------------------------------------
    def get_turn_player(self) -> int:
        return self._state.turn_player

    def get_turn_number(self) -> int:
        return self._state.turn_number

    def get_winner(self) -> int:
        """0 or 1, DRAW, or NOBODY while the game goes on."""
        out = self._state.outcome
        if out is None:
            return self.NOBODY
        return self.DRAW if out.winner is None else out.winner

    def game_over(self) -> bool:
        return self._state.end is not None

    def first_player(self) -> int:
        return 0

    # ---- position ------------------------------------------------------------------------------
    def get_pits(self) -> list[list[int]]:
        """The live 2×6 board, as Java's getPits(): changing it changes this board state."""
        return self._state.pits

    def get_score(self, player: int) -> int:
        return self._state.scores[player]

    def get_credit(self, player: int) -> int:
        """Skips `player` has left (2 at the start)."""
        return self._state.credit[player]

    # ---- moves ---------------------------------------------------------------------------------
    def get_legal_moves(self) -> list[BohnenspielMove]:
        """Pits with beans in ascending order, then skip if allowed; each for the player to move."""
        p = self._state.turn_player
        return [BohnenspielMove(m[1], p) if m != SKIP else BohnenspielMove("skip", p)
                for m in self._state.legal_moves()]

    def is_legal(self, move: BohnenspielMove) -> bool:
        return self._why_illegal(move) is None

    def _why_illegal(self, move) -> str | None:
        if not isinstance(move, BohnenspielMove):
            return f"{move!r} is not a BohnenspielMove."
        canonical = move.canonical()
        if canonical is None:
            return "NOTHING is never a legal move."
        if move.player_id not in (_DEFAULT_ID, self._state.turn_player):
            return f"the move is for player {move.player_id}, but it is player {self._state.turn_player}'s turn."
        return self._state.why_illegal(canonical)

    def get_random_move(self) -> BohnenspielMove:
        return _rng.choice(self.get_legal_moves())

    def get_next_pit(self, pit: int, direction: str = "CCW") -> int:
        return (pit + (1 if str(direction).upper() == "CCW" else -1)) % PITS

    # ---- simulation ----------------------------------------------------------------------------
    def move(self, move: BohnenspielMove) -> bool:
        """Apply `move` (a move without a player id is taken as the mover's); ValueError if illegal."""
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMove(f"Invalid move for current context ({why}) Move: {move!r}")
        self._state.play(move.canonical())
        return True

    def clone(self) -> "BohnenspielBoardState":
        return BohnenspielBoardState(self._state.copy())

    def __str__(self) -> str:
        s = self._state
        return (f"Bohnenspiel board:\nPlayer 0: {','.join(map(str, s.pits[0]))}\n"
                f"Player 1: {','.join(map(str, s.pits[1]))}\nNext to play: {s.turn_player}\n"
                f"Scores: {s.scores[0]} / {s.scores[1]}\nSkips left: {s.credit[0]} / {s.credit[1]}\n"
                f"Turns played: {s.turn_number}")

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

    def chooseMove(self, board_state: BohnenspielBoardState) -> BohnenspielMove:  # noqa: N802
        return self.choose_move(board_state)

    setColor = set_color
    getName = get_name


__all__ = ["BohnenspielBoardState", "BohnenspielMove", "BohnenspielPlayer", "MoveType"]
