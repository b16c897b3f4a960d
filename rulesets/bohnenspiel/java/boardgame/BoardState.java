package boardgame;

/** The state of any board game, as players receive it (BohnenspielBoardState for this game). */
public abstract class BoardState implements Cloneable {
    public abstract boolean isInitialized();

    public abstract int getTurnPlayer();

    public abstract int getTurnNumber();

    public abstract int getWinner();

    public abstract void setWinner(int winner);

    public abstract int firstPlayer();

    public abstract boolean gameOver();

    public abstract Move getRandomMove();

    public abstract int getScore(int player);

    @Override
    public abstract Object clone();
}
