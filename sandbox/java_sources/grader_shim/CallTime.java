package grader_shim;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * The current call's time, for a Java player or course API that tells the agent its time, as
 * sandbox/call_time.py is for a Python shim: read {@link #limitSeconds()} and
 * {@link #leftSeconds()} here instead of guessing.
 *
 * <p>The manager sends each call's soft limit, and the clock it is measured on, with the request
 * ({@code "time": {"limit_s", "clock"}}); Main notes them here before the bridge's method runs.
 * For the calls a first-move allowance covers (setup and the first move) the limit is what
 * remains of that allowance. {@link #leftSeconds()} counts on the player's own clock of the same
 * kind: {@code System.nanoTime} for "wall" (which, unlike a Python player's clock, also counts the
 * JVM's waits for a CPU, so it can only err early), the whole process's CPU time for "cpu" (all
 * threads, the JIT's and the collector's too, as the manager counts it). The JDK reads the
 * process's CPU time in clock ticks (10 ms on Linux): one tick is counted as used, so what is
 * left is never overstated.
 */
public final class CallTime {
    static final long TICK_NS = 10_000_000L;

    private static volatile Double limit = null;
    private static volatile String clock = "wall";
    private static volatile long start = 0L;

    private CallTime() {
    }

    /** Note a request's "time" field (nothing, or a malformed one, forgets the last call's). */
    static void begin(Object given) {
        Map<?, ?> time = given instanceof Map ? (Map<?, ?>) given : null;
        Object seconds = time == null ? null : time.get("limit_s");
        boolean ok = seconds instanceof Number;
        Object kind = ok ? time.get("clock") : null;
        clock = "cpu".equals(kind) ? "cpu" : "wall";
        limit = ok ? ((Number) seconds).doubleValue() : null;
        start = now(clock);
    }

    /** Seconds the current call may use (on {@link #clock()}), null outside a call that gave one. */
    public static Double limitSeconds() {
        return limit;
    }

    /** "wall" (the player's wall-clock time) or "cpu" (its process's CPU time). */
    public static String clock() {
        return clock;
    }

    /** Seconds the current call has left by the player's own clock (never below 0), null when no
     *  limit was given. */
    public static Double leftSeconds() {
        Double l = limit;
        if (l == null) {
            return null;
        }
        String c = clock;
        long used = now(c) - start + ("cpu".equals(c) ? TICK_NS : 0L);
        return Math.max(0.0, l - used / 1e9);
    }

    private static long now(String kind) {
        if ("cpu".equals(kind)) {
            return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        }
        return System.nanoTime();
    }
}
