"""The course's `world` module: the game as the course's simulator runs it (World).

Students import it to simulate games (`World`, its `check_endgame`, `check_valid_step`,
`set_barrier`, `random_walk`) and for the constants it re-exports. This is the grader's own
implementation of the course's World from the project's rules; the grader's referee is separate
and not reachable from here.
"""
import logging
import sys
import time
import traceback
from copy import deepcopy

import numpy as np

from agents import *  # noqa: F401,F403 - the course's world exposed the sample agents
from agents.human_agent import HumanAgent
from constants import *  # noqa: F401,F403
from store import AGENT_REGISTRY
from ui import UIEngine

logging.basicConfig(format="%(levelname)s:%(message)s", level=logging.INFO)
logger = logging.getLogger(__name__)

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))       # Up, Right, Down, Left
OPPOSITES = {0: 2, 1: 3, 2: 0, 3: 1}


class World:
    """An M x M board with border walls, K = (M + 1) // 2 symmetric random barriers and two players
    on mirrored cells; `step()` plays one turn of the player to move and returns
    (is_endgame, player_1_score, player_2_score)."""

    def __init__(self, player_1="random_agent", player_2="random_agent", board_size=None,
                 display_ui=False, display_delay=2, autoplay=False):
        for name in (player_1, player_2):
            if name not in AGENT_REGISTRY:
                raise ValueError(f"Agent '{name}' is not registered. {AGENT_NOT_FOUND_MSG}")
        self.p0 = AGENT_REGISTRY[player_1]()
        self.p1 = AGENT_REGISTRY[player_2]()
        if autoplay and not (self.p0.autoplay and self.p1.autoplay):
            raise ValueError(f"Autoplay mode is not supported by one of the agents ({self.p0} -> "
                             f"{self.p0.autoplay}, {self.p1} -> {self.p1.autoplay}). Please set "
                             f"autoplay=True in the agent class.")
        self.player_names = {PLAYER_1_ID: PLAYER_1_NAME, PLAYER_2_ID: PLAYER_2_NAME}
        self.dir_names = {DIRECTION_UP: "Up", DIRECTION_RIGHT: "Right", DIRECTION_DOWN: "Down",
                          DIRECTION_LEFT: "Left"}
        self.moves = MOVES
        self.opposites = dict(OPPOSITES)
        self.board_size = (np.random.randint(MIN_BOARD_SIZE, MAX_BOARD_SIZE) if board_size is None
                           else board_size)
        m = self.board_size
        self.chess_board = np.zeros((m, m, 4), dtype=bool)
        self.chess_board[0, :, DIRECTION_UP] = True
        self.chess_board[:, -1, DIRECTION_RIGHT] = True
        self.chess_board[-1, :, DIRECTION_DOWN] = True
        self.chess_board[:, 0, DIRECTION_LEFT] = True
        self.max_step = (m + 1) // 2
        for _ in range(self.max_step):           # barriers come in mirrored pairs
            while True:
                r, c = np.random.randint(0, m, size=2)
                d = np.random.randint(0, 4)
                if not self.chess_board[r, c, d]:
                    break
            self.set_barrier(r, c, d)
            self.set_barrier(m - 1 - r, m - 1 - c, OPPOSITES[d])
        self.p0_pos = np.random.randint(0, m, size=2)
        while np.array_equal(self.p0_pos, m - 1 - self.p0_pos):
            self.p0_pos = np.random.randint(0, m, size=2)
        self.p1_pos = m - 1 - self.p0_pos
        self.turn = 0
        self.p0_time = self.p1_time = 0.0
        self.initial_end, _, _ = self.check_endgame()
        self.results_cache = ()
        self.display_ui = display_ui
        self.display_delay = display_delay
        if display_ui:
            self.ui_engine = UIEngine(m, self)
            self.render()

    def step(self):
        """Ask the player to move for ((row, col), dir); a wrong answer or an exception becomes a
        random walk, as in the course. Returns check_endgame()."""
        player, cur_pos, adv_pos = ((self.p0, self.p0_pos, self.p1_pos) if self.turn == 0
                                    else (self.p1, self.p1_pos, self.p0_pos))
        started = time.time()
        try:
            next_pos, d = player.step(deepcopy(self.chess_board), tuple(cur_pos), tuple(adv_pos),
                                      self.max_step)
            next_pos = np.asarray(next_pos, dtype=cur_pos.dtype)
            if not self.check_boundary(next_pos):
                raise ValueError(f"End position {next_pos} is out of boundary")
            if not 0 <= d <= 3:
                raise ValueError(f"Barrier dir should reside in [0, 3], but your dir is {d}")
            if not self.check_valid_step(cur_pos, next_pos, d):
                raise ValueError(f"Not a valid step from {cur_pos} to {next_pos} and put barrier at "
                                 f"{d}, with max steps = {self.max_step}")
        except BaseException as exc:  # noqa: BLE001 - the course replaced any failure by a random walk
            if isinstance(exc, KeyboardInterrupt) or (isinstance(exc, SystemExit)
                                                      and isinstance(player, HumanAgent)):
                sys.exit(0)
            print(f"An exception raised. The traceback is as follows:\n{traceback.format_exc()}")
            print("Execute Random Walk!")
            next_pos, d = self.random_walk(tuple(cur_pos), tuple(adv_pos))
            next_pos = np.asarray(next_pos, dtype=cur_pos.dtype)
        if self.turn == 0:
            self.p0_time += time.time() - started
            self.p0_pos = next_pos
        else:
            self.p1_time += time.time() - started
            self.p1_pos = next_pos
        logger.info(f"Player {self.player_names[self.turn]} moves to {next_pos} facing {self.dir_names[d]}")
        self.set_barrier(int(next_pos[0]), int(next_pos[1]), d)
        self.turn = 1 - self.turn
        self.results_cache = self.check_endgame()
        if self.display_ui:
            self.render()
        return self.results_cache

    def check_valid_step(self, start_pos, end_pos, barrier_dir):
        """Whether the end cell is reachable in at most max_step steps without crossing a wall or
        the adversary's cell, and its side `barrier_dir` has no wall yet."""
        r, c = end_pos
        if self.chess_board[r, c, barrier_dir]:
            return False
        start, end = tuple(int(v) for v in start_pos), (int(r), int(c))
        if start == end:
            return True
        adv = tuple(int(v) for v in (self.p0_pos if self.turn else self.p1_pos))
        frontier, seen = [start], {start}
        for _ in range(self.max_step):
            nxt = []
            for r, c in frontier:
                for d, (dr, dc) in enumerate(MOVES):
                    cell = (r + dr, c + dc)
                    if self.chess_board[r, c, d] or cell == adv or cell in seen:
                        continue
                    if cell == end:
                        return True
                    seen.add(cell)
                    nxt.append(cell)
            frontier = nxt
        return False

    def check_endgame(self):
        """(is_endgame, player_1_score, player_2_score): the regions the walls cut the board into;
        the game ends when the players are in different regions, each scoring its region's size."""
        m = self.board_size
        parent = list(range(m * m))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for r in range(m):
            for c in range(m):
                if c + 1 < m and not self.chess_board[r, c, DIRECTION_RIGHT]:
                    parent[find(r * m + c)] = find(r * m + c + 1)
                if r + 1 < m and not self.chess_board[r, c, DIRECTION_DOWN]:
                    parent[find(r * m + c)] = find((r + 1) * m + c)
        roots = [find(i) for i in range(m * m)]
        a = roots[int(self.p0_pos[0]) * m + int(self.p0_pos[1])]
        b = roots[int(self.p1_pos[0]) * m + int(self.p1_pos[1])]
        p0_score, p1_score = roots.count(a), roots.count(b)
        if a == b:
            return False, p0_score, p1_score
        if p0_score == p1_score:
            logging.info("Game ends! Tie!")
        else:
            winner = 0 if p0_score > p1_score else 1
            logging.info(f"Game ends! Player {self.player_names[winner]} wins having control over "
                         f"{max(p0_score, p1_score)} blocks!")
        return True, p0_score, p1_score

    def check_boundary(self, pos):
        r, c = pos
        return 0 <= r < self.board_size and 0 <= c < self.board_size

    def set_barrier(self, r, c, dir):
        """Wall side `dir` of (r, c) and the facing side of the neighbour."""
        self.chess_board[r, c, dir] = True
        dr, dc = MOVES[dir]
        self.chess_board[r + dr, c + dc, OPPOSITES[dir]] = True

    def random_walk(self, my_pos, adv_pos):
        """The move the course plays for a player that failed: a random walk and a random free side."""
        # here: importing random_agent registers "random_agent"; only a substituted move needs it, so a
        # student's agent of that name still registers (agents/__init__.py)
        from agents.random_agent import random_step
        return random_step(self.chess_board, my_pos, adv_pos, self.max_step)

    def render(self, debug=False):
        """Draw the board with the UI engine (Matplotlib; nothing is shown in the grader)."""
        self.ui_engine.render(self.chess_board, self.p0_pos, self.p1_pos, debug=debug)
        time.sleep(self.display_delay)


if __name__ == "__main__":
    world = World()
    is_end, p0_score, p1_score = world.step()
    while not is_end:
        is_end, p0_score, p1_score = world.step()
    print(p0_score, p1_score)
