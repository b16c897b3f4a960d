"""Example submission that uses the course's time as real agents do: about 25 s of the 30 s first
move (by its own clock: here it "precomputes"), then well under the 2 s of every later move.
It must pass every stage: a stage that gave each position to a fresh agent with the 2 s limit
would stop it. timing.json beside this file holds the seconds it spends (tests scale them down)."""
import json
import time
from pathlib import Path

import numpy as np

from agents.agent import Agent
from store import register_agent

TIMING = json.loads((Path(__file__).resolve().parent / "timing.json").read_text())
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "SlowFirstMove"
        self.autoplay = True
        self.first = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        started = time.time()
        budget = TIMING["first_move_s"] if self.first else TIMING["move_s"]
        self.first = False
        r, c = (int(x) for x in my_pos)
        move = (r, c), int(np.flatnonzero(~chess_board[r, c])[0])   # stay and wall a free side
        time.sleep(max(0.0, budget - (time.time() - started)))     # "thinking" until its budget
        return move
