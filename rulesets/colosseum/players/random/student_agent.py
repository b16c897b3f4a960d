"""The course's random agent: a random walk of 0..max_step steps, then a wall on a random free side.

Written against the student API exactly as a student would (agents.agent.Agent, store.register_agent).
"""
import numpy as np

from agents.agent import Agent
from store import register_agent

# (row, col) change for Up, Right, Down, Left
MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


@register_agent("random_agent")
class RandomAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "RandomAgent"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        start = my_pos
        for _ in range(np.random.randint(0, max_step + 1)):
            r, c = my_pos
            # draw a direction until it is open and does not bump into the opponent;
            # give up (stay where we started) after 300 redraws
            tries = 0
            direction = np.random.randint(0, 4)
            target = (r + MOVES[direction][0], c + MOVES[direction][1])
            while chess_board[r, c, direction] or target == adv_pos:
                tries += 1
                if tries > 300:
                    break
                direction = np.random.randint(0, 4)
                target = (r + MOVES[direction][0], c + MOVES[direction][1])
            if tries > 300:
                my_pos = start
                break
            my_pos = target

        r, c = my_pos
        side = np.random.randint(0, 4)
        while chess_board[r, c, side]:
            side = np.random.randint(0, 4)
        return my_pos, side
