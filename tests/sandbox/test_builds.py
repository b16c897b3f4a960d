"""Builds of students' programs against hostile sources: the grader takes only what the build
declared, never follows a link the build left, caps what a build may leave, and caches only
successes, least recently used evicted (grader/builds.py, grader/confined_files.py, grader/build_cache.py).

Every test runs as root and as an ordinary user; the cargo tests need cargo (Debian's or rustup's).
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from grader import build_cache, builds
from grader.builds import build_kind
from grader.config import ProgramsConfig
from grader.confined_files import open_beneath
from grader.player_kinds import (
    KINDS,
    NotBuildable,
    RunJob,
    crate_binary,
    detect,
    program_needs,
    single_file_suffixes,
)
from grader.submissions import Programs, load
from sandbox import Limits, PlayerProcess, state_dir
from tests.example_programs import RUST_MAIN

SHIM = "sandbox.module_shim"
needs_gpp = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
needs_cargo = pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is not installed")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """Each test its own cache folder (private: players get their builds through bind mounts)."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("GRADER_JAVA_CACHE", str(cache))
    return cache


def staged(tmp_path: Path, files: dict[str, str], name: str = "prog"):
    folder = tmp_path / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    sub = load(folder, "player.py", 10.0, program=Programs(detect, program_needs(), single_file_suffixes()))
    assert sub.problem is None, sub.problem
    return sub


def secret_file(tmp_path: Path) -> Path:
    """A file only its owner (root, under the root run) may read: 0600, outside every build's folder."""
    secret = tmp_path / "secret"
    secret.write_text("only the grader's owner reads this\n")
    os.chmod(secret, 0o600)
    return secret


def cached_builds() -> list[str]:
    return sorted(p.name for p in build_cache.root().iterdir() if not p.name.startswith(build_cache.PENDING))


# -- a crate whose proc macro runs inside the compiler: a symlink and a name inside a string -------

PROC_MACRO = """extern crate proc_macro;
use proc_macro::TokenStream;

#[proc_macro]
pub fn plant(_: TokenStream) -> TokenStream {
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_string());
    let release = format!("{}/release", target);
    let _ = std::fs::create_dir_all(&release);
    let _ = std::os::unix::fs::symlink("SECRET", format!("{}/evil", release));
    for i in 0..FILES {
        let _ = std::fs::write(format!("{}/junk-{}", release, i), b"x");
    }
    "".parse().unwrap()
}
"""
MAIN_RS = "pm::plant!();\n" + RUST_MAIN


def hostile_crate(secret: Path, files: int = 0) -> dict[str, str]:
    """A crate whose Cargo.toml says `name = "evil"` inside a string (its package is `dc`) and whose
    proc macro, run inside rustc, plants target/release/evil -> `secret` and `files` junk files."""
    return {
        "Cargo.toml": '[package]\ndescription = """\nname = "evil"\n"""\nname = "dc"\nversion = "0.1.0"\n'
                      'edition = "2021"\n\n[dependencies]\npm = { path = "pm" }\n',
        "src/main.rs": MAIN_RS,
        "pm/Cargo.toml": '[package]\nname = "pm"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n',
        "pm/src/lib.rs": PROC_MACRO.replace("SECRET", str(secret)).replace("FILES", str(files)),
    }


@needs_cargo
def test_a_symlink_named_in_a_string_of_cargo_toml_leaves_a_root_only_file_alone(tmp_path):
    """The crate's name came from the first `name =` line (one inside a string) and the file of that
    name (a link the build planted) was chmod-ed 0755 as root. Now TOML is parsed, only the declared
    binary is read, through a descriptor that never follows a link, and nothing is chmod-ed."""
    secret = secret_file(tmp_path)
    sub = staged(tmp_path, hostile_crate(secret))
    assert crate_binary(sub.staged) == "dc"
    built = build_kind("cargo", sub.staged, SHIM, ProgramsConfig(), key="cargo-test")
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600, "the build's link was followed"
    assert built.ok, (built.message, built.compiler)
    assert built.folder is not None and sorted(os.listdir(built.folder)) == ["player"]
    answer = subprocess.run([str(built.folder / "player")], input="colours first\n", capture_output=True,
                            text=True, timeout=60)
    assert answer.stdout.splitlines()[0] == "0 5 A 2"


@needs_cargo
def test_a_build_that_leaves_ten_thousand_files_fails_with_a_sentence_and_is_not_cached(tmp_path):
    secret = secret_file(tmp_path)
    sub = staged(tmp_path, hostile_crate(secret, files=10_000))
    built = build_kind("cargo", sub.staged, SHIM, ProgramsConfig(), key="cargo-junk")
    assert not built.ok
    assert "its output went over the limit of 64 MB and 4096 files (it left at least 4097 files" in built.message, built.message
    assert cached_builds() == []
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_crate_names_are_parsed_and_must_be_plain(tmp_path):
    cases = {'[package]\nname = "../../../../etc/shadow"\n': "is not a plain name",
             '[package]\nname = "ok"\n[[bin]]\nname = "a"\n[[bin]]\nname = "b"\n': "several [[bin]] targets",
             'name = "x"\n[package\n': "is not valid TOML",
             '# name = "commented"\n[package]\nname = "real"\n': None}
    for n, (manifest, problem) in enumerate(cases.items()):
        folder = tmp_path / f"c{n}"
        folder.mkdir()
        (folder / "Cargo.toml").write_text(manifest)
        if problem is None:
            assert crate_binary(folder) == "real"
        else:
            with pytest.raises(NotBuildable, match=problem.replace("[", r"\[").replace("]", r"\]")):
                crate_binary(folder)


# -- g++: a binary over the output cap, a failure, the cache --------------------------------------

