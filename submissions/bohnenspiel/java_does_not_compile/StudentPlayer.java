package student_player;

import java.util.ArrayList;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/** A student's player with two mistakes javac reports: a method the API lacks, a wrong type. */
public class StudentPlayer extends BohnenspielPlayer {

    public StudentPlayer() {
        super("260000012");
    }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        ArrayList<BohnenspielMove> moves = board_state.getAllMoves();
        int best = moves.get(0);
        return moves.get(best);
    }
}
