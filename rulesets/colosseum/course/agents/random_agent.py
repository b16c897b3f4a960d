"""The course's sample agent: a random walk of 0..K steps, then a random free side to wall."""
import numpy as np

from agents.agent import Agent
from store import register_agent

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))      # Up, Right, Down, Left
REDRAWS = 300                                   # boxed in: give up the walk after this many tries


def random_step(chess_board, my_pos, adv_pos, max_step):
    """Walk up to `max_step` random steps that cross no wall and avoid the adversary, then pick a
    random side of the end cell that has no wall yet: ((row, col), dir)."""
    start = tuple(my_pos)
    pos = start
    for _ in range(np.random.randint(0, max_step + 1)):
        r, c = pos
        for _ in range(REDRAWS):
            d = np.random.randint(0, 4)
            nxt = (r + MOVES[d][0], c + MOVES[d][1])
            if not chess_board[r, c, d] and nxt != tuple(adv_pos):
                break
        else:
            pos = start
            break
        pos = nxt
    r, c = pos
    d = np.random.randint(0, 4)
    while chess_board[r, c, d]:
        d = np.random.randint(0, 4)
    return pos, d


@register_agent("random_agent")
class RandomAgent(Agent):
    """Takes a random legal-looking step each turn (the course's baseline opponent)."""

    def __init__(self):
        super().__init__()
        self.name = "RandomAgent"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        return random_step(chess_board, my_pos, adv_pos, max_step)


@register_agent("random_agent_2")
class RandomAgent2(RandomAgent):
    """A second registration of the random agent, as the course shipped it (to show several agents)."""

    def __init__(self):
        super().__init__()
        self.name = "RandomAgent2"
