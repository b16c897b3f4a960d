import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Connect Four referee: the grader's trusted rules, as a program speaking JSON lines
 * (docs/NEW_GAME.md, "A referee in any language"). One request a line, one reply a line:
 *   {"cmd":"new","seed":S,"params":{"rows":6,"cols":7}} -> a status
 *   {"cmd":"play","move":M}   -> a status, or {"illegal":"why"} (the position unchanged)
 *   {"cmd":"legal"}           -> {"moves":[...]}
 *   {"cmd":"picture"}         -> {"text":"...","svg":"<svg ...>"}
 * A status: {"to_move":0|1|null,"position":{...what a player is shown...},"outcome":null|{...}}.
 */
public class Main {
    static int rows = 6, cols = 7;
    static int[][] board;           // board[r][c]: 0 empty, 1 seat 0, 2 seat 1; row 0 is the bottom
    static int toMove, plies;
    static int winner = -1;         // -1 none yet, 0/1 a seat, 2 a draw

    static final Pattern INT = Pattern.compile("\"(\\w+)\"\\s*:\\s*(-?\\d+)");
    static final Pattern CMD = Pattern.compile("\"cmd\"\\s*:\\s*\"(\\w+)\"");
    static final Pattern MOVE = Pattern.compile("\"move\"\\s*:\\s*(.*)}\\s*$");

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            System.out.println(answer(line));
            System.out.flush();
        }
    }

    static String answer(String line) {
        Matcher m = CMD.matcher(line);
        String cmd = m.find() ? m.group(1) : "";
        switch (cmd) {
            case "new": return start(line);
            case "play": return play(line);
            case "legal": return legal();
            case "picture": return picture();
            default: return "{\"error\":\"unknown command\"}";
        }
    }

    static String start(String line) {
        rows = 6; cols = 7;
        Matcher m = INT.matcher(line);
        while (m.find()) {
            if (m.group(1).equals("rows")) rows = Integer.parseInt(m.group(2));
            if (m.group(1).equals("cols")) cols = Integer.parseInt(m.group(2));
        }
        board = new int[rows][cols];
        toMove = 0; plies = 0; winner = -1;
        return status();
    }

    static String play(String line) {
        Matcher m = MOVE.matcher(line);
        String raw = m.find() ? m.group(1).trim() : "";
        if (winner >= 0) return illegal("the game is over.");
        int col;
        try {
            col = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return illegal("a move is a column number from 0 to " + (cols - 1) + ", not " + raw + ".");
        }
        if (col < 0 || col >= cols) return illegal("column " + col + " is off the board (columns 0 to " + (cols - 1) + ").");
        int r = 0;
        while (r < rows && board[r][col] != 0) r++;
        if (r == rows) return illegal("column " + col + " is full.");
        board[r][col] = toMove + 1;
        plies++;
        if (wins(r, col)) winner = toMove;
        else if (plies == rows * cols) winner = 2;
        toMove = 1 - toMove;
        return status();
    }

    static boolean wins(int r, int c) {
        int p = board[r][c];
        int[][] dirs = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : dirs) {
            int n = 1;
            for (int s = -1; s <= 1; s += 2) {
                int rr = r + s * d[0], cc = c + s * d[1];
                while (rr >= 0 && rr < rows && cc >= 0 && cc < cols && board[rr][cc] == p) {
                    n++; rr += s * d[0]; cc += s * d[1];
                }
            }
            if (n >= 4) return true;
        }
        return false;
    }

    static List<Integer> moves() {
        List<Integer> out = new ArrayList<>();
        if (winner >= 0) return out;
        for (int c = 0; c < cols; c++) if (board[rows - 1][c] == 0) out.add(c);
        return out;
    }

    static String legal() {
        return "{\"moves\":" + moves() .toString().replace(" ", "") + "}";
    }

    static String status() {
        StringBuilder b = new StringBuilder("{\"to_move\":").append(winner >= 0 ? "null" : String.valueOf(toMove));
        b.append(",\"position\":{\"rows\":").append(rows).append(",\"cols\":").append(cols).append(",\"board\":[");
        for (int r = 0; r < rows; r++) {
            b.append(r > 0 ? ",[" : "[");
            for (int c = 0; c < cols; c++) b.append(c > 0 ? "," : "").append(board[r][c] - 1 < 0 ? -1 : board[r][c] - 1);
            b.append("]");
        }
        b.append("],\"to_move\":").append(winner >= 0 ? "null" : String.valueOf(toMove)).append("},\"outcome\":");
        if (winner < 0) return b.append("null}").toString();
        String points = winner == 2 ? "[0.5,0.5]" : winner == 0 ? "[1,0]" : "[0,1]";
        String detail = winner == 2 ? "The board is full: a draw." : "Player " + (winner + 1) + " connected four.";
        return b.append("{\"points\":").append(points).append(",\"scores\":").append(points)
                .append(",\"reason\":\"").append(winner == 2 ? "board_full" : "four").append("\",\"detail\":\"")
                .append(detail).append("\"}}").toString();
    }

    static String picture() {
        StringBuilder text = new StringBuilder();
        int cell = 40;
        StringBuilder svg = new StringBuilder("<svg xmlns='http://www.w3.org/2000/svg' width='" + cols * cell
                + "' height='" + rows * cell + "'><rect width='100%' height='100%' fill='#1d4ed8'/>");
        for (int r = rows - 1; r >= 0; r--) {
            for (int c = 0; c < cols; c++) {
                int p = board[r][c];
                text.append(p == 0 ? '.' : p == 1 ? 'X' : 'O');
                String fill = p == 0 ? "#ffffff" : p == 1 ? "#dc2626" : "#facc15";
                svg.append("<circle cx='").append(c * cell + cell / 2).append("' cy='").append((rows - 1 - r) * cell + cell / 2)
                   .append("' r='").append(cell / 2 - 4).append("' fill='").append(fill).append("'/>");
            }
            text.append("\\n");
        }
        svg.append("</svg>");
        return "{\"text\":\"" + text + "\",\"svg\":\"" + svg + "\"}";
    }

    static String illegal(String why) {
        return "{\"illegal\":\"" + why.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }
}
