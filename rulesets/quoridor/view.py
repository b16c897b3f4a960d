"""What the player's process is told about a Quoridor position: plain data, no engine.

The shim reads the grader's State.to_json into a `Board` and tells the student's Player the
course's Obstacle objects; the engine, the probes and the path searches stay in the manager.
`wall_edges` is the one conversion from a wall to the course's unit steps (geometry.py uses it too).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    """What the player is told about a position, as plain data read from the grader's State.to_json
    (the engine itself never enters the player's process): sizes, pawns, walls (orientation, x, y)
    and the obstacles each seat has left."""

    sizex: int
    sizey: int
    pos: tuple[tuple[int, int], tuple[int, int]]
    walls: tuple[tuple[str, int, int], ...]
    left: tuple[int, int]

    @classmethod
    def from_json(cls, data: dict) -> Board:
        params = data.get("params") or {}
        (x0, y0), (x1, y1) = data["pos"]
        n0, n1 = data["left"]
        return cls(sizex=int(params.get("sizex", 9)), sizey=int(params.get("sizey", 9)),
                   pos=((int(x0), int(y0)), (int(x1), int(y1))),
                   walls=tuple((str(w["wall"][0]), int(w["wall"][1]), int(w["wall"][2])) for w in data["walls"]),
                   left=(int(n0), int(n1)))


def wall_edges(wall: tuple[str, int, int]):
    """The two unit steps a wall blocks, in the course's order: "H" lies between rows y and y+1 over
    columns x and x+1, "V" between columns x and x+1 over rows y and y+1."""
    ori, x, y = wall
    if ori == "H":
        return ((x, y), (x, y + 1)), ((x + 1, y), (x + 1, y + 1))
    return ((x, y), (x + 1, y)), ((x, y + 1), (x + 1, y + 1))
