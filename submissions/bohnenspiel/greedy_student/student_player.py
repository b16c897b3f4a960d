"""A student's greedy agent: the move that gains the most beans over the opponent right now.

Looks one move ahead on a clone of the board and keeps the move with the best score difference;
skips only when skipping is the only move (or strictly better, which the difference rarely says).
"""
from bohnenspiel import BohnenspielPlayer


class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("260000001")

    def choose_move(self, board_state):
        best_move, best_gain = None, None
        for move in board_state.get_legal_moves():
            after = board_state.clone()
            after.move(move)
            gain = after.get_score(self.player_id) - after.get_score(self.opponent_id)
            if best_gain is None or gain > best_gain:
                best_move, best_gain = move, gain
        return best_move
