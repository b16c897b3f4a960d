package boardgame;

/** A player of any board game: its name (the student number) and the seat the server gave it. */
public abstract class Player {
    protected String name;
    public int player_id = -1;
    public int opponent_id = -1;

    public Player(String name) {
        setName(name);
    }

    /** Told when the game starts (the grader does not call it; the course's client printed `msg`). */
    public final void gameStarted(String msg) {
    }

    /** Told each move the server sends; the grader sends the position with every move instead. */
    public void movePlayed(BoardState board_state, Move move) {
    }

    /** The move for any board game's state; a game's player class casts it to its own state. */
    public abstract Move chooseMove(BoardState bs);

    /** The course's players may override this to see the game's end (the grader does not call it). */
    public void gameOver(String msg, BoardState bs) {
    }

    /** A board of this player's game, for replaying moves. */
    public abstract Board createBoard();

    /** Called by the server (here: the grader) before the first move. */
    public void setColor(int color) {
        player_id = color;
        opponent_id = 1 - color;
    }

    public final void setName(String s) {
        name = s == null || s.isEmpty() ? "<none>" : s;
    }

    public int getColor() {
        return player_id;
    }

    public String getName() {
        return name;
    }
}
