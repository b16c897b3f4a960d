package bohnenspiel;

import boardgame.Board;
import boardgame.BoardPanel;
import boardgame.BoardState;
import boardgame.Move;

/** The course's server-side board of Bohnenspiel: a BohnenspielBoardState and the Board methods. */
public class BohnenspielBoard extends Board {
    public static int BOARD_WIDTH = BohnenspielBoardState.BOARD_WIDTH;

    private final BohnenspielBoardState state;

    public BohnenspielBoard() {
        this(new BohnenspielBoardState());
    }

    private BohnenspielBoard(BohnenspielBoardState state) {
        this.state = state;
    }

    @Override
    public void move(Move m) throws IllegalArgumentException {
        state.move(m);
    }

    /** A copy: changing it leaves this board alone. */
    @Override
    public BoardState getBoardState() {
        return state.clone();
    }

    @Override
    public Move getRandomMove() {
        return state.getRandomMove();
    }

    @Override
    public int getWinner() {
        return state.getWinner();
    }

    @Override
    public int getScore(int player) {
        return state.getScore(player);
    }

    @Override
    public void forceWinner(int player_id) {
        state.setWinner(player_id);
    }

    @Override
    public int getTurnPlayer() {
        return state.getTurnPlayer();
    }

    @Override
    public int getTurnNumber() {
        return state.getTurnNumber();
    }

    @Override
    public String getNameForID(int p) {
        return "Player-" + p;
    }

    /** "Player-1" → 1. */
    @Override
    public int getIDForName(String s) {
        return Integer.parseInt(s.substring(s.lastIndexOf('-') + 1));
    }

    @Override
    public int getNumberOfPlayers() {
        return 2;
    }

    @Override
    public Move parseMove(String str) throws NumberFormatException, IllegalArgumentException {
        return new BohnenspielMove(str);
    }

    @Override
    public Object clone() {
        return new BohnenspielBoard(state.clone());
    }

    @Override
    public String toString() {
        return state.toString();
    }

    @Override
    public BoardPanel createBoardPanel() {
        return new BoardPanel();
    }
}
