"""A slow submission: plays legal bottom-row cards but thinks 5 s (of CPU) before its second move."""
import time

COLS = "ABCDEFGH"


def think(seconds):
    """Search for `seconds` of CPU time (move limits count the player's CPU time, not sleep)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


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
            think(5)
        col = min(range(8), key=lambda c: (self.heights[c], c))      # a standing card on the lowest column
        move = "0 2 %s %d" % (COLS[col], self.heights[col] + 1)
        self.play(move)
        return move
