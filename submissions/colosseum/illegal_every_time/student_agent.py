"""Example submission that is always wrong: it walls a side that already has a wall, or, when its
cell has none, asks for a cell farther than max_step steps (or off the board)."""
from agents.agent import Agent
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "IllegalAgent"
        self.autoplay = True

    def step(self, chess_board, my_pos, adv_pos, max_step):
        r, c = int(my_pos[0]), int(my_pos[1])
        for side in range(4):
            if chess_board[r, c, side]:
                return (r, c), side
        size = chess_board.shape[0]
        for row in range(size):
            for col in range(size):
                if abs(row - r) + abs(col - c) > max_step:
                    return (row, col), 0
        return (-1, c), 0
