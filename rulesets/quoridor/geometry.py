"""Walls, edges and paths on the Quoridor-like board, shared by the engine and the probes.

A wall is ``(orientation, x, y)``: "H" lies between rows y and y+1 over columns x and x+1, "V"
between columns x and x+1 over rows y and y+1. An edge is the course's forbidden step between two
4-neighbour cells, kept undirected as a sorted pair of cells ``((x1, y1), (x2, y2))``.
"""
from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Collection, Iterable

from .view import wall_edges

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]
Wall = tuple[str, int, int]

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def edge(a: Cell, b: Cell) -> Edge:
    """The undirected edge between two cells (smaller cell first)."""
    return (a, b) if a <= b else (b, a)


def wall_from_edges(e1: Edge, e2: Edge) -> Wall | None:
    """The wall two edges make up (any order, any direction), or None if they are not one wall."""
    e1, e2 = sorted((edge(*e1), edge(*e2)))
    (ax, ay), (bx, by) = e1
    (cx, cy), (dx, dy) = e2
    if ax == bx and by == ay + 1 and cx == dx and dy == cy + 1 and cy == ay and cx == ax + 1:
        return ("H", ax, ay)
    if ay == by and bx == ax + 1 and cy == dy and dx == cx + 1 and cx == ax and cy == ay + 1:
        return ("V", ax, ay)
    return None


def wall_inside(wall: Wall, sizex: int, sizey: int) -> bool:
    """Inside the board and off its outer edge: both covered cells exist on both sides."""
    ori, x, y = wall
    return ori in ("H", "V") and 0 <= x <= sizex - 2 and 0 <= y <= sizey - 2


def all_walls(sizex: int, sizey: int) -> list[Wall]:
    """Every wall position on an empty board, H first, each by row then column."""
    return [(ori, x, y) for ori in ("H", "V") for y in range(sizey - 1) for x in range(sizex - 1)]


def edge_text(e: Edge) -> str:
    (fx, fy), (tx, ty) = e
    return f"({fx},{fy})->({tx},{ty})"


def wall_text(wall: Wall) -> str:
    """The course's notation: the two Obstacle objects, e.g. "(0,1)->(0,2) + (1,1)->(1,2)"."""
    a, b = wall_edges(wall)
    return f"{edge_text(a)} + {edge_text(b)}"


def shortest_path(start: Cell, goal_row: int, blocked: Collection[Edge], sizex: int, sizey: int,
                  extra: Iterable[Edge] = ()) -> list[Cell] | None:
    """A shortest path of cells from `start` to any cell of `goal_row` through the walls alone
    (pawns ignored, as in standard Quoridor), or None when there is none."""
    extra = set(extra)
    if start[1] == goal_row:
        return [start]
    parent: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        x, y = cell
        for dx, dy in DIRECTIONS:
            nxt = (x + dx, y + dy)
            if not (0 <= nxt[0] < sizex and 0 <= nxt[1] < sizey) or nxt in parent:
                continue
            e = edge(cell, nxt)
            if e in blocked or e in extra:
                continue
            parent[nxt] = cell
            if nxt[1] == goal_row:
                path = [nxt]
                while (back := parent[path[-1]]) is not None:
                    path.append(back)
                return path[::-1]
            queue.append(nxt)
    return None


def path_edges(path: list[Cell]) -> set[Edge]:
    return {edge(a, b) for a, b in itertools.pairwise(path)}
