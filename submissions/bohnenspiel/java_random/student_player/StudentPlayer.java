package student_player;

import java.util.ArrayList;
import java.util.Random;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/** A random player in the course's layout: picks any legal move. */
public class StudentPlayer extends BohnenspielPlayer {
    private final Random random = new Random();

    public StudentPlayer() {
        super("260000001");
    }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        ArrayList<BohnenspielMove> moves = board_state.getLegalMoves();
        return moves.get(random.nextInt(moves.size()));
    }
}
