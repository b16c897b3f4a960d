"""A student's agent that reads a table from its data/ folder, as the course allows on the first move.

It also re-reads the table on its fourth move, which the course forbids ("files may be read only
during the initialization turn"). The grader's sandbox makes data/ unreadable after the first
reply, so that read fails; the player then raises, and the grader reports the error (and, under
the course's policy, the game is lost). Outside the sandbox both reads succeed.
"""
import os

from bohnenspiel import BohnenspielMove, BohnenspielPlayer

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "pit_weights.csv")
REREAD_ON_MOVE = 4


def read_weights():
    """pit -> weight from data/pit_weights.csv."""
    weights = {}
    with open(TABLE, encoding="utf-8") as f:
        next(f)
        for line in f:
            pit, weight = line.strip().split(",")
            weights[int(pit)] = float(weight)
    return weights


class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("260000002")

    def choose_move(self, board_state):
        self.moves_made = getattr(self, "moves_made", 0) + 1
        if self.moves_made == 1:
            self.weights = read_weights()
        elif self.moves_made == REREAD_ON_MOVE:
            try:
                self.weights = read_weights()
            except OSError as exc:
                raise RuntimeError(f"data/pit_weights.csv could not be read again on move {self.moves_made}: "
                                   f"{exc.strerror or exc}") from exc
        best_move, best_value = None, None
        for move in board_state.get_legal_moves():
            after = board_state.clone()
            after.move(move)
            gained = after.get_score(self.player_id) - board_state.get_score(self.player_id)
            is_pit = move.get_move_type() == BohnenspielMove.MoveType.PIT
            value = gained + (self.weights.get(move.get_pit(), 0.0) if is_pit else 0.0)
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        return best_move
