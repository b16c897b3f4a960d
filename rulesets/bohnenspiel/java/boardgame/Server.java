package boardgame;

/** The course server's time limits, which student players read as constants (milliseconds). */
public final class Server {
    public static final int DEFAULT_TIMEOUT = 700;
    public static final int FIRST_MOVE_TIMEOUT = 30000;

    private Server() {
    }
}
