"""Connect Four: your agent. step() is called once a turn with the board (board[row][col]: -1 empty,
else the seat that dropped there; row 0 the bottom) and your seat; return a column that is not full."""


class StudentAgent:
    def __init__(self):
        self.name = "Connect Four agent"

    def step(self, board, me):
        for col in range(len(board[0])):
            if board[-1][col] == -1:
                return col
        return 0
