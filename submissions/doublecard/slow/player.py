"""A slow submission: plays legal bottom-row cards but sleeps 5 s before its second move."""
import time

COLS = "ABCDEFGH"


class Player:
    def __init__(self, role, first):
        self.heights = [0] * 8
        self.turn = 0

    def play(self, text):
        t = text.upper().split()
        code, col = int(t[-3]), COLS.index(t[-2])
        if code % 2:
            self.heights[col] += 1
            self.heights[col + 1] += 1
        else:
            self.heights[col] += 2

    def opponent_move(self, move_text):
        self.play(move_text)

    def choose_move(self):
        self.turn += 1
        if self.turn == 2:
            time.sleep(5)
        col = min(range(8), key=lambda c: (self.heights[c], c))      # a standing card on the lowest column
        move = "0 2 %s %d" % (COLS[col], self.heights[col] + 1)
        self.play(move)
        return move