HUGE = "char big[100 << 20] = {1};\nint main() { return big[12345]; }\n"       # a 100 MB binary from 60 bytes
TINY = "#include <cstdio>\nint main() { std::puts(\"hello\"); }\n"


@needs_gpp
def test_a_build_that_writes_a_100_mb_binary_fails_with_a_sentence_and_is_not_cached(tmp_path):
    sub = staged(tmp_path, {"main.cpp": HUGE})
    built = build_kind("g++", sub.staged, SHIM, ProgramsConfig(), key="gpp-huge")
    assert not built.ok
    assert built.message.startswith("The g++ build failed: its output went over the limit of 64 MB"), built.message
    assert cached_builds() == []


@needs_gpp
def test_a_failed_build_is_not_cached_and_a_successful_one_is(tmp_path):
    bad = staged(tmp_path, {"main.cpp": "int main() { return undefined_name; }\n"}, name="bad")
    built = build_kind("g++", bad.staged, SHIM, ProgramsConfig(), key="gpp-bad")
    assert not built.ok and "undefined_name" in built.compiler
    assert cached_builds() == []
    good = staged(tmp_path, {"main.cpp": TINY}, name="good")
    built = build_kind("g++", good.staged, SHIM, ProgramsConfig(), key="gpp-good")
    assert built.ok and cached_builds() == ["gpp-good"]
    again = build_kind("g++", good.staged, SHIM, ProgramsConfig(), key="gpp-good")
    assert again.ok and again.message.endswith("(cached)")


def test_the_least_recently_used_builds_are_evicted_over_the_cap(tmp_path):
    def fill(size: int):
        return lambda folder: (folder / "player").write_bytes(b"\0" * size)
    old = time.time() - 3600
    for n, key in enumerate(("a", "b", "c")):
        build_cache.publish(key, fill(400_000), cap_mb=10)
        os.utime(build_cache.root() / key, (old + n, old + n))      # used an hour ago, a first
    assert build_cache.lookup("a") is not None                       # a used again: now the most recent
    build_cache.publish("d", fill(400_000), cap_mb=1)                # 1.6 MB over a 1 MB cap
    assert cached_builds() == ["a", "d"], "b and c were the least recently used"


ECHO = {
    "g++": {"main.cpp": '#include <iostream>\n#include <string>\nint main() { std::string l;\n'
                        '  while (std::getline(std::cin, l)) std::cout << "got " << l << std::endl; }\n'},
    "cargo": {"Cargo.toml": '[package]\nname = "echo"\nversion = "0.1.0"\nedition = "2021"\n',
              "src/main.rs": 'use std::io::BufRead;\nfn main() {\n    for l in std::io::stdin().lock().lines() {\n'
                             '        println!("got {}", l.unwrap());\n    }\n}\n'},
}


@pytest.mark.parametrize("kind", sorted(ECHO))
def test_a_built_program_plays_in_both_start_modes(tmp_path, start_mode, request, kind):
    if shutil.which(kind) is None:
        pytest.skip(f"{kind} is not installed")
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    sub = staged(tmp_path, ECHO[kind])
    built = build_kind(kind, sub.staged, SHIM, ProgramsConfig(), key=f"{kind}-echo")
    assert built.ok and built.folder is not None, (built.message, built.compiler)
    program = KINDS[kind].run(RunJob(sub.staged, built.folder, 256))
    proc = PlayerProcess(SHIM, sub.staged, Limits(start_s=30, call_s=10), name="echo", prefork=pool, program=program,
                         lines=object())     # spoken to with exchange_line only
    try:
        assert proc.start().ok
        assert proc.started_by == start_mode
        res = proc.exchange_line(["ping"], 10)
        assert res.ok and res.value == "got ping", res
    finally:
        proc.close()


def test_paths_under_a_build_folder_are_opened_without_following_links(tmp_path):
    secret = secret_file(tmp_path)
    folder = tmp_path / "built"
    (folder / "real").mkdir(parents=True)
    (folder / "real" / "player").write_text("x")
    os.symlink(secret, folder / "player")
    os.symlink(folder / "real", folder / "linked")
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.close(open_beneath(fd, "real/player"))
        for rel in ("player", "linked/player", "../secret", "real/../../secret"):
            with pytest.raises((OSError, builds.NotTaken)):
                os.close(open_beneath(fd, rel))
    finally:
        os.close(fd)


@needs_gpp
def test_doctor_calls_a_build_active_only_after_a_trivial_sandboxed_build(monkeypatch):
    builds.available.cache_clear()
    state = builds.available()
    assert state["g++"].endswith("a trivial program built in the sandbox"), state
    builds.available.cache_clear()
    monkeypatch.setitem(builds.KINDS, "g++", replace(KINDS["g++"], trivial=(("main.cpp", "this is not C++\n"),)))
    assert builds.available()["g++"].startswith("missing: "), "a toolchain that cannot build is not active"
    builds.available.cache_clear()


def test_a_cache_folder_others_can_write_is_refused(tmp_path, monkeypatch):
    """Another local account that made the cache folder first could swap a build in it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("GRADER_JAVA_CACHE", str(shared))
    with pytest.raises(state_dir.StateUnsafe, match="mode 777, open to other users"):
        build_cache.root()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o777              # refused, never re-moded


def test_eviction_removes_what_a_dead_grader_left(tmp_path):
    cache = build_cache.root()
    (cache / "building-dead").mkdir()
    (cache / "building-dead" / "junk").write_bytes(b"\0" * 1000)
    (cache / "building-live").mkdir()
    old = time.time() - build_cache.STALE_S - 60
    os.utime(cache / "building-dead", (old, old))
    build_cache.publish("fresh", lambda folder: (folder / "player").write_bytes(b"x"), cap_mb=100)
    assert sorted(os.listdir(cache)) == ["building-live", "fresh"]
