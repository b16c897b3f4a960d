"""The table of player kinds: which files make a submission of each kind, how it is built in the
sandbox, and how the built player is started. One row per kind, CMS's one-plugin-per-language
idea as a table; grader/builds.py runs a row's build, grader/players.py its run.

| kind | recognised by | build (in the sandbox, writing only its folder) | what the build leaves | runs |
| --- | --- | --- | --- | --- |
| `java` | the ruleset's `<package>/<entry>` (its Java course API) | `javac -cp api.jar -d <folder> <sources>` | `*.class` | the Java shim with the ruleset's bridge |
| `g++` | `*.cpp`, `*.cc`, `*.cxx` | `g++ -O2 -std=c++17 -pipe -o player <sources>` | `player` | `./player`; a console program: the same (stdout line-buffered by libstdbuf), watched by sandbox/console_lines.py |
| `gcc` | `*.c` | `gcc -O2 -std=c11 -pipe -o player <sources> -lm` | `player` | `./player` |
| `javac` | `Main.java` | `javac -d <folder> <sources>` | `*.class` | `java -cp . Main`; a console program: `Main` in the Java shim's `ConsoleHandler` |
| `cargo` | `Cargo.toml` | copy the sources into the folder, `cargo build --offline --release` there | `target/release/<bin>` | `./player` |
| `none` | an executable file `player` (a script with `#!`) | — | — | `./player` |
| `python` | `*.py` that is not the ruleset's Python API (see `is_api_module`) | — | — | `python3 -E -s -u <file>` |

A compiled console program (`g++`, `gcc`, `cargo`) runs as itself: the manager sees from /proc when it
waits for input (sandbox/console_lines.py). Everything but `java` is a line-protocol program (the ruleset's `lines` adapter speaks to it); a
submission that is none of these is the ruleset's Python player. Detection reads only the staged
copy's file names (and, for `.py` files, their syntax tree); nothing here runs anything.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from rulesets.base import Ruleset
from sandbox import java
from sandbox.command import Command, loader_paths

from . import bounded, python_source

TOOLCHAIN = ("/usr/bin", "/bin", "/usr/lib", "/usr/libexec", "/lib", "/lib64", "/usr/local/bin", "/usr/local/lib")
HEADERS = ("/usr/include", "/usr/local/include")
PYTHON_MAINS = ("player.py", "main.py")
MANIFEST_MAX_BYTES = 64 * 1024
CRATE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}")
BUILD_PATH = "/usr/local/bin:/usr/bin:/bin"
STDBUF_LIBRARIES = ("/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/coreutils/libstdbuf.so")


class NotBuildable(Exception):
    """The sources cannot be built as their kind says; str() is the sentence for the student."""


@dataclass(frozen=True)
class BuildJob:
    """One build: the staged sources, the box's writable folder, and the build's limits."""

    staged: Path
    folder: Path
    memory_mb: int
    output_mb: int                       # what the build may leave in all; one file may reach twice that,
    #                                      so a too-big output ends in the cap's sentence, not a linker's error
    api: Path | None = None              # the compiled course API (kind `java`)
    sources: tuple[str, ...] = ()        # `java`: the student's sources, relative to `staged`


@dataclass(frozen=True)
class RunJob:
    """One player's start: the staged sources, the cached build, and the player's memory."""

    staged: Path
    built: Path
    memory_mb: int
    api: Path | None = None
    bridge: str = ""
    read_once: bool = False


@dataclass(frozen=True)
class Kind:
    name: str
    patterns: tuple[str, ...]                          # top-level files that ask for this kind
    tool: str | None                                   # the host program the build needs
    build: Callable[[BuildJob], Command] | None        # None: nothing to build
    executable: Callable[[Path], str] | None           # the one file a build leaves (path in its folder,
    #                                                    from the staged sources); None: every .class file
    run: Callable[[RunJob], Command]
    console: Callable[[RunJob], Command] | None = None   # how it runs as a console program of its own
    #                                                      (menus, prompts) the console driver plays;
    #                                                      None: such a program needs a human
    language: str = ""                                 # its source files' language, for the similarity report
    sources: tuple[str, ...] = ()                      # suffixes of its source files (headers too), the
    #                                                    lexer's first: what the similarity report compares
    title: str = ""                                    # the language as people name it ("C++"), in sentences
    asks: str = ""                                     # what in a folder asks for it, in "a program needs …"
    package: str = ""                                  # the Ubuntu package that installs `tool` (Gradescope's setup)
    trivial: tuple[tuple[str, str], ...] = ()          # a trivial program of its kind ({path: text}), for `grader doctor`


def _tool(name: str) -> str | None:
    path = shutil.which(name)
    return os.path.realpath(path) if path else None


def _sources(staged: Path, suffixes: tuple[str, ...]) -> list[str]:
    """The source files as `./name`: a file named `-DX=1.cpp` or `@opts.java` is never read as an option."""
    return sorted("./" + p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.suffix in suffixes)


def _env(job: BuildJob) -> dict[str, str]:
    return {"PATH": BUILD_PATH, "LANG": "C.UTF-8", "TMPDIR": str(job.folder)}


def _native_build(compiler: str, std: str, suffixes: tuple[str, ...], libs: tuple[str, ...]) -> Callable[[BuildJob], Command]:
    def make(job: BuildJob) -> Command:
        tool = _tool(compiler) or compiler
        argv = [tool, "-O2", std, "-pipe", "-o", str(job.folder / "player"), *_sources(job.staged, suffixes), *libs]
        return Command(tuple(argv), execute=TOOLCHAIN, read=(*TOOLCHAIN, *HEADERS), write=(str(job.folder),),
                       env=_env(job), io="none", processes=True, address_space_mb=4096, fsize_mb=2 * job.output_mb,
                       nofile=256)
    return make


def _javac_build(job: BuildJob) -> Command:
    home = java.jdk_home()
    assert home is not None
    tool = str(home / "bin" / "javac")
    argv = [tool, "-J-Xmx512m", "-J-XX:-UsePerfData", "-J-XX:+UseSerialGC", "-proc:none", "-encoding", "UTF-8",
            "-d", str(job.folder), *_sources(job.staged, (".java",))]
    return Command(tuple(argv), execute=(tool, *loader_paths(tool)), read=tuple(java.jdk_read_paths(home)),
                   write=(str(job.folder),), env=_env(job), io="none", address_space_mb=4096,
                   fsize_mb=2 * job.output_mb, nofile=256)


def _java_api_build(job: BuildJob) -> Command:
    assert job.api is not None
    return java.compile_program(job.api, list(job.sources), job.folder, job.memory_mb)


# cargo writes Cargo.lock beside the manifest and the staged copy is read-only: the box copies the
# sources into its own folder first (mkdir and cat only: seccomp denies chmod, which cp would call)
CARGO_SCRIPT = """set -e
mkdir "$1/src"
find . -type d ! -name . -exec mkdir -p "$1/src/{}" \\;
find . -type f -exec sh -c 'for f; do cat -- "$f" > "$0/src/$f"; done' "$1" {} +
cd "$1/src"
exec "$2" build --offline --release --quiet
"""


def _cargo_build(job: BuildJob) -> Command:
    tool = shutil.which("cargo") or "cargo"                  # not resolved: rustup's proxy dispatches on argv[0]
    bin_dir = Path(tool).parent
    env = _env(job) | {"CARGO_HOME": str(job.folder / "cargo-home"), "CARGO_TARGET_DIR": str(job.folder / "target"),
                       "CARGO_NET_OFFLINE": "true", "CARGO_INCREMENTAL": "0", "PATH": f"{bin_dir}:{BUILD_PATH}"}
    linker = _tool("cc") or _tool("gcc")                     # resolved: the box has no /etc/alternatives
    if linker:
        env["RUSTFLAGS"] = f"-Clinker={linker}"
    paths = [*TOOLCHAIN]
    if (bin_dir / "rustup").exists():                        # a rustup install: ~/.cargo and ~/.rustup beside it
        rustup = os.environ.get("RUSTUP_HOME") or str(bin_dir.parent.parent / ".rustup")
        env["RUSTUP_HOME"] = rustup
        paths += [str(bin_dir.parent), rustup]
    sh = _tool("sh") or "/bin/sh"
    argv = (sh, "-c", CARGO_SCRIPT, "cargo-build", str(job.folder), tool)
    return Command(argv, execute=tuple(paths), read=tuple(paths), write=(str(job.folder),), env=env, io="none",
                   processes=True, address_space_mb=8192, fsize_mb=2 * job.output_mb, nofile=512)


def crate_binary(staged: Path) -> str:
    """The binary cargo builds, from Cargo.toml read by a TOML parser: the only `[[bin]]` target's
    name, else the package's; NotBuildable when the manifest is unreadable or the name is not a plain name."""
    manifest = staged / "Cargo.toml"
    if manifest.is_symlink() or not manifest.is_file() or manifest.stat().st_size > MANIFEST_MAX_BYTES:
        raise NotBuildable(f"Cargo.toml must be a file of at most {MANIFEST_MAX_BYTES // 1024} KB.")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise NotBuildable(f"Cargo.toml is not valid TOML ({exc}).") from None
    bins = data.get("bin")
    package = data.get("package")
    if isinstance(bins, list) and len(bins) == 1 and isinstance(bins[0], dict) and "name" in bins[0]:
        name = bins[0]["name"]
    elif isinstance(bins, list) and len(bins) > 1:
        raise NotBuildable("Cargo.toml declares several [[bin]] targets; a player needs exactly one.")
    elif isinstance(package, dict):
        name = package.get("name")
    else:
        raise NotBuildable("Cargo.toml has no [package] table.")
    if not isinstance(name, str) or not CRATE_NAME.fullmatch(name):
        raise NotBuildable(f"Cargo.toml's binary name {name!r} is not a plain name (letters, digits, _ and -).")
    return name


