"""The course's `simulator` module: runs games between registered agents (`Simulator`), and
`--autoplay` many games with a tqdm progress bar. Students import it to evaluate their agent."""
import argparse
import logging

import numpy as np
from tqdm import tqdm

from utils import all_logging_disabled
from world import PLAYER_1_NAME, PLAYER_2_NAME, World

logging.basicConfig(format="%(levelname)s:%(message)s", level=logging.INFO)
logger = logging.getLogger(__name__)


def get_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--player_1", type=str, default="random_agent")
    parser.add_argument("--player_2", type=str, default="random_agent")
    parser.add_argument("--board_size", type=int, default=None)
    parser.add_argument("--display", action="store_true", default=False)
    parser.add_argument("--display_delay", type=float, default=0.4)
    parser.add_argument("--autoplay", action="store_true", default=False)
    parser.add_argument("--autoplay_runs", type=int, default=1000)
    return parser.parse_args(argv)


class Simulator:
    """Plays games between args.player_1 and args.player_2 (names registered with @register_agent)."""

    def __init__(self, args):
        self.args = args

    def reset(self, swap_players=False):
        """A new World; one that starts already decided is drawn again."""
        p1, p2 = self.args.player_1, self.args.player_2
        if swap_players:
            p1, p2 = p2, p1
        while True:
            self.world = World(player_1=p1, player_2=p2, board_size=self.args.board_size,
                               display_ui=self.args.display, display_delay=self.args.display_delay,
                               autoplay=self.args.autoplay)
            if not self.world.initial_end:
                return
            logger.warning("Initialization failed! Reset the world again!")

    def run(self, swap_players=False):
        """One game; (player_1_score, player_2_score, player_1_seconds, player_2_seconds)."""
        self.reset(swap_players=swap_players)
        is_end, p0_score, p1_score = self.world.step()
        while not is_end:
            is_end, p0_score, p1_score = self.world.step()
        logger.info(f"Run finished. Player {PLAYER_1_NAME}: {p0_score}, Player {PLAYER_2_NAME}: {p1_score}")
        return p0_score, p1_score, self.world.p0_time, self.world.p1_time

    def autoplay(self):
        """args.autoplay_runs games, seats swapped every other game; logs each player's win rate."""
        wins = [0, 0]
        times = ([], [])
        self.args.display = False
        with all_logging_disabled():
            for i in tqdm(range(self.args.autoplay_runs)):
                swap = i % 2 == 0
                s0, s1, t0, t1 = self.run(swap_players=swap)
                if swap:
                    s0, s1, t0, t1 = s1, s0, t1, t0
                wins[0] += s0 >= s1
                wins[1] += s1 >= s0
                times[0].append(t0)
                times[1].append(t1)
        runs = self.args.autoplay_runs
        logger.info(f"Player {PLAYER_1_NAME} win percentage: {wins[0] / runs} "
                    f"({np.round(np.mean(times[0]), 5)} seconds/game)")
        logger.info(f"Player {PLAYER_2_NAME} win percentage: {wins[1] / runs} "
                    f"({np.round(np.mean(times[1]), 5)} seconds/game)")
        return wins[0] / runs, wins[1] / runs


if __name__ == "__main__":
    args = get_args()
    simulator = Simulator(args)
    if args.autoplay:
        simulator.autoplay()
    else:
        simulator.run()
