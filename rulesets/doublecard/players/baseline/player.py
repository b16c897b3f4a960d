"""Baseline Double Card player: depth-2 minimax with alpha-beta and a line-counting heuristic.

Written the way a COMP 472 team would: its own board, the course's move notation in and out.
The heuristic counts every window of 4 cells (rows, columns, diagonals) that still holds a single
value of a kind: 1, 8 or 64 points for 1, 2 or 3 such cells, for my kind minus the opponent's.
Only the windows through the cells a move changes are re-scored, which keeps a full depth-2
search of the regular phase around a tenth of a second. In the recycling phase (hundreds of moves
a side) the search keeps my best 8 moves by the one-move score and stops at 0.6 s.
"""
import time

W, H = 8, 12
COLS = "ABCDEFGH"
# rotation code -> ((colour, dot) of the first cell, (colour, dot) of the second); colour 0 red,
# 1 white; dot 0 filled, 1 open. Odd codes lie flat (second cell to the right), even ones stand.
SEGMENTS = {1: ((0, 0), (1, 1)), 2: ((1, 1), (0, 0)), 3: ((1, 1), (0, 0)), 4: ((0, 0), (1, 1)),
            5: ((0, 1), (1, 0)), 6: ((1, 0), (0, 1)), 7: ((1, 0), (0, 1)), 8: ((0, 1), (1, 0))}
WIN = 10 ** 6
WEIGHT = (0, 1, 8, 64, 0)
BEAM = 8
TIME_BUDGET = 0.6


def windows():
    out = []
    for r in range(H):
        for c in range(W):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < W and 0 <= y < H for x, y in cells):
                    out.append(tuple(y * W + x for x, y in cells))
    return out


WINDOWS = windows()
CELL_WINDOWS = [[i for i, w in enumerate(WINDOWS) if cell in w] for cell in range(W * H)]


def second(code, cell):
    return cell + 1 if code % 2 else cell + W


def text(move):
    src, code, cell = move
    where = f"{code} {COLS[cell % W]} {cell // W + 1}"
    if src is None:
        return "0 " + where
    a, b = src
    return f"{COLS[a % W]} {a // W + 1} {COLS[b % W]} {b // W + 1} {where}"


def parse(line):
    t = line.upper().split()
    cell = (int(t[-1]) - 1) * W + COLS.index(t[-2])
    if len(t) == 4:
        return None, int(t[1]), cell
    a = (int(t[1]) - 1) * W + COLS.index(t[0])
    b = (int(t[3]) - 1) * W + COLS.index(t[2])
    return (min(a, b), max(a, b)), int(t[4]), cell


