"""Building a submission in the sandbox, once per content, keeping only what the build declared.

Which kinds exist and how each is built and started is the table in grader/player_kinds.py. Here
a row's build runs as a sandbox Command (its own time and memory limits; it may write only into a
fresh folder, execute only its toolchain) while a watcher counts that folder: once it holds more
than `programs.output_mb` or `programs.output_files`, the build is stopped and that is the
student's build verdict. After a build that succeeded, the grader copies out the artefacts the
row declares (one executable, or the `.class` files), resolving every path under the folder's
descriptor without following a link (grader/confined_files.py), into a folder of its own in the
build cache (grader/build_cache.py: successes only, least recently used evicted over
`programs.cache_mb`). The box's folder is then removed; nothing the build left is ever chmod-ed,
chown-ed or run from there.
"""
from __future__ import annotations

import errno
import functools
import os
import re
import shutil
import signal
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from sandbox import CallResult, Limits, PlayerProcess, java, state_dir
from sandbox.command import Command

from . import build_cache
from .assignment import Assignment
from .config import ProgramsConfig
from .confined_files import DIRECTORY, NotTaken, Tally, copy_out, entries, open_beneath, tally
from .player_kinds import KINDS, BuildJob, NotBuildable, RunJob, allowed_builds, kind_of, program_needs
from .submissions import Submission

OUTPUT_KB = 64               # the compiler's captured messages
MESSAGE_LINES = 40
MESSAGE_CHARS = 4000
WATCH_S = 0.2                # how often the watcher counts the build's folder
DOCTOR_SHIM = "sandbox.module_shim"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass
class Built:
    """A build's outcome: `program` starts the player (None when the build failed)."""

    ok: bool
    message: str                       # one sentence
    kind: str = ""
    program: Command | None = None
    folder: Path | None = None         # the cached build (None: nothing to build, or failed)
    compiler: str = ""                 # the build's messages, cleaned and capped
    seconds: float = 0.0


def clean_compiler_output(text: str) -> str:
    """A compiler's messages for a student: control characters out, at most 40 lines / 4000 characters."""
    lines = _CONTROL.sub("", text.replace("\r\n", "\n")).strip().splitlines()
    out = "\n".join(lines[:MESSAGE_LINES])
    if len(lines) > MESSAGE_LINES:
        out += f"\n… ({len(lines) - MESSAGE_LINES} more lines)"
    return out if len(out) <= MESSAGE_CHARS else out[:MESSAGE_CHARS] + " …"


def _subject(kind: str, entry: str) -> str:
    return f"{entry} does not compile" if kind == "java" else f"The {kind} build failed"


def _failure_detail(kind: str, res: CallResult, messages: str, cfg: ProgramsConfig) -> str:
    """The end of the failed build's sentence: why, or where its messages are."""
    why = {"killed": f"it did not finish within {cfg.build_time_s:g} s",
           "memory": f"it went over {cfg.build_memory_mb} MB"}.get(res.verdict.value)
    if why:
        return f" ({why})."
    if res.verdict.value == "infra":           # the host cannot run builds (the portable sandbox): its sentence
        return f": {res.message[:1].lower()}{res.message[1:]}"
    if kind != "java":
        return ": its messages are below."
    errors = re.search(r"^(\d+) errors?$", messages, re.MULTILINE)
    return f": {errors.group(1)} error(s), javac's messages are below." if errors else "."


def build(assignment: Assignment, sub: Submission) -> Built:
    """Build the submission's kind (cached by content), or say in one sentence why it cannot be
    (the grader's own folders unusable, sandbox/state_dir.py: the grader's user is told, not the student)."""
    try:
        return _build(assignment, sub)
    except state_dir.StateUnsafe as exc:
        return Built(False, f"The grader cannot build programs on this machine (not the submission's fault): {exc}.")


