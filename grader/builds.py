"""Line-protocol players in any language: which build a submission needs, and building it in the sandbox.

A submission that is not the ruleset's Python (or Java API) player is a program: its sources say
which build from the assignment's allow-list (`programs.builds` in the config) makes it, and the
build runs inside the sandbox with its own limits (time, memory, output; it may write only into
its output folder, and execute only the toolchain). The program then runs in the sandbox like any
player and speaks the ruleset's line protocol on stdin/stdout (see the ruleset's README).

| build | recognised by | build command | runs |
| --- | --- | --- | --- |
| `g++` | `*.cpp`, `*.cc`, `*.cxx` | `g++ -O2 -std=c++17 -pipe -o player <sources>` | `./player` |
| `gcc` | `*.c` | `gcc -O2 -std=c11 -pipe -o player <sources> -lm` | `./player` |
| `javac` | `Main.java` | `javac -d . <sources>` | `java -cp . Main` |
| `cargo` | `Cargo.toml` | `cargo build --offline --release` | `target/release/<package>` |
| `none` | an executable file `player` (a script with `#!`) | — | `./player` |
| `python` | `*.py` that is not the ruleset's Python API (see `is_api_module`) | — | `python3 -E -s -u <file>` (the grader's interpreter) |
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sandbox import Limits
from sandbox.program import Program, loader_paths

from . import bounded, python_source
from .assignment import Assignment
from .submissions import Submission

TOOLCHAIN = ("/usr/bin", "/bin", "/usr/lib", "/usr/libexec", "/lib", "/lib64", "/usr/local/bin", "/usr/local/lib")
PATTERNS = {"g++": ("*.cpp", "*.cc", "*.cxx"), "gcc": ("*.c",), "javac": ("Main.java",), "cargo": ("Cargo.toml",),
            "none": ("player",), "python": ("*.py",)}
HEADERS = ("/usr/include", "/usr/local/include")
ORDER = ("cargo", "javac", "g++", "gcc", "none", "python")
PYTHON_MAINS = ("player.py", "main.py")


def is_api_module(path: Path, names: tuple[str, ...]) -> bool:
    """Whether a Python file is for the ruleset's shim rather than a console program (read, never
    run): it defines or imports one of the API's `names` at its top level, or it never reads its
    console (no `input(...)`, no `stdin`), so a misnamed API class still gets the interface's sentence."""
    try:
        found = python_source.facts(path)
    except (OSError, bounded.Refused):
        return True                        # the interface stage says what is wrong with it
    if found is None:
        return True
    return bool(found.bound & set(names)) or not found.reads_console


def python_main(staged: Path) -> Path | None:
    """The file a Python console program starts from: player.py, main.py, or the only .py file."""
    for name in PYTHON_MAINS:
        if (staged / name).is_file():
            return staged / name
    files = [p for p in staged.glob("*.py") if p.is_file()]
    return files[0] if len(files) == 1 else None
OUTPUT_KB = 64
MESSAGE_LINES = 40
MESSAGE_CHARS = 4000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass
class Built:
    ok: bool
    message: str
    run: Program | None = None
    build: str = ""
    compiler: str = ""


def detect(staged: Path | None, api: tuple[str, ...] = ()) -> str | None:
    """The build a staged submission asks for (by its files at the top level), or None. `api`:
    the names whose presence makes a .py file the ruleset's Python API rather than a program."""
    if staged is None or not staged.is_dir():
        return None
    for name in ORDER:
        if name == "python":
            main = python_main(staged)
            return "python" if main is not None and not is_api_module(main, api) else None
        hits = [p for pattern in PATTERNS[name] for p in staged.glob(pattern) if p.is_file()]
        if name == "none":
            hits = [p for p in hits if os.access(p, os.X_OK) or p.read_bytes()[:2] == b"#!"]
        if hits:
            return name
    return None


def _tool(name: str) -> str | None:
    path = shutil.which(name)
    return os.path.realpath(path) if path else None


def _sources(staged: Path, build: str) -> list[str]:
    """The source files as `./name`: a file named `-DX=1.cpp` or `@opts.java` is never read as an option."""
    suffixes = {"g++": (".cpp", ".cc", ".cxx"), "gcc": (".c",), "javac": (".java",)}[build]
    return sorted("./" + p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.suffix in suffixes)


def _crate(staged: Path) -> str:
    m = re.search(r'^\s*name\s*=\s*"([^"]+)"', (staged / "Cargo.toml").read_text(errors="replace"), re.MULTILINE)
    return m.group(1) if m else "player"


