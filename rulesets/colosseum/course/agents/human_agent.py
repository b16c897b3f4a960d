"""The course's agent for a person at the keyboard: reads "row,col,dir" (dir one of u, r, d, l)."""
from agents.agent import Agent
from store import register_agent


@register_agent("human_agent")
class HumanAgent(Agent):
    def __init__(self):
        super().__init__()
        self.name = "HumanAgent"
        self.dir_map = {"u": 0, "r": 1, "d": 2, "l": 3}

    def step(self, chess_board, my_pos, adv_pos, max_step):
        text = input("Your move (x,y,dir): ")
        parts = text.split(",")
        if len(parts) != 3:
            raise ValueError("Type the move as x,y,dir, for example 2,3,u")
        x, y, d = int(parts[0]), int(parts[1]), parts[2].strip()
        if not (0 <= x < chess_board.shape[0] and 0 <= y < chess_board.shape[1]):
            raise ValueError(f"({x}, {y}) is not on the board")
        if d not in self.dir_map:
            raise ValueError("Invalid direction, should be one of u,r,d,l")
        return (x, y), self.dir_map[d]
