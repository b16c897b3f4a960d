"""Our team's Double Card board: placements, recycling, and who a move makes win."""

W, H = 8, 12
COLS = "ABCDEFGH"
# rotation -> ((colour, dot) bottom/left, (colour, dot) top/right); colour "R"/"W", dot "*"/"o"
FACES = {1: (("R", "*"), ("W", "o")), 2: (("W", "o"), ("R", "*")), 3: (("W", "o"), ("R", "*")),
         4: (("R", "*"), ("W", "o")), 5: (("R", "o"), ("W", "*")), 6: (("W", "*"), ("R", "o")),
         7: (("W", "*"), ("R", "o")), 8: (("R", "o"), ("W", "*"))}


def cells_of(code, col, row):
    return ((col, row), (col + 1, row)) if code % 2 else ((col, row), (col, row + 1))


class Board:
    def __init__(self):
        self.grid = {}           # (col, row) -> (card, colour, dot)
        self.cards = {}          # card -> (code, col, row)
        self.locked = None

    def put(self, card, code, col, row):
        self.cards[card] = (code, col, row)
        for cell, (colour, dot) in zip(cells_of(code, col, row), FACES[code]):
            self.grid[cell] = (card, colour, dot)

    def lift(self, card):
        for cell in cells_of(*self.cards.pop(card)):
            del self.grid[cell]

    def apply(self, text):
        """Play a move in the course's notation; returns how to take it back."""
        t = text.upper().split()
        code, col, row = int(t[-3]), COLS.index(t[-2]), int(t[-1]) - 1
        old, locked = None, self.locked
        if len(t) == 4:
            card = len(self.cards)
        else:
            card = self.grid[(COLS.index(t[0]), int(t[1]) - 1)][0]
            old = self.cards[card]
            self.lift(card)
        self.put(card, code, col, row)
        self.locked = card
        return card, old, locked

    def undo(self, token):
        card, old, locked = token
        self.lift(card)
        if old is not None:
            self.put(card, *old)
        self.locked = locked

    def fits(self, code, col, row):
        cells = cells_of(code, col, row)
        if any(not (0 <= c < W and 0 <= r < H) or (c, r) in self.grid for c, r in cells):
            return False
        return all(r == 0 or (c, r - 1) in self.grid for c, r in (cells if code % 2 else cells[:1]))

    def moves(self):
        spots = lambda: [(code, col, row) for col in range(W) for row in range(H) for code in range(1, 9)
                         if self.fits(code, col, row)]
        if len(self.cards) < 24:
            return ["0 %d %s %d" % (code, COLS[col], row + 1) for code, col, row in spots()]
        out = []
        for card, (code, col, row) in list(self.cards.items()):
            cells = cells_of(code, col, row)
            if card == self.locked or any((c, r + 1) in self.grid for c, r in (cells if code % 2 else cells[1:])):
                continue
            self.lift(card)
            src = " ".join("%s %d" % (COLS[c], r + 1) for c, r in cells)
            out += ["%s %d %s %d" % (src, k, COLS[x], y + 1) for k, x, y in spots() if (k, x, y) != (code, col, row)]
            self.put(card, code, col, row)
        return out

    def line(self, kind, cells):
        """True if a run of 4 of the same colour (kind 1) or dot (kind 2) passes through `cells`."""
        for col, row in cells:
            mine = self.grid[(col, row)][kind]
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                n = 1
                for s in (1, -1):
                    c, r = col + s * dc, row + s * dr
                    while (c, r) in self.grid and self.grid[(c, r)][kind] == mine:
                        n, c, r = n + 1, c + s * dc, r + s * dr
                if n >= 4:
                    return True
        return False

    def result(self, text, mover_kind):
        """After `text` was applied: 1 the mover won, -1 the mover lost, 0 the game goes on."""
        t = text.upper().split()
        cells = cells_of(int(t[-3]), COLS.index(t[-2]), int(t[-1]) - 1)
        if self.line(mover_kind, cells):
            return 1
        return -1 if self.line(3 - mover_kind, cells) else 0
