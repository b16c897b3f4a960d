package boardgame;

/** The state of any board game, as players receive it (BohnenspielBoardState for this game). */
public abstract class BoardState implements Cloneable {
    public abstract int getTurnPlayer();

    public abstract int getWinner();

    public abstract boolean gameOver();

    @Override
    public abstract Object clone();
}
