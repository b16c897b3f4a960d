import java.io.BufferedReader;
import java.io.InputStreamReader;

/** A Connect Four player in Java: each turn one line (the position as JSON), one line back (a column).
 *  It plays the leftmost column that is not full, reading the top row of "board". */
public class Main {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null) {
            String board = line.substring(line.indexOf("\"board\":[") + 9);
            String[] rows = board.split("\\],\\[");
            String top = rows[rows.length - 1].replaceAll("[\\[\\]]", "");
            top = top.split("]")[0];
            String[] cells = top.split(",");
            int col = 0;
            for (int c = 0; c < cells.length; c++) {
                if (cells[c].trim().equals("-1")) { col = c; break; }
            }
            System.out.println(col);
            System.out.flush();
        }
    }
}
