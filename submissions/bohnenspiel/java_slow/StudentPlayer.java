package student_player;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/**
 * A student's player that thinks too long: 1.2 s of CPU on its third move, 3 s on its fifth. With the
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
        think(delay);
        return board_state.getLegalMoves().get(0);
    }

    /** Search for `millis` of this thread's CPU time (late on the CPU clock and on the wall clock alike). */
    private static void think(long millis) {
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = cpu.getCurrentThreadCpuTime() + millis * 1_000_000L;
        double x = 0;
        while (cpu.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x += Math.sqrt(i);
            }
        }
        if (x < 0) {
            System.out.println(x);
        }
    }
}
