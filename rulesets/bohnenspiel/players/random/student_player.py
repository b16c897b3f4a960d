"""The course's RandomBohnenspielPlayer: any legal move, uniformly."""
from bohnenspiel import BohnenspielPlayer


class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("RandomPlayer")

    def choose_move(self, board_state):
        return board_state.get_random_move()
