package student_player;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import bohnenspiel.BohnenspielPlayer;

/**
 * A student's player that reads data/pit_weights.csv on its first move (allowed) and again on its
 * second (forbidden: "files may be read only during the first turn"). The sandbox makes data/
 * unreadable after the first reply, so the second read fails and the player throws, which the
 * grader reports (the game is lost). Outside the sandbox both reads succeed.
 */
public class StudentPlayer extends BohnenspielPlayer {
    private int movesMade = 0;
    private Map<Integer, Double> weights;

    public StudentPlayer() {
        super("260000014");
    }

    private static Map<Integer, Double> readWeights() throws IOException {
        Map<Integer, Double> out = new HashMap<>();
        try (BufferedReader in = new BufferedReader(new FileReader("data/pit_weights.csv"))) {
            in.readLine();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] cells = line.trim().split(",");
                out.put(Integer.parseInt(cells[0]), Double.parseDouble(cells[1]));
            }
        }
        return out;
    }

    public BohnenspielMove chooseMove(BohnenspielBoardState board_state) {
        movesMade++;
        if (movesMade <= 2) {
            try {
                weights = readWeights();
            } catch (IOException e) {
                throw new RuntimeException("data/pit_weights.csv could not be read again on move " + movesMade
                        + ": " + e.getMessage());
            }
        }
        BohnenspielMove best = null;
        double bestValue = Double.NEGATIVE_INFINITY;
        for (BohnenspielMove move : board_state.getLegalMoves()) {
            BohnenspielBoardState after = (BohnenspielBoardState) board_state.clone();
            after.move(move);
            double value = after.getScore(player_id) - board_state.getScore(player_id);
            if (move.getMoveType() == BohnenspielMove.MoveType.PIT) {
                value += weights.getOrDefault(move.getPit(), 0.0);
            }
            if (value > bestValue) {
                best = move;
                bestValue = value;
            }
        }
        return best;
    }
}
