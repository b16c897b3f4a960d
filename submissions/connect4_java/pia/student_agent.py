"""Connect Four: wins where one drop wins, blocks where one drop would lose, else plays nearest the centre."""


def drop(board, col):
    """The row a piece dropped in `col` lands on, or None when the column is full."""
    for row in range(len(board)):
        if board[row][col] == -1:
            return row
    return None


def fours(board, row, col, seat):
    """Would `seat` connect four by holding (row, col)?"""
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < len(board) and 0 <= c < len(board[0]) and board[r][c] == seat:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


class StudentAgent:
    def step(self, board, me):
        cols = [c for c in range(len(board[0])) if drop(board, c) is not None]
        for seat in (me, 1 - me):
            for c in cols:
                if fours(board, drop(board, c), c, seat):
                    return c
        middle = (len(board[0]) - 1) / 2
        return min(cols, key=lambda c: abs(c - middle))
