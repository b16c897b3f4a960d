"""The course's `ui` module: draws the board with Matplotlib (UIEngine).

Inside the grader Matplotlib uses the Agg backend and draws into memory: nothing is shown and
nothing is written, but code that builds or renders a UIEngine runs as it did in the course.
"""
import matplotlib.pyplot as plt

from constants import *  # noqa: F401,F403


class UIEngine:
    def __init__(self, grid_width=5, world=None) -> None:
        self.grid_size = (grid_width, grid_width)
        self.world = world
        plt.figure()
        plt.ion()

    def plot_box(self, x, y, w, text="", set_left_wall=False, set_right_wall=False, set_top_wall=False,
                 set_bottom_wall=False, color="silver"):
        """One cell at (x, y) of width w; walled sides are drawn in red, `text` in its middle."""
        sides = (([x, x], [y, y + w], set_left_wall), ([x, x + w], [y + w, y + w], set_top_wall),
                 ([x + w, x + w], [y, y + w], set_right_wall), ([x, x + w], [y, y], set_bottom_wall))
        for xs, ys, walled in sides:
            plt.plot(xs, ys, "-", lw=2, color="red" if walled else color)
        if text:
            face = {PLAYER_1_NAME: PLAYER_1_COLOR, PLAYER_2_NAME: PLAYER_2_COLOR}.get(text, "black")
            plt.text(x + w / 2, y + w / 2, text, ha="center", va="center", color="white",
                     bbox=dict(facecolor=face, edgecolor=face, boxstyle="round"))

    def plot_grid(self):
        for x in range(1, self.grid_size[0] * 2 + 1, 2):
            for y in range(1, self.grid_size[1] * 2 + 1, 2):
                self.plot_box(x, y, 2)

    def plot_game_boundary(self):
        self.plot_box(1, 3, self.grid_size[0] + self.grid_size[1], color="black")

    def plot_grid_with_board(self, chess_board, player_1_pos=None, player_2_pos=None, debug=False):
        """Row 0 at the top; each cell with its four walls and the players' letters."""
        rows, cols = self.grid_size
        for row in range(rows):
            y = 2 * (rows - row) - 1 + 2
            for col in range(cols):
                x = 2 * col + 1
                text = ""
                if player_1_pos is not None and tuple(player_1_pos) == (row, col):
                    text += PLAYER_1_NAME
                if player_2_pos is not None and tuple(player_2_pos) == (row, col):
                    text += PLAYER_2_NAME
                if debug:
                    text += f" {row},{col}"
                up, right, down, left = (bool(v) for v in chess_board[row, col])
                self.plot_box(x, y, 2, text=text, set_left_wall=left, set_right_wall=right,
                              set_top_wall=up, set_bottom_wall=down)

    def fix_axis(self):
        rows, cols = self.grid_size
        plt.xticks([2 * c + 2 for c in range(cols)], list(range(cols)))
        plt.yticks([2 * (rows - r) + 2 for r in range(rows)], list(range(rows)))
        plt.tick_params(bottom=False, labelbottom=False, top=True, labeltop=True)
        plt.xlabel("Y Position")
        plt.ylabel("X Position", position="top")

    def plot_text_info(self):
        if self.world is None:
            return
        turn = 1 - self.world.turn
        plt.figtext(0.15, 0.1, f"{PLAYER_1_NAME}: {self.world.p0}", color=PLAYER_1_COLOR,
                    fontweight="bold" if turn == 0 else "normal")
        plt.figtext(0.15, 0.05, f"{PLAYER_2_NAME}: {self.world.p1}", color=PLAYER_2_COLOR,
                    fontweight="bold" if turn == 1 else "normal")
        results = self.world.results_cache
        if results:
            plt.figtext(0.4, 0.1, f"Scores: A: [{results[1]}], B: [{results[2]}]")
            if results[0]:
                winner = PLAYER_1_NAME if results[1] > results[2] else PLAYER_2_NAME
                plt.figtext(0.4, 0.05, f"Player {winner} wins!", fontweight="bold", color="green")
        plt.figtext(0.7, 0.1, f"Max steps: {self.world.max_step}")

    def render(self, chess_board, p1_pos, p2_pos, debug=False):
        """Redraw the whole board."""
        plt.clf()
        self.plot_grid_with_board(chess_board, p1_pos, p2_pos, debug=debug)
        self.plot_game_boundary()
        self.fix_axis()
        self.plot_text_info()
        plt.subplots_adjust(bottom=0.2)
        plt.pause(0.1)