def _native_run(job: RunJob) -> Command:
    exe = str(job.built / "player")
    return Command((exe,), execute=(exe, *loader_paths(exe)), read=(str(job.built),),
                   env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}, io="lines")


def _native_console_run(job: RunJob) -> Command:
    """The built program as a console program: as `_native_run`, with C stdio as on a terminal
    (coreutils' libstdbuf, where installed: stdin and stdout line-buffered, so glibc writes out a
    question printed without a newline when the program reads its answer, as a person would see it)."""
    run = _native_run(job)
    preload = next((p for p in STDBUF_LIBRARIES if os.path.isfile(p)), None)
    if preload is None:
        return run
    return replace(run, read=(*run.read, preload), env={**run.env, "LD_PRELOAD": preload, "_STDBUF_I": "L", "_STDBUF_O": "L"})


def _javac_run(job: RunJob) -> Command:
    home = java.jdk_home()
    assert home is not None
    tool = str(home / "bin" / "java")
    argv = (tool, *java.memory_flags(job.memory_mb), *java.JVM_FLAGS, "-cp", str(job.built), "Main")
    return Command(argv, execute=(tool, *loader_paths(tool)), read=(*java.jdk_read_paths(home), str(job.built)),
                   env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}, io="lines",
                   address_space_mb=java.JVM_ADDRESS_SPACE_MB)