def _build(assignment: Assignment, sub: Submission) -> Built:
    ruleset, cfg = assignment.ruleset, assignment.config.programs
    name = kind_of(ruleset, sub.staged)
    if name is None or sub.staged is None:
        return Built(False, f"The submission is no program this grader can build: it needs {program_needs()}.")
    allowed = allowed_builds(cfg.builds)
    if name != "java" and name not in allowed:
        return Built(False, f"The submission needs the {name} build, which this assignment does not allow "
                            f"(allowed: {', '.join(allowed) or 'none'}).", name)
    if KINDS[name].build is None:
        return Built(True, "a script: nothing to build", name,
                     KINDS[name].run(RunJob(sub.staged, sub.staged, assignment.memory_mb)))
    api: Path | None = None
    sources: tuple[str, ...] = ()
    bridge, read_once, key = "", False, f"{name}-{sub.content_hash[:32]}"
    if name == "java":
        jv = ruleset.java
        assert jv is not None
        if java.unavailable_reason():
            return Built(False, f"This Java player cannot be graded here: {java.unavailable_reason()}.", name)
        api, bridge = java.api_classes(jv.sources, jv.bridge), jv.bridge
        sources = tuple(sorted(p.relative_to(sub.staged).as_posix() for p in (sub.staged / jv.package).rglob("*.java")))
        key += f"-{api.name}"
        read_once = any((sub.staged / p).exists() for p in assignment.limits().readable_until_first_reply)
    built = build_kind(name, sub.staged, ruleset.shim, cfg, key=key, api=api, sources=sources,
                       label=sub.display_name, entry=ruleset.java.entry if ruleset.java else "")
    if built.ok and built.folder is not None:
        built.program = KINDS[name].run(RunJob(sub.staged, built.folder, assignment.memory_mb, api, bridge, read_once))
    return built


def build_kind(name: str, staged: Path, shim: str, cfg: ProgramsConfig, key: str | None, api: Path | None = None,
               sources: tuple[str, ...] = (), label: str = "", entry: str = "") -> Built:
    """Run row `name`'s build of `staged` in the sandbox and keep its declared artefacts: in the build
    cache under `key` (reused when there), or, with `key` None, in a fresh folder the caller removes."""
    kind = KINDS[name]
    assert kind.build is not None
    if kind.tool and shutil.which(kind.tool) is None:
        return Built(False, f"This program cannot be built here: {kind.tool} is not installed.", name)
    try:
        executable = kind.executable(staged) if kind.executable else None
    except NotBuildable as exc:
        return Built(False, f"{_subject(name, entry)}: {exc}", name)
    if key is not None:
        cached = build_cache.lookup(key)
        if cached is not None:
            return Built(True, "compiled (cached)" if name == "java" else f"built with {name} (cached)", name,
                         folder=cached)
    limit_bytes, limit_files = cfg.output_mb * 1_000_000, cfg.output_files
    scratch = Path(tempfile.mkdtemp(prefix="building-", dir=build_cache.root()))
    try:
        job = BuildJob(staged, scratch, cfg.build_memory_mb, cfg.output_mb, api, sources)
        res, messages, over = _run_in_box(shim, label or staged.name, kind.build(job), job, cfg)
        if over is not None:
            return Built(False, f"{_subject(name, entry)}: its output went over the limit of {cfg.output_mb} MB "
                                f"and {limit_files} files (it left at least {over.files} files, "
                                f"{over.bytes / 1e6:.1f} MB).", name, compiler=messages, seconds=res.wall_s)
        if not res.ok:
            return Built(False, _subject(name, entry) + _failure_detail(name, res, messages, cfg), name,
                         compiler=messages or res.message, seconds=res.wall_s)

        def fill(dest: Path) -> None:
            _keep(scratch, dest, executable, limit_bytes, limit_files)
        try:
            if key is None:
                folder = Path(tempfile.mkdtemp(prefix="built-", dir=build_cache.root()))
                fill(folder)
            else:
                folder = build_cache.publish(key, fill, cfg.cache_mb)
        except NotTaken as exc:
            return Built(False, f"{_subject(name, entry)}: {exc}", name, compiler=messages, seconds=res.wall_s)
        done = (f"compiled {len(sources)} file(s) in {res.wall_s:.1f} s" if name == "java" else f"built with {name}")
        return Built(True, done, name, folder=folder, compiler=messages, seconds=res.wall_s)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)        # fd-based: never follows the build's links


