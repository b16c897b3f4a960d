"""Our COMP 472 Double Card AI: win at once if we can, never hand the opponent a win in one,
otherwise the move that puts most of our own kind next to equal neighbours."""
import random

from dcboard import Board


class Player:
    def __init__(self, role, first):
        self.kind = 2 if role == "dots" else 1      # index into a grid entry (card, colour, dot)
        self.board = Board()
        self.rng = random.Random(472)

    def opponent_move(self, move_text):
        self.board.apply(move_text)

    def choose_move(self):
        board, me = self.board, self.kind
        best, best_score = None, None
        moves = board.moves()
        self.rng.shuffle(moves)
        for move in moves:
            token = board.apply(move)
            result = board.result(move, me)
            if result == 1:
                board.undo(token)
                best = move
                break
            score = -1000 if result == -1 else self.neighbours(move)
            if result == 0 and self.opponent_wins(3 - me):
                score = -500
            board.undo(token)
            if best_score is None or score > best_score:
                best, best_score = move, score
        self.board.apply(best)
        return best

    def opponent_wins(self, them):
        board = self.board
        for reply in board.moves():
            token = board.apply(reply)
            won = board.result(reply, them) == 1
            board.undo(token)
            if won:
                return True
        return False

    def neighbours(self, move):
        grid, me = self.board.grid, self.kind
        t = move.split()
        col, row = "ABCDEFGH".index(t[-2]), int(t[-1]) - 1
        cells = [(col, row), (col + 1, row) if int(t[-3]) % 2 else (col, row + 1)]
        score = 0
        for c, r in cells:
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    other = grid.get((c + dc, r + dr))
                    if other is not None and (dc, dr) != (0, 0) and other[me] == grid[(c, r)][me]:
                        score += 1
        return score + self.rng.random()
