package boardgame;

/** The course server's time limits, which student players read as constants (milliseconds). */
public final class Server {
    public static final int DEFAULT_TIMEOUT = 700;
    public static final int FIRST_MOVE_TIMEOUT = 30000;
    protected static final int DEFAULT_PORT = 8123;
    /** Where the course's server wrote its game logs (the grader keeps its own records). */
    public static String log_dir = "logs";

    private Server() {
    }
}
