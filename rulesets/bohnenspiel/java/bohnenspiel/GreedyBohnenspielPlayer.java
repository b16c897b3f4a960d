package bohnenspiel;

import java.util.ArrayList;

import boardgame.Move;

/** Plays the legal move after which its own score is highest; ties go to the first in legal-move order. */
public class GreedyBohnenspielPlayer extends BohnenspielPlayer {

    public GreedyBohnenspielPlayer() {
        super("GreedyPlayer");
    }

    public GreedyBohnenspielPlayer(String name) {
        super(name);
    }

    @Override
    public Move chooseMove(BohnenspielBoardState board_state) {
        ArrayList<BohnenspielMove> moves = board_state.getLegalMoves();
        BohnenspielMove best = moves.get(0);
        int bestScore = -1;
        for (BohnenspielMove move : moves) {
            BohnenspielBoardState next = (BohnenspielBoardState) board_state.clone();
            next.move(move);
            int score = next.getScore(player_id);
            if (score > bestScore) {
                best = move;
                bestScore = score;
            }
        }
        return best;
    }
}
