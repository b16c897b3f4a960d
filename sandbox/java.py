"""Java players: the JDK, the shim's classes, the JVM's flags, and the compile step, as Programs.

A Java player is a JVM started by the sandboxed child as its last step (sandbox/command.py).
It runs `grader_shim.Main` (sandbox/java_sources/grader_shim: the wire protocol in Java) with a
ruleset's bridge class (a `grader_shim.Handler`), the ruleset's course API and the student's
compiled classes on the class path. Trusted classes (shim + course API) are compiled once per
source hash into a cache folder, with a class-data-sharing archive that cuts the JVM's start;
the student's sources are compiled by `javac` inside the sandbox (`compile_program`).
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import state_dir, wire
from .command import Command, loader_paths

SHIM_SOURCES = Path(__file__).resolve().parent / "java_sources" / "grader_shim"
LANDLOCK_SOURCES = Path(__file__).resolve().parent / "java_sources" / "landlock"
LANDLOCK_FLAGS = ["--add-modules", "grader.landlock", "--enable-native-access=grader.landlock"]
SHIM_MAIN = "grader_shim.Main"
NO_JDK = "no JDK found (javac not on PATH): install openjdk-17-jdk-headless to grade Java players"
JVM_ADDRESS_SPACE_MB = 4096          # what a JVM reserves (heap, class space, code cache), not uses
CPU_TIMED = {"time": {"limit_s": 1.0, "clock": "cpu"}}   # a request timed on the CPU clock (sandbox/rpc.py)


@functools.cache
def jdk_home() -> Path | None:
    """The JDK that `javac` on PATH belongs to (symlinks resolved), or None."""
    javac = shutil.which("javac")
    if javac is None:
        return None
    home = Path(os.path.realpath(javac)).parent.parent
    return home if (home / "bin" / "java").is_file() else None


def unavailable_reason() -> str | None:
    return None if jdk_home() is not None else NO_JDK


def required_jdk() -> Path:
    """The JDK's home, where a caller has checked `unavailable_reason()`; OSError (NO_JDK) otherwise."""
    home = jdk_home()
    if home is None:
        raise OSError(NO_JDK)
    return home


def cache_root() -> Path:
    """Compiled classes and CDS archives (and the build cache, grader/build_cache.py), shared between
    runs (keyed by content): `compiled` in the grader's private state folder, or GRADER_JAVA_CACHE."""
    return state_dir.folder("compiled", env="GRADER_JAVA_CACHE")


def jdk_read_paths(home: Path) -> list[str]:
    """The JDK's folder and the folders its files link to (Debian keeps its config in /etc)."""
    paths = {str(home)}
    conf = home / "conf"
    if conf.exists():
        for p in conf.rglob("*"):
            if p.is_symlink():
                paths.add(str(Path(os.path.realpath(p)).parent))
    for name in ("lib/jvm.cfg", "lib/security/cacerts"):
        p = home / name
        if p.is_symlink():
            paths.add(str(Path(os.path.realpath(p)).parent))
    return sorted(p for p in paths if not any(p.startswith(q + "/") for q in paths))


def memory_flags(memory_mb: int) -> list[str]:
    """JVM flags so heap, metaspace, code cache and thread stacks fit `memory_mb` together."""
    heap = max(64, memory_mb - 150)
    return [f"-XX:MaxRAM={memory_mb}m", f"-Xmx{heap}m", f"-Xms{min(heap, 64)}m", "-XX:MaxMetaspaceSize=64m",
            "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=48m", "-XX:MaxDirectMemorySize=32m",
            "-Xss1m", "-XX:+UseSerialGC"]


# -XX:-MaxFDLimit: the JVM would raise its own RLIMIT_NOFILE at start, which the box sets and seccomp
# keeps (sandbox/seccomp_filter.py NO_SELF_TUNING): it asks for nothing the filter refuses.
JVM_FLAGS = ["-XX:-UsePerfData", "-XX:-UseContainerSupport", "-XX:-MaxFDLimit", "-Xshare:auto", "-Djava.io.tmpdir=/nonexistent",
             "-Dfile.encoding=UTF-8"]


