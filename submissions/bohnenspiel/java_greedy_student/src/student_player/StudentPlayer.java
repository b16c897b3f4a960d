package student_player;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;
import student_player.mytools.MyTools;

/** A student's greedy agent, uploaded as the course's src/ folder: one ply, best score difference. */
public class StudentPlayer extends BohnenspielPlayer {

    public StudentPlayer() {
        super("260000011");
    }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        BohnenspielMove best = null;
        int bestGain = Integer.MIN_VALUE;
        for (BohnenspielMove move : board_state.getLegalMoves()) {
            BohnenspielBoardState after = (BohnenspielBoardState) board_state.clone();
            after.move(move);
            int gain = MyTools.scoreDifference(after, player_id, opponent_id);
            if (gain > bestGain) {
                best = move;
                bestGain = gain;
            }
        }
        return best;
    }
}
