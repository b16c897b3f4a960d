"""Example submission that is too slow in the opening: its first move is instant, its second and
third take 3 s of CPU each (the limit is 2 s), so the grader plays a random walk for it on those two moves
and logs them as late."""
import time

import numpy as np

from agents.agent import Agent
from store import register_agent

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


def think(seconds):
    """Search for `seconds` of CPU time (late on the CPU clock and on the wall clock alike)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "SlowAgent"
        self.autoplay = True
        self.turns = 0

    def step(self, chess_board, my_pos, adv_pos, max_step):
        self.turns += 1
        if self.turns in (2, 3):
            think(3)
        # stay put and wall the first free side
        r, c = my_pos
        side = int(np.flatnonzero(~chess_board[r, c])[0])
        return (int(r), int(c)), side
