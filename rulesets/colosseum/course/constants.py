"""The course's `constants` module (COMP 424 Winter 2022), as student code imports it."""

# board sizes the course's World draws from when none is given: randint(5, 10), i.e. 5..9
MIN_BOARD_SIZE = 5
MAX_BOARD_SIZE = 10

AGENT_NOT_FOUND_MSG = (
    "Check if you have used the decorator @register_agent to register your agent!"
)

# sides of a cell, the last index of chess_board[r, c, d]
DIRECTION_UP = 0
DIRECTION_RIGHT = 1
DIRECTION_DOWN = 2
DIRECTION_LEFT = 3

PLAYER_1_ID = 0
PLAYER_2_ID = 1
PLAYER_1_NAME = "A"
PLAYER_2_NAME = "B"
PLAYER_1_COLOR = "tab:blue"
PLAYER_2_COLOR = "tab:brown"