CONSOLE_BRIDGE = "grader_shim.ConsoleHandler"


def _javac_console_run(job: RunJob) -> Command:
    """`Main` in a thread of the JVM shim, its System.in fed line by line (the Java side of
    sandbox/console_shim.py: it knows exactly when the program waits for input)."""
    return java.player_program(java.api_classes(None, CONSOLE_BRIDGE), CONSOLE_BRIDGE, job.built, job.memory_mb)


def _java_api_run(job: RunJob) -> Command:
    assert job.api is not None
    return java.player_program(job.api, job.bridge, job.built, job.memory_mb, read_once=job.read_once)


def _python_run(job: RunJob) -> Command:
    exe = os.path.realpath(sys.executable)
    prefixes = sorted({sys.base_prefix, sys.prefix, os.path.dirname(os.path.dirname(exe))})
    argv = (exe, "-E", "-s", "-u", "-B", str(python_main(job.staged)))    # not -I: its own modules import
    return Command(argv, execute=(exe, *loader_paths(exe)), read=tuple(prefixes),
                   env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}, io="lines", address_space_mb=2048)


def _script_run(job: RunJob) -> Command:
    script = str(job.staged / "player")
    first = (job.staged / "player").read_bytes()[:4096].split(b"\n", 1)[0]
    words = first[2:].decode(errors="replace").split() if first.startswith(b"#!") else []
    interpreter = os.path.realpath(words[0]) if words else ""
    if words and os.path.basename(words[0]) == "env" and len(words) > 1:
        interpreter = _tool(words[1]) or words[1]
    argv = (interpreter, *words[2 if os.path.basename(words[0]) == "env" else 1:], script) if words else (script,)
    return Command(argv, execute=(script, *([interpreter, *loader_paths(interpreter)] if interpreter else [])),
                   read=TOOLCHAIN, env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}, io="lines",
                   address_space_mb=2048)


