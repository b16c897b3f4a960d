package student_player;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/**
 * A student's player that thinks too long: 1.2 s on its third move, 3 s on its fifth. With the
 * course's limits (0.7 s, then a 1 s cushion) the third is late (a random move is played for it)
 * and the fifth is beyond the cushion (the player is stopped and loses). Otherwise the first legal move.
 */
public class StudentPlayer extends BohnenspielPlayer {
    private int movesMade = 0;

    public StudentPlayer() {
        super("260000013");
    }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        movesMade++;
        long delay = movesMade == 3 ? 1200 : movesMade == 5 ? 3000 : 0;
        try {
            Thread.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return board_state.getLegalMoves().get(0);
    }
}
