package boardgame;

/** A move of any board game: who plays it, and its text forms (the course's wire and log formats). */
public abstract class Move implements Cloneable {
    public abstract String toPrettyString();

    public abstract String toTransportable();

    public abstract int getPlayerID();

    public abstract void setPlayerID(int player_id);

    /** Whether the environment (not a player) made this move. */
    public abstract void setFromBoard(boolean from_board);

    /** The players this move is sent to; null: everyone. */
    public int[] getReceivers() {
        return null;
    }

    /** Whether the course's log file records this move. */
    public abstract boolean doLog();

    @Override
    public String toString() {
        return toPrettyString();
    }
}
