package bohnenspiel;

import boardgame.Board;
import boardgame.BoardState;
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

    /** A fresh board of this game (the course's client kept one to replay the server's moves). */
    @Override
    public Board createBoard() {
        return new BohnenspielBoard();
    }

    /** Casts the state to this game's type: students implement the method below. */
    @Override
    public final Move chooseMove(BoardState bs) {
        return chooseMove((BohnenspielBoardState) bs);
    }

    /** The move to play in `board_state` (a private copy of the position; change it at will). */
    public abstract Move chooseMove(BohnenspielBoardState board_state);
}
