"""The course's GreedyBohnenspielPlayer as a submission: the legal move after which its own score
is highest (ties to the first in legal-move order), as the course's package ships it."""
from bohnenspiel import GreedyBohnenspielPlayer


class StudentPlayer(GreedyBohnenspielPlayer):
    def choose_move(self, board_state):
        return super().choose_move(board_state)
