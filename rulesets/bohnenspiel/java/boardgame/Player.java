package boardgame;

/** A player of any board game: its name (the student number) and the seat the server gave it. */
public abstract class Player {
    protected String name;
    public int player_id = -1;
    public int opponent_id = -1;

    public Player(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    /** Called by the server (here: the grader) before the first move. */
    public void setColor(int color) {
        player_id = color;
        opponent_id = 1 - color;
    }

    public int getColor() {
        return player_id;
    }

    /** The course's players may override this to see the game's end (the grader does not call it). */
    public void gameOver(String msg, BoardState bs) {
    }

    /** The move for any board game's state; a game's player class casts it to its own state. */
    public abstract Move chooseMove(BoardState bs);
}