def available() -> dict[str, str]:
    """Each build's tool on this host, for `grader doctor`: its path, or "missing: <why>"."""
    out = {}
    for name, tool in (("g++", "g++"), ("gcc", "gcc"), ("javac", "javac"), ("cargo", "cargo")):
        path = shutil.which(tool)
        out[name] = path or f"missing: {tool} is not on PATH"
    out["none"] = "scripts run by the interpreter their #! line names"
    return out


def build_program(staged: Path, build: str, out: Path, memory_mb: int) -> Program | None:
    """The build command as a sandbox Program writing into `out` (None: nothing to build)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": str(out)}
    if build in ("g++", "gcc"):
        tool = _tool(build)
        std = ["-std=c++17"] if build == "g++" else ["-std=c11"]
        argv = [tool, "-O2", *std, "-pipe", "-o", str(out / "player"), *_sources(staged, build)]
        argv += ["-lm"] if build == "gcc" else []
        return Program(tuple(argv), execute=TOOLCHAIN, read=(*TOOLCHAIN, *HEADERS), write=(str(out),), env=env, io="none",
                       processes=True, address_space_mb=4096, fsize_mb=256, nofile=256)
    if build == "javac":
        from sandbox import java
        tool = str(java.jdk_home() / "bin" / "javac")
        argv = [tool, "-J-Xmx512m", "-J-XX:-UsePerfData", "-J-XX:+UseSerialGC", "-proc:none", "-encoding", "UTF-8",
                "-d", str(out), *_sources(staged, build)]
        return Program(tuple(argv), execute=(tool, *loader_paths(tool)), read=tuple(java.jdk_read_paths(java.jdk_home())),
                       write=(str(out),), env=env, io="none", address_space_mb=4096, fsize_mb=64, nofile=256)
    if build == "cargo":
        tool = shutil.which("cargo")                       # not resolved: rustup's proxy dispatches on argv[0]
        home = str(Path(tool).parent.parent)               # ~/.cargo; the toolchains are in ~/.rustup beside it
        rustup = os.environ.get("RUSTUP_HOME") or str(Path(home).parent / ".rustup")
        env.update(CARGO_HOME=str(out / "cargo-home"), RUSTUP_HOME=rustup, CARGO_TARGET_DIR=str(out / "target"),
                   PATH=f"{Path(tool).parent}:{env['PATH']}")
        argv = [tool, "build", "--offline", "--release", "--quiet", "--manifest-path", str(out / "src" / "Cargo.toml")]
        return Program(tuple(argv), execute=(*TOOLCHAIN, home, rustup), read=(*TOOLCHAIN, home, rustup),
                       write=(str(out),), env=env, io="none", processes=True, address_space_mb=8192,
                       fsize_mb=512, nofile=512)
    return None


def run_program(staged: Path, build: str, out: Path, memory_mb: int) -> Program:
    """How the built program is started as a line-protocol player."""
    env = {"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    if build in ("g++", "gcc", "cargo"):
        exe = str(out / "player") if build != "cargo" else str(out / "target" / "release" / _crate(staged))
        return Program((exe,), execute=(exe, *loader_paths(exe)), read=(str(out),), env=env, io="lines")
    if build == "javac":
        from sandbox import java
        tool = str(java.jdk_home() / "bin" / "java")
        argv = (tool, *java.memory_flags(memory_mb), *java.JVM_FLAGS, "-cp", str(out), "Main")
        return Program(argv, execute=(tool, *loader_paths(tool)), read=(*java.jdk_read_paths(java.jdk_home()), str(out)),
                       env=env, io="lines", address_space_mb=java.JVM_ADDRESS_SPACE_MB)
    if build == "python":
        import sys
        exe = os.path.realpath(sys.executable)
        prefixes = sorted({sys.base_prefix, sys.prefix, os.path.dirname(os.path.dirname(exe))})
        argv = (exe, "-E", "-s", "-u", "-B", str(python_main(staged)))    # not -I: its own modules import
        return Program(argv, execute=(exe, *loader_paths(exe)), read=tuple(prefixes), env=env, io="lines",
                       address_space_mb=2048)
    script = str(staged / "player")
    first = (staged / "player").read_bytes().split(b"\n", 1)[0]
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    interpreter = os.path.realpath(words[0]) if words else ""
    if words and os.path.basename(words[0]) == "env" and len(words) > 1:
        interpreter = _tool(words[1]) or words[1]
    argv = (interpreter, *words[2 if os.path.basename(words[0]) == "env" else 1:], script) if words else (script,)
    return Program(argv, execute=(script, *([interpreter, *loader_paths(interpreter)] if interpreter else [])),
                   read=TOOLCHAIN, env=env, io="lines", address_space_mb=2048)


def clean_compiler_output(text: str) -> str:
    """A compiler's messages for a student: control characters out, at most 40 lines / 4000 characters."""
    lines = _CONTROL.sub("", text.replace("\r\n", "\n")).strip().splitlines()
    out = "\n".join(lines[:MESSAGE_LINES])
    if len(lines) > MESSAGE_LINES:
        out += f"\n… ({len(lines) - MESSAGE_LINES} more lines)"
    return out if len(out) <= MESSAGE_CHARS else out[:MESSAGE_CHARS] + " …"


