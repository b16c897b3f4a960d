package boardgame;

/**
 * The course's server-side view of any board game (the grader plays that part itself): who is to
 * move, moves from text, a random legal move, the result. Players may make one to replay moves
 * (`bohnenspiel.BohnenspielBoard`); a board's state is what `getBoardState()` returns.
 */
public abstract class Board implements Cloneable {
    public static final int DRAW = Integer.MAX_VALUE;
    public static final int NOBODY = Integer.MAX_VALUE - 1;
    public static final int CANCELLED0 = Integer.MAX_VALUE - 2;
    public static final int CANCELLED1 = Integer.MAX_VALUE - 3;
    /** getTurnPlayer()'s answer when the environment, not a player, moves next. */
    public static final int BOARD = Integer.MAX_VALUE;

    public abstract int getWinner();

    public abstract int getScore(int player);

    public abstract void forceWinner(int win);

    public abstract int getTurnPlayer();

    public abstract int getTurnNumber();

    /** The environment's move; games without one (Bohnenspiel) never ask for it. */
    public Move getBoardMove() {
        throw new UnsupportedOperationException("this game has no moves of its own");
    }

    /** The moves to play for `m` (by default `m` itself). */
    public Object filterMove(Move m) throws IllegalArgumentException {
        return m;
    }

    public abstract void move(Move m) throws IllegalArgumentException;

    public abstract BoardState getBoardState();

    public abstract String getNameForID(int player_id);

    public abstract int getIDForName(String s);

    public abstract int getNumberOfPlayers();

    public abstract Move parseMove(String str) throws NumberFormatException, IllegalArgumentException;

    @Override
    public abstract Object clone();

    public abstract Move getRandomMove();

    /** The course's display; the grader shows boards itself, so this panel draws nothing. */
    public BoardPanel createBoardPanel() {
        return new BoardPanel();
    }
}