def _run_in_box(shim: str, label: str, program: Command, job: BuildJob,
                cfg: ProgramsConfig) -> tuple[CallResult, str, Tally | None]:
    """Run a build Command (cwd: the staged sources) to its end while a watcher counts its folder;
    (result, cleaned messages, the count that went over the output caps or None)."""
    limits = Limits(memory_mb=cfg.build_memory_mb, start_s=cfg.build_time_s, output_kb=OUTPUT_KB, freeze=False)
    # forked from a template: without root too, its own pid namespace, so every process of the build
    # dies with the template when the manager does (a spawned one has none without root)
    proc = PlayerProcess(shim, job.staged, limits, name=f"build {label}", program=program, prefork=True)
    limit_bytes, limit_files = cfg.output_mb * 1_000_000, cfg.output_files
    over: list[Tally] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(WATCH_S):
            count = tally(job.folder, limit_files, limit_bytes)
            if count.files > limit_files or count.bytes > limit_bytes:
                over.append(count)
                child = proc.proc
                if child is not None and proc.status is None:
                    proc.kills.append("its output went over the build's caps")   # the grader's kill, noted
                    child.signal_group(signal.SIGKILL)
                return

    watcher = threading.Thread(target=watch, name=f"watch {label}", daemon=True)
    watcher.start()
    try:
        res = proc.run(cfg.build_time_s)
    finally:
        done.set()
        watcher.join()
        messages = clean_compiler_output(proc.close().output)
    if not over:
        count = tally(job.folder, limit_files, limit_bytes)
        if count.files > limit_files or count.bytes > limit_bytes:
            over.append(count)
    return res, messages, over[0] if over else None


def _keep(folder: Path, dest: Path, executable: str | None, limit_bytes: int, limit_files: int) -> None:
    """Copy what the build declared from its `folder` into our own `dest`: the `executable` (as
    `player`, mode 0755) or every regular `.class` file (same relative paths). NotTaken: a sentence."""
    fd = os.open(folder, DIRECTORY)
    try:
        if executable is not None:
            try:
                src = open_beneath(fd, executable)
            except OSError as exc:
                raise NotTaken(f"it left no file {executable}" if exc.errno == errno.ENOENT else
                              f"it left {executable} as a link or outside its folder, which is not taken") from None
            try:
                copy_out(src, dest / "player", 0o755, limit_bytes)
            except NotTaken as exc:
                raise NotTaken(f"{executable} was not taken: {exc}") from None
            finally:
                os.close(src)
            return
        kept, size = 0, 0
        for rel, st, _ in entries(fd):
            if not rel.endswith(".class") or not stat.S_ISREG(st.st_mode):
                continue
            kept += 1
            if kept > limit_files:
                raise NotTaken(f"it left more than {limit_files} class files")
            src = open_beneath(fd, rel)
            try:
                target = dest / rel
                target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
                size += copy_out(src, target, 0o644, limit_bytes - size)
            except NotTaken as exc:
                raise NotTaken(f"{rel} was not taken: {exc}") from None
            finally:
                os.close(src)
        for dirpath, dirnames, _ in os.walk(dest):    # our own new folders
            for d in dirnames:
                os.chmod(os.path.join(dirpath, d), 0o755)
    finally:
        os.close(fd)


@functools.cache
def available() -> dict[str, str]:
    """Each build on this host, for `grader doctor`: "active" only when a trivial program of its kind
    was built through the sandbox just now (once per process), else "missing: <why>"."""
    out = {}
    for name, files in ((n, dict(k.trivial)) for n, k in KINDS.items() if k.trivial):
        tool = KINDS[name].tool or name
        path = shutil.which(tool)
        if path is None:
            out[name] = f"missing: {tool} is not on PATH"
            continue
        try:
            staged = Path(tempfile.mkdtemp(prefix="building-doctor-", dir=build_cache.root()))
        except state_dir.StateUnsafe as exc:
            out[name] = f"missing: {exc}"
            continue
        folder = None
        try:
            for rel, text in files.items():
                (staged / rel).parent.mkdir(parents=True, exist_ok=True)
                (staged / rel).write_text(text)
            for dirpath, _, _ in os.walk(staged):
                os.chmod(dirpath, 0o755)               # the box's uid reads it
            built = build_kind(name, staged, DOCTOR_SHIM, ProgramsConfig.model_validate({}), key=None, label=f"doctor {name}")
            folder = built.folder
            first = (built.compiler or built.message).strip().splitlines()
            out[name] = (f"{path}: a trivial program built in the sandbox" if built.ok else
                         f"missing: {path} is installed but a trivial build in the sandbox failed "
                         f"({first[0] if first else built.message})")
        finally:
            shutil.rmtree(staged, ignore_errors=True)
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
    out["none"] = "scripts run by the interpreter their #! line names"
    return out
