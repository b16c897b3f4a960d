package student_player.mytools;

import bohnenspiel.BohnenspielBoardState;

/** Helpers in the course's student_player.mytools package. */
public class MyTools {
    public static int scoreDifference(BohnenspielBoardState board, int me, int opponent) {
        return board.getScore(me) - board.getScore(opponent);
    }
}
