package grader_landlock;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.List;

import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAccess;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;

/**
 * Stacks a second Landlock domain on the calling thread (and threads it starts later) that
 * lets it read only beneath `paths`: sandbox/child.py's forget_first_turn_paths for a JVM,
 * which the Python child cannot do for it once it has exec'd the JVM. The JVM runs with
 * native access for this module only, so student code (the unnamed module) gets none.
 */
public final class Landlock {
    private static final long SYS_CREATE_RULESET = 444, SYS_ADD_RULE = 445, SYS_RESTRICT_SELF = 446;
    private static final long FS_EXECUTE = 1, FS_READ_FILE = 1 << 2, FS_READ_DIR = 1 << 3;
    private static final int O_PATH = 010000000, O_CLOEXEC = 02000000;

    private Landlock() {
    }

    public static void restrictReads(List<String> paths) throws Throwable {
        CLinker c = CLinker.getInstance();
        MethodHandle syscall = c.downcallHandle(CLinker.systemLookup().lookup("syscall").get(),
                MethodType.methodType(long.class, long.class, long.class, long.class, long.class, long.class),
                FunctionDescriptor.of(CLinker.C_LONG, CLinker.C_LONG, CLinker.C_LONG, CLinker.C_LONG, CLinker.C_LONG,
                        CLinker.C_LONG));
        MethodHandle open = c.downcallHandle(CLinker.systemLookup().lookup("open").get(),
                MethodType.methodType(int.class, MemoryAddress.class, int.class),
                FunctionDescriptor.of(CLinker.C_INT, CLinker.C_POINTER, CLinker.C_INT));
        MethodHandle close = c.downcallHandle(CLinker.systemLookup().lookup("close").get(),
                MethodType.methodType(int.class, int.class), FunctionDescriptor.of(CLinker.C_INT, CLinker.C_INT));
        try (ResourceScope scope = ResourceScope.newConfinedScope()) {
            MemorySegment attr = MemorySegment.allocateNative(8, scope);
            MemoryAccess.setLongAtOffset(attr, 0, FS_EXECUTE | FS_READ_FILE | FS_READ_DIR);
            long ruleset = (long) syscall.invokeExact(SYS_CREATE_RULESET, attr.address().toRawLongValue(), 8L, 0L, 0L);
            if (ruleset < 0) {
                throw new IllegalStateException("landlock_create_ruleset failed");
            }
            MemorySegment rule = MemorySegment.allocateNative(16, scope);
            for (String path : paths) {
                int fd = (int) open.invokeExact(CLinker.toCString(path, scope).address(), O_PATH | O_CLOEXEC);
                if (fd < 0) {
                    continue;
                }
                boolean dir = new java.io.File(path).isDirectory();
                MemoryAccess.setLongAtOffset(rule, 0, dir ? FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
                        : FS_EXECUTE | FS_READ_FILE);
                MemoryAccess.setIntAtOffset(rule, 8, fd);
                long added = (long) syscall.invokeExact(SYS_ADD_RULE, ruleset, 1L, rule.address().toRawLongValue(), 0L);
                int closed = (int) close.invokeExact(fd);
                if (added < 0) {
                    throw new IllegalStateException("landlock_add_rule failed for " + path);
                }
            }
            long done = (long) syscall.invokeExact(SYS_RESTRICT_SELF, ruleset, 0L, 0L, 0L);
            int closed = (int) close.invokeExact((int) ruleset);
            if (done < 0) {
                throw new IllegalStateException("landlock_restrict_self failed");
            }
        }
    }
}