def _hash_sources(folders: list[Path]) -> str:
    h = hashlib.sha256(str(jdk_home()).encode())
    for folder in folders:
        for path in sorted(folder.rglob("*.java")):
            h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def api_classes(api_sources: Path | None, bridge: str) -> Path:
    """The shim and a ruleset's course API (None: the shim alone, for a console program), compiled
    (trusted: outside the sandbox) into the cache, with a CDS archive `app.jsa` of the classes a
    player loads. Built once per source hash."""
    home = jdk_home()
    if home is None:
        raise RuntimeError(NO_JDK)
    folders = [SHIM_SOURCES] + ([api_sources] if api_sources is not None else [])
    target = cache_root() / f"api-{_hash_sources([*folders, LANDLOCK_SOURCES])}"
    if (target / "api.jar").is_file():
        return target
    work = Path(tempfile.mkdtemp(prefix="building-", dir=cache_root()))
    try:
        javac, jar = str(home / "bin" / "javac"), str(home / "bin" / "jar")
        sources = [str(p) for folder in folders for p in sorted(folder.rglob("*.java"))]
        subprocess.run([javac, "-proc:none", "-encoding", "UTF-8", "-d", str(work / "classes"), *sources],
                       check=True, capture_output=True, timeout=300)
        subprocess.run([jar, "cf", str(work / "api.jar"), "-C", str(work / "classes"), "."],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([javac, "-proc:none", "-d", str(work / "landlock"),
                        *map(str, sorted(LANDLOCK_SOURCES.rglob("*.java")))], check=True, capture_output=True, timeout=300)
        subprocess.run([jar, "cf", str(work / "landlock.jar"), "-C", str(work / "landlock"), "."],
                       check=True, capture_output=True, timeout=120)
        os.chmod(work, 0o755)
        try:
            os.rename(work, target)
        except OSError:
            if not (target / "api.jar").is_file():
                raise
            return target
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _dump_archive(home, target, bridge)      # the archive records the jar's path: the final one
    return target


def _dump_archive(home: Path, work: Path, bridge: str) -> None:
    """A CDS archive of the JDK and shim classes a player's start loads (Java 17: a class list from
    one run of the shim answering "open" and "interface", the latter timed on the CPU clock so the
    classes that read it (grader_shim.CallTime) are archived too, then -Xshare:dump). Best effort:
    without it the JVM starts from the JDK's default archive."""
    cp = str(work / "api.jar")            # CDS archives only classes from jars
    java = str(home / "bin" / "java")
    tmp = work / f"app.jsa.{os.getpid()}"
    try:
        subprocess.run([java, "-XX:DumpLoadedClassList=" + str(work / "classes.lst"), "-cp", cp, SHIM_MAIN, bridge],
                       input=wire.encode({"open": {}, "id": 1}) + wire.encode({"method": "interface", "id": 2, **CPU_TIMED}),
                       capture_output=True, timeout=120, check=True)
        subprocess.run([java, "-Xshare:dump", "-XX:SharedClassListFile=" + str(work / "classes.lst"),
                        "-XX:SharedArchiveFile=" + str(tmp), "-cp", cp], capture_output=True, timeout=300, check=True)
        os.chmod(tmp, 0o644)
        os.rename(tmp, work / "app.jsa")
    except (subprocess.SubprocessError, OSError):
        tmp.unlink(missing_ok=True)


def player_program(api: Path, bridge: str, classes: Path, memory_mb: int, read_once: bool = False) -> Command:
    """The JVM of one player: the shim serving `bridge`, the API and the student's `classes`.
    `read_once`: some files are readable during the first turn only, so the shim needs Landlock."""
    home = required_jdk()
    java = str(home / "bin" / "java")
    archive = api / "app.jsa"
    share = [f"-XX:SharedArchiveFile={archive}"] if archive.is_file() else []
    landlock = ["--module-path", str(api / "landlock.jar"), *LANDLOCK_FLAGS] if read_once else []
    argv = [java, *memory_flags(memory_mb), *JVM_FLAGS, *share, *landlock,
            "-cp", f"{api / 'api.jar'}:{classes}", SHIM_MAIN, bridge]
    return Command(argv=tuple(argv), execute=(java, *loader_paths(java)),
                   read=(*jdk_read_paths(home), str(api), str(classes)),
                   env={"LANG": "C.UTF-8"}, address_space_mb=JVM_ADDRESS_SPACE_MB)


def compile_program(api: Path, sources: list[str], out: Path, memory_mb: int) -> Command:
    """javac inside the sandbox: the student's `sources` (relative to the submission) against the
    API classes, writing only into `out`. No annotation processors (they would run student code)."""
    home = required_jdk()
    javac = str(home / "bin" / "javac")
    heap = max(64, memory_mb - 200)
    argv = [javac, f"-J-Xmx{heap}m", "-J-XX:-UsePerfData", "-J-XX:+UseSerialGC", "-J-XX:-UseContainerSupport",
            "-J-Xss1m", "-proc:none", "-encoding", "UTF-8", "-Xmaxerrs", "30", "-nowarn", "-g",
            "-cp", str(api / "api.jar"), "-d", str(out), *sources]
    return Command(argv=tuple(argv), execute=(javac, *loader_paths(javac)),
                   read=(*jdk_read_paths(home), str(api)), write=(str(out),), env={"LANG": "C.UTF-8"},
                   io="none", address_space_mb=JVM_ADDRESS_SPACE_MB, fsize_mb=64, nofile=256)


def describe(memory_mb: int = 500) -> dict[str, str]:
    """What applies to a Java player on this host, for `grader doctor` (a missing JDK says so)."""
    home = jdk_home()
    if home is None:
        return {"jdk": f"missing: {NO_JDK}"}
    from . import landlock  # here: Linux only, absent where the portable sandbox runs
    abi = landlock.abi_version()
    return {
        "jdk": str(home),
        "layers": "the same as a Python player's (cgroup, rlimits, netns, capabilities, Landlock, seccomp, "
                  "freeze); the JVM's threads allowed, fork and process clones denied",
        "exec": "one execve, of the JVM: seccomp leaves execve open, Landlock grants EXECUTE on java and its "
                "loader only" if abi else "missing: without Landlock the exec of other programs is not limited",
        "memory": " ".join(memory_flags(memory_mb)[:3]) + f" inside the {memory_mb} MB limit",
        "first turn": "data/ unreadable after the first move (Landlock from the shim, the one module with "
                      "native access)" if abi else "missing: needs Landlock",
        "compile": "javac in the sandbox, writing only into its output folder; no annotation processors",
    }
