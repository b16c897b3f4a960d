package bohnenspiel;

import boardgame.Move;
import boardgame.Player;

/** Every Bohnenspiel player: the constructor takes the name (student number) and does nothing else. */
public abstract class BohnenspielPlayer extends Player {

    public BohnenspielPlayer() {
        this("HusPlayer");
    }

    public BohnenspielPlayer(String name) {
        super(name);
    }

    /** The move to play in `board_state` (a private copy of the position; change it at will). */
    public abstract Move chooseMove(BohnenspielBoardState board_state);
}
