package grader_shim;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JVM side of the grader's wire protocol (sandbox/wire.py): a 4-byte big-endian length,
 * then UTF-8 JSON, requests on stdin and replies on the descriptor that was stdout. The sandbox
 * wrote the "ready" frame before it started the JVM. System.out is pointed at stderr (the
 * captured output) and System.in at an empty stream before any student class loads, so printing
 * or reading the console never touches the protocol. Each call's limit and clock (the request's
 * "time") are noted in CallTime before the handler runs.
 * Usage: java grader_shim.Main <handler class>.
 */
public final class Main {
    static final int MEMORY_EXIT = 75;     // as sandbox/wire.py: the player ran out of memory

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        DataInputStream in = new DataInputStream(new FileInputStream(FileDescriptor.in));
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        System.setIn(new java.io.ByteArrayInputStream(new byte[0]));   // a Scanner(System.in) must not eat requests
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (e instanceof OutOfMemoryError) {
                Runtime.getRuntime().halt(MEMORY_EXIT);
            }
            e.printStackTrace();
        });
        try {
            serve(args[0], in, out);
        } catch (OutOfMemoryError e) {
            Runtime.getRuntime().halt(MEMORY_EXIT);
        }
        Runtime.getRuntime().halt(0);
    }

    @SuppressWarnings("unchecked")
    private static void serve(String handlerClass, DataInputStream in, OutputStream out) throws IOException {
        String keep = System.getenv("GRADER_KEEP_READABLE");      // set when some files are first-turn only
        boolean firstTurnPending = keep != null;
        Handler handler = null;
        String openError = "the submission was not opened";
        while (true) {
            Map<String, Object> msg;
            try {
                byte[] body = new byte[in.readInt()];
                in.readFully(body);
                msg = (Map<String, Object>) Json.parse(new String(body, StandardCharsets.UTF_8));
            } catch (EOFException e) {
                return;
            }
            Map<String, Object> reply = new LinkedHashMap<>();
            try {
                if (msg.containsKey("open")) {
                    try {
                        Handler h = (Handler) Class.forName(handlerClass).getDeclaredConstructor().newInstance();
                        Object options = msg.get("open");
                        h.open(options instanceof Map ? (Map<String, Object>) options : new LinkedHashMap<>());
                        handler = h;
                        reply.put("ok", null);
                    } catch (Throwable e) {
                        reply = errorReply(e);
                        openError = "the submission failed to open: " + ((Map<?, ?>) reply.get("error")).get("message");
                    }
                } else if (handler == null) {
                    reply.put("error", error("RuntimeException", openError, ""));
                } else {
                    Object a = msg.get("args");
                    String method = String.valueOf(msg.get("method"));
                    CallTime.begin(msg.get("time"));
                    reply.put("ok", handler.call(method, a instanceof Map ? (Map<String, Object>) a : new LinkedHashMap<>()));
                    if (firstTurnPending && method.equals("move")) {
                        forgetFirstTurnPaths(keep);
                        firstTurnPending = false;
                    }
                }
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (Throwable e) {
                reply = errorReply(e);
            }
            reply.put("id", msg.get("id"));
            byte[] data = Json.write(reply).getBytes(StandardCharsets.UTF_8);
            byte[] head = {(byte) (data.length >>> 24), (byte) (data.length >>> 16), (byte) (data.length >>> 8),
                (byte) data.length};
            out.write(head);
            out.write(data);
            out.flush();
        }
    }

    /** As sandbox/child.py after the first move: a second Landlock domain without the first-turn
     *  files (grader_landlock, the one module with native access). Fails closed: no reply. */
    private static void forgetFirstTurnPaths(String keep) {
        try {
            Class.forName("grader_landlock.Landlock").getMethod("restrictReads", java.util.List.class)
                    .invoke(null, java.util.Arrays.asList(keep.split("\n")));
        } catch (Throwable e) {
            System.err.println("sandbox: the first-turn files could not be made unreadable: " + e);
            Runtime.getRuntime().halt(70);
        }
    }

    private static Map<String, Object> errorReply(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            throw (OutOfMemoryError) e;
        }
        if (e instanceof java.lang.reflect.InvocationTargetException && e.getCause() != null) {
            e = e.getCause();
        }
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        Map<String, Object> reply = new LinkedHashMap<>();
        String message = e.getMessage() == null ? "" : e.getMessage();
        Map<String, Object> err = error(e.getClass().getName(), message, trace.toString());
        if (e instanceof Error) {        // not an Exception: what a course client catching Exception does not catch
            err.put("throwable", "Error");
        }
        reply.put("error", err);
        return reply;
    }

    private static Map<String, Object> error(String type, String message, String traceback) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("type", type);
        err.put("message", message);
        err.put("traceback", traceback.length() > 8000 ? traceback.substring(0, 8000) : traceback);
        return err;
    }
}
