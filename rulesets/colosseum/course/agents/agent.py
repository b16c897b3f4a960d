"""The course's `agents.agent` module: the base class every agent extends."""


class Agent:
    def __init__(self):
        """Every agent has a name; `autoplay` must be True for the course's autoplay mode."""
        self.name = "DummyAgent"
        self.autoplay = False

    def __str__(self) -> str:
        return self.name

    def step(self, chess_board, my_pos, adv_pos, max_step):
        """Return ((row, col), dir): where to go (at most max_step steps) and which side to wall.

        chess_board: NumPy bool array (M, M, 4), True where a wall stands on side d of (r, c),
        with d 0 Up, 1 Right, 2 Down, 3 Left; my_pos, adv_pos: (row, col) tuples.
        """
        raise NotImplementedError