# gcc's row before g++'s: a .h file is C's where a suffix names one language (code_languages)
KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind("java", (), "javac", _java_api_build, None, _java_api_run, language="java", sources=(".java",),
         title="Java", package="openjdk-17-jdk-headless"),
    Kind("cargo", ("Cargo.toml",), "cargo", _cargo_build, lambda staged: f"target/release/{crate_binary(staged)}",
         _native_run, _native_console_run, language="rust", sources=(".rs",), title="Rust",
         asks="Rust sources with Cargo.toml", package="cargo",
         trivial=(("Cargo.toml", '[package]\nname = "ok"\nversion = "0.1.0"\nedition = "2021"\n'),
                  ("src/main.rs", 'fn main() { println!("ok"); }\n'))),
    Kind("javac", ("Main.java",), "javac", _javac_build, None, _javac_run, _javac_console_run, language="java",
         sources=(".java",), title="Java", asks="Main.java", package="openjdk-17-jdk-headless",
         trivial=(("Main.java", 'public class Main { public static void main(String[] a) { System.out.println("ok"); } }\n'),)),
    Kind("gcc", ("*.c",), "gcc", _native_build("gcc", "-std=c11", (".c",), ("-lm",)), lambda staged: "player",
         _native_run, _native_console_run, language="c", sources=(".c", ".h"), title="C", asks="C sources",
         package="gcc", trivial=(("main.c", '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n'),)),
    Kind("g++", ("*.cpp", "*.cc", "*.cxx"), "g++", _native_build("g++", "-std=c++17", (".cpp", ".cc", ".cxx"), ()),
         lambda staged: "player", _native_run, _native_console_run, language="cpp",
         sources=(".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h"), title="C++", asks="C++ sources", package="g++",
         trivial=(("main.cpp", '#include <cstdio>\nint main() { std::puts("ok"); }\n'),)),
    Kind("none", ("player",), None, None, None, _script_run, asks="an executable script named player"),
    Kind("python", ("*.py",), None, None, None, _python_run, language="python", sources=(".py",), title="Python",
         asks="a Python program (player.py, main.py or a single .py file)"),
)}
PROGRAMS = ("cargo", "javac", "g++", "gcc", "none", "python")      # the line-protocol kinds, in detection order


def program_needs(kinds: tuple[str, ...] = PROGRAMS, also: str = "") -> str:
    """What a folder must hold to be one of `kinds` (or `also`), as a phrase: "Rust sources with
    Cargo.toml, …, or an executable script named player" (each row's `asks`), for the sentence that
    refuses one."""
    phrases = [KINDS[name].asks for name in kinds if KINDS[name].asks] + ([also] if also else [])
    return ", ".join(phrases[:-1]) + (", or " if len(phrases) > 1 else "") + phrases[-1]


