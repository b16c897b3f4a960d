package bohnenspiel;

import java.util.ArrayList;
import java.util.Random;

import boardgame.BoardState;
import boardgame.Move;

/**
 * A Bohnenspiel position with the course's methods; `move` changes it, `clone` copies it.
 * The rules are the grader's (rulesets/bohnenspiel/README.md): one lap of sowing from the chosen
 * pit, a backward capture chain of 2, 4 or 6 beans, two skips per player (never right after the
 * opponent's skip), the game ends when the player to move has no legal move (the beans left go to
 * the player who just moved) or once player 1's 201st move is made.
 */
public class BohnenspielBoardState extends BoardState {

    public static final int BOARD_WIDTH = 3;
    public static final int MAX_TURN = 200;
    public static final int MAX_TURN_LENGTH = 200;
    public static final int DRAW = Integer.MAX_VALUE;
    public static final int NOBODY = Integer.MAX_VALUE - 1;
    public static final int CANCELLED0 = Integer.MAX_VALUE - 2;
    public static final int CANCELLED1 = Integer.MAX_VALUE - 3;

    static final int PITS = 2 * BOARD_WIDTH;
    static final int SKIPS = 2;
    private static final Random RANDOM = new Random();

    int[][] pits = new int[2][PITS];
    int[] score = new int[2];
    int[] skipCredit = {SKIPS, SKIPS};
    int[] turnsToSkip = new int[2];
    int turn_player = 0;
    int turn_number = 0;
    int winner = NOBODY;
    int maxTurn = MAX_TURN;

    /** The two directions around the board: CCW is the sowing direction. */
    public enum Direction { CCW, CW }

    /** The start position: 6 beans in every pit, player 0 to move. */
    public BohnenspielBoardState() {
        for (int[] row : pits) {
            java.util.Arrays.fill(row, 6);
        }
    }

    /** A position given in full, as the course's constructor took it (the arrays are copied). */
    public BohnenspielBoardState(int[][] board, int turn_number, int winner, int turn_player, int first_player,
                                 int[] score, int[] skipCredit, int[] turnsToSkip) {
        this.pits = new int[][] {java.util.Arrays.copyOf(board[0], PITS), java.util.Arrays.copyOf(board[1], PITS)};
        this.turn_number = turn_number;
        this.winner = winner;
        this.turn_player = turn_player;
        this.score = score.clone();
        this.skipCredit = skipCredit.clone();
        this.turnsToSkip = turnsToSkip.clone();
    }

    /** Always true: a state is complete from its construction. */
    @Override
    public boolean isInitialized() {
        return true;
    }

    /** Ends the game with this result (the course's server used it when a player failed). */
    @Override
    public void setWinner(int winner) {
        this.winner = winner;
    }

    // ---- turn and result ---------------------------------------------------------------------
    @Override
    public int getTurnPlayer() {
        return turn_player;
    }

    @Override
    public int getTurnNumber() {
        return turn_number;
    }

    /** 0 or 1, DRAW, or NOBODY while the game goes on. */
    @Override
    public int getWinner() {
        return winner;
    }

    @Override
    public boolean gameOver() {
        return winner != NOBODY;
    }

    @Override
    public int firstPlayer() {
        return 0;
    }

    // ---- position ----------------------------------------------------------------------------
    /** The live board: changing the array changes this state, as in the course's code. */
    public int[][] getPits() {
        return pits;
    }

    @Override
    public int getScore(int player) {
        return score[player];
    }

    /** Skips `player` has left. */
    public int getCredit(int player) {
        return skipCredit[player];
    }

    // ---- moves -------------------------------------------------------------------------------
    /** Own non-empty pits ascending, then a skip if allowed; each for the player to move. */
    public ArrayList<BohnenspielMove> getLegalMoves() {
        ArrayList<BohnenspielMove> moves = new ArrayList<>();
        if (gameOver()) {
            return moves;
        }
        addMovesOf(turn_player, moves);
        return moves;
    }

    private void addMovesOf(int player, ArrayList<BohnenspielMove> moves) {
        for (int i = 0; i < PITS; i++) {
            if (pits[player][i] > 0) {
                moves.add(new BohnenspielMove(i, player));
            }
        }
        if (skipCredit[player] > 0 && turnsToSkip[player] == 0) {
            moves.add(new BohnenspielMove("skip", player));
        }
    }

    private boolean hasMoves(int player) {
        ArrayList<BohnenspielMove> moves = new ArrayList<>();
        addMovesOf(player, moves);
        return !moves.isEmpty();
    }

