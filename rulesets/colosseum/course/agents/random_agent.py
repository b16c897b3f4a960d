"""The course's sample agent: a random walk of 0..K steps, then a random free side to wall."""
import numpy as np

from agents.agent import Agent
from store import register_agent

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))      # Up, Right, Down, Left
REDRAWS = 300                                   # boxed in: give up the walk after this many tries


def random_step(chess_board, my_pos, adv_pos, max_step):
    """Walk up to `max_step` random steps that cross no wall and avoid the adversary (a boxed-in
    walk gives up after 300 redraws and stays at the start), then pick a random side of the end
    cell that has no wall yet: ((row, col), dir)."""
    start = my_pos
    for _ in range(np.random.randint(0, max_step + 1)):
        r, c = my_pos
        tries = 0
        d = np.random.randint(0, 4)
        target = (r + MOVES[d][0], c + MOVES[d][1])
        while chess_board[r, c, d] or target == adv_pos:
            tries += 1
            if tries > REDRAWS:
                break
            d = np.random.randint(0, 4)
            target = (r + MOVES[d][0], c + MOVES[d][1])
        if tries > REDRAWS:
            my_pos = start
            break
        my_pos = target
    r, c = my_pos
    d = np.random.randint(0, 4)
    while chess_board[r, c, d]:
        d = np.random.randint(0, 4)
    return my_pos, d


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