@dataclass
class BuildRun:
    """One sandboxed build's end: its CallResult (None: `target` was there already) and messages."""

    result: object = None
    messages: str = ""

    @property
    def ok(self) -> bool:
        return self.result is None or self.result.ok


def run_build(shim: str, sub: Submission, target: Path, make_program: Callable[[Path], Program], limits: Limits,
              prepare: Callable[[Path], None] | None = None, finish: Callable[[Path], None] | None = None) -> BuildRun:
    """Run a build Program in the sandbox (cwd: the staged submission) into a fresh folder that
    becomes `target` once the build succeeded; nothing when `target` exists (builds are cached by
    the content hash in its name). `prepare`/`finish` run trusted on the fresh folder before/after."""
    from sandbox import PlayerProcess, java

    if target.is_dir():
        return BuildRun()
    work = Path(tempfile.mkdtemp(prefix="building-", dir=java.cache_root()))
    os.chmod(work, 0o755)
    try:
        if prepare:
            prepare(work)
        proc = PlayerProcess(shim, sub.staged, limits, name=f"build {sub.display_name}", program=make_program(work))
        res = proc.run(limits.start_s)
        messages = clean_compiler_output(proc.close().output)
        if res.ok:
            if finish:
                finish(work)
            try:
                os.rename(work, target)
            except OSError:
                if not target.is_dir():
                    raise
        return BuildRun(res, messages)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def build(assignment: Assignment, sub: Submission) -> Built:
    """Build a program submission once per content (cached), inside the sandbox with the build limits."""
    from sandbox import java

    cfg = assignment.config.programs
    kind = detect(sub.staged, getattr(assignment.ruleset.lines, "API_NAMES", ()))
    if kind is None:
        return Built(False, "The submission is no program this grader can build: it needs C or C++ sources, "
                            "Main.java, Cargo.toml, a Python program, or an executable script named player.")
    if kind not in cfg.builds:
        return Built(False, f"The submission needs the {kind} build, which this assignment does not allow "
                            f"(allowed: {', '.join(cfg.builds) or 'none'}).", build=kind)
    tool = {"g++": "g++", "gcc": "gcc", "cargo": "cargo", "javac": "javac"}.get(kind)
    if tool and _tool(tool) is None:
        return Built(False, f"This program cannot be built here: {tool} is not installed.", build=kind)
    out = java.cache_root() / f"program-{sub.content_hash[:24]}-{kind}"
    if kind in ("none", "python"):
        return Built(True, "a script: nothing to build", run_program(sub.staged, kind, out, assignment.memory_mb), kind)

    def prepare(work: Path) -> None:
        if kind == "cargo":                # cargo writes Cargo.lock beside the manifest: build a copy
            shutil.copytree(sub.staged, work / "src")
            for folder, _, _ in os.walk(work / "src"):
                os.chmod(folder, 0o755)    # the staged copy is read-only

    def finish(work: Path) -> None:
        exe = work / "player" if kind != "cargo" else work / "target" / "release" / _crate(sub.staged)
        if exe.is_file():
            os.chmod(exe, 0o755)           # the linker's own chmod is one of the calls seccomp denies

    limits = Limits(memory_mb=cfg.build_memory_mb, start_s=cfg.build_time_s, output_kb=OUTPUT_KB, freeze=False)
    run = run_build(assignment.ruleset.shim, sub, out, lambda work: build_program(sub.staged, kind, work,
                                                                                  cfg.build_memory_mb),
                    limits, prepare, finish)
    if not run.ok:
        why = {"killed": f"it did not finish within {cfg.build_time_s:g} s",
               "memory": f"it went over {cfg.build_memory_mb} MB"}.get(run.result.verdict.value)
        return Built(False, f"The {kind} build failed" + (f" ({why})." if why else ": its messages are below."),
                     build=kind, compiler=run.messages or run.result.message)
    return Built(True, f"built with {kind}", run_program(sub.staged, kind, out, assignment.memory_mb), kind)
