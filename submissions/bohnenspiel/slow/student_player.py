"""A student's agent that thinks too long: 1.2 s of CPU on its third move, 3 s on its fifth.

With the course's limits (0.7 s per move, then a 1 s cushion) the third move is late, so the
grader plays a random move for it; the fifth is beyond the cushion, so the player is stopped and
loses the game. Every other move is the first legal one.
"""
import time

from bohnenspiel import BohnenspielPlayer

DELAYS = {3: 1.2, 5: 3.0}


def think(seconds):
    """Search for `seconds` of CPU time (late on the CPU clock and on the wall clock alike)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


class StudentPlayer(BohnenspielPlayer):
    def __init__(self):
        super().__init__("260000003")

    def choose_move(self, board_state):
        self.moves_made = getattr(self, "moves_made", 0) + 1
        delay = DELAYS.get(self.moves_made)
        if delay:
            think(delay)
        return board_state.get_legal_moves()[0]
