"""A broken submission: when it moves first it sends garbage, otherwise a card hanging off the board."""


class Player:
    def __init__(self, role, first):
        self.first = first

    def opponent_move(self, move_text):
        pass

    def choose_move(self):
        if self.first:
            return "place my card in the corner"
        return "0 1 H 1"          # the second cell would be I1, outside the board
