package bohnenspiel;

import boardgame.Move;

/** Plays a uniformly random legal move. */
public class RandomBohnenspielPlayer extends BohnenspielPlayer {

    public RandomBohnenspielPlayer() {
        super("RandomPlayer");
    }

    public RandomBohnenspielPlayer(String name) {
        super(name);
    }

    @Override
    public Move chooseMove(BohnenspielBoardState board_state) {
        return board_state.getRandomMove();
    }
}
