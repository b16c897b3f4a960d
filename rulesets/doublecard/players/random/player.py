"""Random Double Card player: keeps its own board and plays a uniformly random legal move.

Written against the course's API only (Player(role, first), opponent_move, choose_move), with the
course's notation in and out. Cells are (column, row) pairs, columns 0-7 for A-H, rows 0-11.
"""
import random

W, H = 8, 12
COLS = "ABCDEFGH"


def cells_of(code, col, row):
    """The two cells a placement covers: odd codes lie flat, even codes stand."""
    return ((col, row), (col + 1, row)) if code % 2 else ((col, row), (col, row + 1))


class Player:
    def __init__(self, role, first):
        self.role = role
        self.cards = {}          # card number -> (code, col, row)
        self.at = {}             # (col, row) -> card number
        self.locked = None       # the card the last move placed or moved
        self.rng = random.Random()

    # the board -------------------------------------------------------------------------------
    def put(self, card, code, col, row):
        self.cards[card] = (code, col, row)
        for cell in cells_of(code, col, row):
            self.at[cell] = card
        self.locked = card

    def lift(self, card):
        for cell in cells_of(*self.cards.pop(card)):
            del self.at[cell]

    def play(self, text):
        t = text.upper().split()
        code, col, row = int(t[-3]), COLS.index(t[-2]), int(t[-1]) - 1
        if len(t) == 4:
            card = len(self.cards)
        else:
            card = self.at[(COLS.index(t[0]), int(t[1]) - 1)]
            self.lift(card)
        self.put(card, code, col, row)

    def fits(self, code, col, row):
        cells = cells_of(code, col, row)
        if any(not (0 <= c < W and 0 <= r < H) or (c, r) in self.at for c, r in cells):
            return False
        needs = cells if code % 2 else cells[:1]
        return all(r == 0 or (c, r - 1) in self.at for c, r in needs)

    def placements(self):
        return [(code, col, row) for row in range(H) for col in range(W) for code in range(1, 9)
                if self.fits(code, col, row)]

    def moves(self):
        if len(self.cards) < 24:
            return ["0 %d %s %d" % (code, COLS[col], row + 1) for code, col, row in self.placements()]
        out = []
        for card, (code, col, row) in list(self.cards.items()):
            cells = cells_of(code, col, row)
            tops = cells if code % 2 else cells[1:]
            if card == self.locked or any((c, r + 1) in self.at for c, r in tops):
                continue
            self.lift(card)
            (c1, r1), (c2, r2) = cells
            source = "%s %d %s %d" % (COLS[c1], r1 + 1, COLS[c2], r2 + 1)
            for new in self.placements():
                if new != (code, col, row):
                    out.append("%s %d %s %d" % (source, new[0], COLS[new[1]], new[2] + 1))
            self.cards[card] = (code, col, row)
            for cell in cells:
                self.at[cell] = card
        return out

    # the course's API ------------------------------------------------------------------------
    def opponent_move(self, move_text):
        self.play(move_text)

    def choose_move(self):
        move = self.rng.choice(self.moves())
        self.play(move)
        return move
