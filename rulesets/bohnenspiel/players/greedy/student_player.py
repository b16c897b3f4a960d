"""The course's GreedyBohnenspielPlayer: the legal move after which its own score is highest.

Ties go to the first such move in legal-move order (pits ascending, then skip), as in the Java code.
"""
from bohnenspiel import BohnenspielPlayer


class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("GreedyPlayer")

    def choose_move(self, board_state):
        moves = board_state.get_legal_moves()
        best_move, best_score = moves[0], -1
        for move in moves:
            cloned_board_state = board_state.clone()
            cloned_board_state.move(move)
            score = cloned_board_state.get_score(self.player_id)
            if score > best_score:
                best_move, best_score = move, score
        return best_move
