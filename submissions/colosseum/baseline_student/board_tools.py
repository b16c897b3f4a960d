"""Helper module of the example student agent: walking and measuring on chess_board."""
from collections import deque

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))
OPPOSITE = (2, 3, 0, 1)


def open_neighbours(board, r, c):
    for d, (dr, dc) in enumerate(MOVES):
        if not board[r][c][d]:
            yield r + dr, c + dc


def within_steps(board, start, avoid, steps):
    """All cells reachable from start in at most `steps` moves without stepping on `avoid`."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if seen[cell] < steps:
            for nxt in open_neighbours(board, *cell):
                if nxt != avoid and nxt not in seen:
                    seen[nxt] = seen[cell] + 1
                    todo.append(nxt)
    return seen


def zone(board, start):
    """The closed zone (connected cells) that start is in."""
    seen = {start}
    todo = [start]
    while todo:
        for nxt in open_neighbours(board, *todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def toggle_wall(board, r, c, d, value):
    board[r][c][d] = value
    dr, dc = MOVES[d]
    board[r + dr][c + dc][OPPOSITE[d]] = value