def single_file_suffixes(kinds: tuple[str, ...] = PROGRAMS) -> tuple[str, ...]:
    """The suffixes of one uploaded file that is a whole program of one of `kinds` (`player.cxx`):
    their `*.suffix` patterns; Python's entry file is the ruleset's, so not among them."""
    return tuple(pattern[1:] for name in kinds if name != "python"
                 for pattern in KINDS[name].patterns if pattern.startswith("*."))


def code_languages(ruleset: Ruleset) -> dict[str, str]:
    """{suffix: language} of every kind's source files and of the ruleset's own entry files: what a
    submission's code is, whatever kind it was handed in as (the similarity report compares it all).
    A language's first suffix names its lexer."""
    table: dict[str, str] = {}
    for kind in KINDS.values():
        for suffix in kind.sources:
            table.setdefault(suffix, kind.language)
    for entry in (ruleset.entry, ruleset.java.entry if ruleset.java is not None else ""):
        suffix = Path(entry).suffix.lower()
        if suffix:
            table.setdefault(suffix, suffix[1:])
    return table


def is_api_module(path: Path, names: tuple[str, ...]) -> bool:
    """Whether a Python file is for the ruleset's shim rather than a console program (read, never
    run, and read in a bounded child: grader/python_source.py): it defines or imports one of the API's
    `names` at its top level, or it never reads its console (no `input(...)`, no `stdin`), so a
    misnamed API class still gets the interface's sentence."""
    try:
        found = python_source.facts(path)
    except (OSError, bounded.ReadRefused):
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


def detect(staged: Path | None, api: tuple[str, ...] = ()) -> str | None:
    """The line-protocol kind a staged submission asks for (by its files at the top level), or None.
    `api`: the names whose presence makes a .py file the ruleset's Python API rather than a program."""
    if staged is None or not staged.is_dir():
        return None
    for name in PROGRAMS:
        if name == "python":
            main = python_main(staged)
            return "python" if main is not None and not is_api_module(main, api) else None
        hits = [p for pattern in KINDS[name].patterns for p in staged.glob(pattern) if p.is_file()]
        if name == "none":
            hits = [p for p in hits if os.access(p, os.X_OK) or p.read_bytes()[:2] == b"#!"]
        if hits:
            return name
    return None


def _api_names(ruleset: Ruleset) -> tuple[str, ...]:
    """The names that make a .py file the ruleset's Python API rather than a console program."""
    return ruleset.lines.API_NAMES if ruleset.lines is not None else ()


def language(ruleset: Ruleset, staged: Path | None) -> str:
    """"java" when the staged copy holds the Java entry in its package, "program" when it is a
    line-protocol program (one of PROGRAMS), else "python" (the ruleset's entry file)."""
    if staged is None:
        return "python"
    api = _api_names(ruleset)
    if ruleset.lines is not None and detect(staged, api) == "python":
        return "program"                  # a Python console program, not the Python API
    if (staged / ruleset.entry).is_file():
        return "python"
    if ruleset.java is not None and (staged / ruleset.java.package / ruleset.java.entry).is_file():
        return "java"
    return "program" if ruleset.lines is not None and detect(staged, api) else "python"


def kind_of(ruleset: Ruleset, staged: Path | None) -> str | None:
    """The row of KINDS a submission needs built and started, or None (the ruleset's Python player,
    or a folder that is no program this grader can build)."""
    player = language(ruleset, staged)
    if player == "java":
        return "java"
    if player == "program":
        return detect(staged, _api_names(ruleset))
    return None


def allowed_builds(chosen: list[str] | None) -> tuple[str, ...]:
    """The line-protocol builds an assignment allows: the ones its config chose (`programs.builds`),
    or every one when it chose none."""
    return PROGRAMS if chosen is None else tuple(chosen)
