package grader_shim;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Java program with a console of its own (a menu, prompts), as sandbox/console_shim.py runs a
 * Python one: the class Main runs in a thread of this JVM, System.in fed line by line by "send",
 * System.out and System.err captured. Each call returns once the program blocks reading its input
 * (known exactly: the input stream says so before it waits) or ends. Replies have the console
 * shim's shape: {"output", "waiting", "exited", "exit_code", "error"}. Knows nothing about games.
 */
public final class ConsoleHandler implements Handler {
    static final int OUTPUT_CHARS = 8000;

    private final Object lock = new Object();
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private byte[] input = new byte[0];
    private int read = 0;
    private boolean waiting = false;
    private boolean done = false;
    private Integer exitCode = null;
    private String error = null;
    private Thread thread = null;

    @Override
    public void open(Map<String, Object> options) {
    }

    @Override
    public Object call(String method, Map<String, Object> args) throws Exception {
        switch (method) {
            case "interface":
                return new ArrayList<String>();
            case "launch":
                return launch(args.get("argv"));
            case "send":
                return send(String.valueOf(args.get("line")));
            default:
                throw new IllegalArgumentException("unknown method " + method);
        }
    }

    private Map<String, Object> launch(Object argv) throws Exception {
        if (thread != null) {
            throw new IllegalStateException("the program was already launched in this process");
        }
        List<String> list = new ArrayList<>();
        if (argv instanceof List) {
            for (Object a : (List<?>) argv) {
                list.add(String.valueOf(a));
            }
        }
        String[] arguments = list.toArray(new String[0]);
        Method main = Class.forName("Main").getMethod("main", String[].class);
        stopExits();
        PrintStream out = new PrintStream(new Capture(), true, StandardCharsets.UTF_8);
        System.setIn(new Feed());
        System.setOut(out);
        System.setErr(out);
        thread = new Thread(() -> {
            int code = 0;
            String why = null;
            try {
                main.invoke(null, (Object) arguments);
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause() == null ? e : e.getCause();
                if (t instanceof Exit) {
                    code = ((Exit) t).status;
                } else {
                    t.printStackTrace(out);
                    code = 1;
                    why = (t.getClass().getName() + ": " + (t.getMessage() == null ? "" : t.getMessage()));
                }
            } catch (Throwable t) {
                code = 1;
                why = t.toString();
            }
            out.flush();
            synchronized (lock) {
                done = true;
                exitCode = code;
                error = why == null ? null : why.substring(0, Math.min(500, why.length()));
                lock.notifyAll();
            }
        }, "student-program");
        thread.setDaemon(true);
        thread.start();
        return settle();
    }

    private Map<String, Object> send(String line) throws InterruptedException {
        if (thread == null) {
            throw new IllegalStateException("the program was not launched");
        }
        synchronized (lock) {
            if (!done) {
                byte[] more = (line + "\n").getBytes(StandardCharsets.UTF_8);
                byte[] joined = new byte[input.length - read + more.length];
                System.arraycopy(input, read, joined, 0, input.length - read);
                System.arraycopy(more, 0, joined, input.length - read, more.length);
                input = joined;
                read = 0;
                waiting = false;
                lock.notifyAll();
            }
        }
        return settle();
    }

    /** System.exit from the program ends the program, not the JVM that reports it (as SystemExit in
     *  the Python console shim): the exit becomes an Exit thrown in the program's thread. */
    @SuppressWarnings("removal")
    private void stopExits() {
        try {
            installExitGuard();
        } catch (UnsupportedOperationException e) {      // a JDK that disallows it: an exit ends the JVM
            System.err.println("console: System.exit cannot be intercepted on this JDK: " + e);
        }
    }

    @SuppressWarnings("removal")
    private void installExitGuard() {
        System.setSecurityManager(new SecurityManager() {
            @Override
            public void checkPermission(java.security.Permission perm) {
            }

            @Override
            public void checkPermission(java.security.Permission perm, Object context) {
            }

            @Override
            public void checkExit(int status) {
                if (Thread.currentThread() == thread) {
                    throw new Exit(status);
                }
            }
        });
    }

    /** The program called System.exit(status). */
    private static final class Exit extends SecurityException {
        private static final long serialVersionUID = 1L;
        final int status;

        Exit(int status) {
            super("System.exit(" + status + ")");
            this.status = status;
        }
    }

    /** Wait until the program waits for input or has ended; what it printed meanwhile. */
    private Map<String, Object> settle() throws InterruptedException {
        synchronized (lock) {
            while (!waiting && !done) {
                lock.wait();
            }
            String text = captured.toString(StandardCharsets.UTF_8);
            captured.reset();
            if (text.length() > OUTPUT_CHARS) {
                text = "[" + (text.length() - OUTPUT_CHARS) + " earlier characters of output trimmed]\n"
                        + text.substring(text.length() - OUTPUT_CHARS);
            }
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("output", text);
            reply.put("waiting", waiting && !done);
            reply.put("exited", done);
            reply.put("exit_code", exitCode);
            reply.put("error", error);
            return reply;
        }
    }

    /** The program's standard output and error. */
    private final class Capture extends OutputStream {
        @Override
        public void write(int b) {
            synchronized (lock) {
                if (captured.size() < 4 * OUTPUT_CHARS) {
                    captured.write(b);
                }
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (lock) {
                int room = Math.max(0, 4 * OUTPUT_CHARS - captured.size());
                captured.write(b, off, Math.min(len, room));
            }
        }
    }

    /** The program's standard input: the lines sent so far; says it waits before it blocks. */
    private final class Feed extends InputStream {
        @Override
        public int read() throws java.io.IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
            if (len == 0) {
                return 0;
            }
            synchronized (lock) {
                while (read >= input.length) {
                    waiting = true;
                    lock.notifyAll();
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException();
                    }
                }
                int n = Math.min(len, input.length - read);
                System.arraycopy(input, read, b, off, n);
                read += n;
                return n;
            }
        }

        @Override
        public int available() {
            synchronized (lock) {
                return input.length - read;
            }
        }
    }
}
