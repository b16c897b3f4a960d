package boardgame;

/** A move of any board game: who plays it, and its text forms (the course's wire and log formats). */
public abstract class Move {
    public abstract int getPlayerID();

    public abstract String toTransportable();

    public abstract String toPrettyString();

    @Override
    public String toString() {
        return toPrettyString();
    }
}