    public boolean isLegal(BohnenspielMove m) {
        return whyIllegal(m) == null;
    }

    String whyIllegal(Move move) {
        if (!(move instanceof BohnenspielMove)) {
            return "not a BohnenspielMove";
        }
        BohnenspielMove m = (BohnenspielMove) move;
        if (gameOver()) {
            return "the game is over";
        }
        if (m.player_id != -1 && m.player_id != turn_player) {
            return "it is player " + turn_player + "'s turn";
        }
        switch (m.move_type) {
            case SKIP:
                if (skipCredit[turn_player] <= 0) {
                    return "no skip left";
                }
                return turnsToSkip[turn_player] != 0 ? "no skip right after the opponent's skip" : null;
            case PIT:
                if (m.pit < 0 || m.pit >= PITS) {
                    return "no pit " + m.pit;
                }
                return pits[turn_player][m.pit] == 0 ? "pit " + m.pit + " is empty" : null;
            default:
                return "NOTHING is never legal";
        }
    }

    @Override
    public BohnenspielMove getRandomMove() {
        ArrayList<BohnenspielMove> moves = getLegalMoves();
        return moves.get(RANDOM.nextInt(moves.size()));
    }

    /** The next pit of the cycle ("CCW", the sowing direction) or the previous one ("CW"). */
    public int getNextPit(int pit, String direction) {
        return getNextPit(pit, "CW".equalsIgnoreCase(direction) ? Direction.CW : Direction.CCW);
    }

    public int getNextPit(int pit, Direction direction) {
        int step = direction == Direction.CW ? -1 : 1;
        return ((pit + step) % PITS + PITS) % PITS;
    }

    // ---- simulation --------------------------------------------------------------------------
    /** Plays `move` (one without a player id is the mover's); IllegalArgumentException if illegal. */
    public boolean move(Move move) {
        String why = whyIllegal(move);
        if (why != null) {
            throw new IllegalArgumentException("Invalid move for current context (" + why + "). Move: "
                    + (move == null ? "null" : move.toPrettyString()));
        }
        BohnenspielMove m = (BohnenspielMove) move;
        int p = turn_player;
        if (m.move_type == BohnenspielMove.MoveType.SKIP) {
            skipCredit[p]--;
            turnsToSkip[1 - p] = 1;
        } else {
            sowAndCapture(p, m.pit);
            turnsToSkip[p] = 0;
        }
        if (p == 1) {
            turn_number++;
        }
        turn_player = 1 - p;
        updateWinner();
        return true;
    }

    private void sowAndCapture(int p, int start) {
        int beans = pits[p][start];
        pits[p][start] = 0;
        int side = p;
        int i = start;
        for (int b = 0; b < beans; b++) {
            if (++i == PITS) {
                i = 0;
                side = 1 - side;
            }
            pits[side][i]++;
        }
        while (pits[side][i] == 2 || pits[side][i] == 4 || pits[side][i] == 6) {
            score[p] += pits[side][i];
            pits[side][i] = 0;
            if (--i < 0) {
                i = PITS - 1;
                side = 1 - side;
            }
        }
    }

    private void updateWinner() {
        if (winner != NOBODY) {
            return;
        }
        int next = turn_player;
        if (!hasMoves(next)) {
            for (int[] row : pits) {
                for (int i = 0; i < PITS; i++) {
                    score[1 - next] += row[i];
                    row[i] = 0;
                }
            }
        } else if (turn_number <= maxTurn) {
            return;
        }
        winner = score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : DRAW;
    }

    @Override
    public BohnenspielBoardState clone() {
        BohnenspielBoardState c = new BohnenspielBoardState();
        c.pits = new int[][] {pits[0].clone(), pits[1].clone()};
        c.score = score.clone();
        c.skipCredit = skipCredit.clone();
        c.turnsToSkip = turnsToSkip.clone();
        c.turn_player = turn_player;
        c.turn_number = turn_number;
        c.winner = winner;
        c.maxTurn = maxTurn;
        return c;
    }

    @Override
    public String toString() {
        return "Bohnenspiel board:\nPlayer 0: " + row(0) + "\nPlayer 1: " + row(1) + "\nNext to play: " + turn_player
                + "\nScores: " + score[0] + " / " + score[1] + "\nSkips left: " + skipCredit[0] + " / "
                + skipCredit[1] + "\nTurns played: " + turn_number;
    }

    private String row(int p) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < PITS; i++) {
            s.append(i == 0 ? "" : ",").append(pits[p][i]);
        }
        return s.toString();
    }
}