class Board:
    def __init__(self):
        self.attr = ([None] * (W * H), [None] * (W * H))    # colours, dots
        self.owner = [-1] * (W * H)
        self.heights = [0] * W
        self.cards = {}              # card id -> (code, cell)
        self.locked = None           # the card moved or placed last

    def put(self, card, code, cell):
        for where, (colour, dot) in zip((cell, second(code, cell)), SEGMENTS[code]):
            self.attr[0][where], self.attr[1][where], self.owner[where] = colour, dot, card
            self.heights[where % W] += 1
        self.cards[card] = (code, cell)

    def lift(self, card):
        code, cell = self.cards.pop(card)
        for where in (cell, second(code, cell)):
            self.attr[0][where] = self.attr[1][where] = None
            self.owner[where] = -1
            self.heights[where % W] -= 1
        return code, cell

    def apply(self, move):
        """Play a move; returns what undo() needs."""
        src, code, cell = move
        old = None
        card = len(self.cards) if src is None else self.owner[src[0]]
        if src is not None:
            old = self.lift(card)
        self.put(card, code, cell)
        undo = (card, old, self.locked)
        self.locked = card
        return undo

    def undo(self, token):
        card, old, locked = token
        self.lift(card)
        if old is not None:
            self.put(card, *old)
        self.locked = locked

    def placements(self):
        out = []
        for col in range(W):
            row = self.heights[col]
            if row >= H:
                continue
            cell = row * W + col
            flat = col + 1 < W and self.heights[col + 1] == row
            for code in range(1, 9):
                if (flat if code % 2 else row + 1 < H):
                    out.append((None, code, cell))
        return out

    def moves(self):
        if len(self.cards) < 24:
            return self.placements()
        out = []
        for card, (code, cell) in list(self.cards.items()):
            if card == self.locked:
                continue
            tops = (cell, cell + 1) if code % 2 else (cell + W,)
            if any(t + W < W * H and self.owner[t + W] >= 0 for t in tops):
                continue
            self.lift(card)
            src = (cell, second(code, cell))
            out.extend((src, c, x) for _, c, x in self.placements() if (c, x) != (code, cell))
            self.put(card, code, cell)
        return out

    def line(self, kind, cells):
        vals = self.attr[kind]
        for cell in cells:
            v = vals[cell]
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                n = 1
                for s in (1, -1):
                    c, r = cell % W + s * dc, cell // W + s * dr
                    while 0 <= c < W and 0 <= r < H and vals[r * W + c] == v:
                        n += 1
                        c, r = c + s * dc, r + s * dr
                if n >= 4:
                    return True
        return False

    def winner(self, move, mover_kind):
        """After `move` (just applied): +1 the mover won, -1 the mover lost, 0 nobody."""
        cells = (move[2], second(move[1], move[2]))
        mine, theirs = self.line(mover_kind, cells), self.line(1 - mover_kind, cells)
        return 1 if mine else -1 if theirs else 0

    def score(self, kind, window_ids):
        """Heuristic over some windows: my open lines minus the opponent's."""
        total = 0
        for k, sign in ((kind, 1), (1 - kind, -1)):
            vals = self.attr[k]
            for i in window_ids:
                seen, n = None, 0
                for cell in WINDOWS[i]:
                    v = vals[cell]
                    if v is None:
                        continue
                    if seen is None:
                        seen = v
                    elif v != seen:
                        n = 0
                        break
                    n += 1
                total += sign * WEIGHT[n]
        return total


def touched(move):
    src, code, cell = move
    cells = [cell, second(code, cell)] + list(src or ())
    ids = set()
    for c in cells:
        ids.update(CELL_WINDOWS[c])
    return ids


class Player:
    def __init__(self, role, first):
        self.kind = 1 if role == "dots" else 0
        self.board = Board()

    def opponent_move(self, move_text):
        self.board.apply(parse(move_text))

    def choose_move(self):
        move = self.search()
        self.board.apply(move)
        return text(move)

    def delta(self, move, kind):
        """(result, heuristic change for `kind`) of playing `move` now, board left unchanged."""
        ids = touched(move)
        before = self.board.score(kind, ids)
        token = self.board.apply(move)
        result = self.board.winner(move, kind)
        after = self.board.score(kind, ids)
        self.board.undo(token)
        return result, after - before

    def search(self):
        start = time.time()
        board, me, them = self.board, self.kind, 1 - self.kind
        ranked = []
        for move in board.moves():
            result, gain = self.delta(move, me)
            if result == 1:
                return move
            ranked.append((-WIN if result == -1 else gain, move))
        ranked.sort(key=lambda x: -x[0])
        if len(board.cards) >= 24:
            ranked = ranked[:BEAM]
        best, best_value = ranked[0][1], -WIN - 1
        for gain, move in ranked:
            if gain == -WIN or time.time() - start > TIME_BUDGET:
                break
            token = board.apply(move)
            worst = WIN
            for reply in board.moves():
                result, loss = self.delta(reply, them)
                value = -WIN if result == 1 else WIN if result == -1 else gain - loss
                worst = min(worst, value)
                if worst <= best_value:          # alpha-beta: this move is no better than the best
                    break
            board.undo(token)
            if worst > best_value:
                best, best_value = move, worst
        return best
