package bohnenspiel;

import boardgame.Move;

/** A Bohnenspiel move: play a pit, skip, or the degenerate NOTHING (never legal). */
public class BohnenspielMove extends Move {

    public enum MoveType { PIT, SKIP, NOTHING }

    int player_id = -1;
    int pit;
    MoveType move_type;
    boolean from_board = false;

    /** NOTHING. */
    public BohnenspielMove() {
        move_type = MoveType.NOTHING;
    }

    /** Play `pit` (0..5) for whoever is to move. */
    public BohnenspielMove(int pit) {
        this.pit = pit;
        move_type = MoveType.PIT;
    }

    public BohnenspielMove(int pit, int player_id) {
        this(pit);
        this.player_id = player_id;
    }

    /** A skip for `player_id`, whatever the text says (as in the course's code). */
    public BohnenspielMove(String skip, int player_id) {
        this.player_id = player_id;
        move_type = MoveType.SKIP;
    }

    /** Parses the transport form: "PIT <player> <pit>", "SKIP <player>" or "NOTHING <player>". */
    public BohnenspielMove(String transport) {
        String[] words = transport.trim().split("\\s+");
        try {
            move_type = MoveType.valueOf(words[0].toUpperCase());
            if (words.length > 1) {
                player_id = Integer.parseInt(words[1]);
            }
            if (move_type == MoveType.PIT) {
                pit = Integer.parseInt(words[2]);
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a Bohnenspiel move: \"" + transport + "\"");
        }
    }

    public MoveType getMoveType() {
        return move_type;
    }

    public int getPit() {
        return pit;
    }

    @Override
    public int getPlayerID() {
        return player_id;
    }

    @Override
    public void setPlayerID(int player_id) {
        this.player_id = player_id;
    }

    @Override
    public void setFromBoard(boolean from_board) {
        this.from_board = from_board;
    }

    public boolean getFromBoard() {
        return from_board;
    }

    /** The course logged pit moves only. */
    @Override
    public boolean doLog() {
        return move_type == MoveType.PIT;
    }

    @Override
    public String toTransportable() {
        if (move_type == MoveType.PIT) {
            return "PIT " + player_id + " " + pit;
        }
        return move_type.name() + " " + player_id;
    }

    @Override
    public String toPrettyString() {
        switch (move_type) {
            case PIT:
                return "Player " + player_id + " plays pit " + pit;
            case SKIP:
                return "Player " + player_id + " skips turn.";
            default:
                return "Player " + player_id + " ends turn.";
        }
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof BohnenspielMove)) {
            return false;
        }
        BohnenspielMove m = (BohnenspielMove) other;
        return m.move_type == move_type && m.player_id == player_id && (move_type != MoveType.PIT || m.pit == pit);
    }

    @Override
    public int hashCode() {
        return (move_type.ordinal() * 31 + player_id) * 31 + (move_type == MoveType.PIT ? pit : 0);
    }
}
