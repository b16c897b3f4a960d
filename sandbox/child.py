"""The child's bootstrap: `python -s -P -m sandbox.child <request fd> <reply fd>`.

Trusted code running in the player process. Its configuration is the first message on the
request pipe (never on the command line, where the player could read it). In this order: import
everything needed (shim, its PRELOAD, the seccomp library), join the cgroup, rlimits, CPU
pinning, the player's own clocks (sandbox/own_clock.py), network namespace, private root (sandbox/box.py), drop capabilities and become the
box's uid, die with the parent, NO_NEW_PRIVS, Landlock, seccomp. As root it is already pid 1 of
a pid namespace of its own (its parent created it so). Then write the "ready" frame (what was
applied; no student code has run yet, so it cannot be forged) and read messages: the first one
opens the submission, each later one calls the shim's handler; each reply echoes the request id.
stdout and stderr are the manager's capture pipe from exec on, so print() never reaches the protocol.
A thread the player starts before its first "move" keeps the first-turn Landlock domain: the
second ruleset binds the serving thread and the threads it creates afterwards. Each step is optional: a step
that cannot be applied is recorded as "missing: <why>" and reported to the manager.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import site
import sys
import types
from collections.abc import Callable
from typing import Any

from sandbox import box, cgroup, command, confine, landlock, own_clock, seccomp_filter, wire
from sandbox.callloop import course_packages, prepare_interpreter, serve
from sandbox.wire import ChildConfig

SYSTEM_READ_PATHS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                     "/etc/localtime", "/usr/share/zoneinfo", "/dev/null", "/dev/urandom",
                     "/sys/devices/system/cpu")


def package_dir(module: types.ModuleType) -> str | None:
    """The directory of a module's top-level package (or of the module file itself)."""
    top = sys.modules.get(module.__name__.split(".")[0], module)
    path: str | None = getattr(top, "__file__", None)
    if path:
        return os.path.dirname(os.path.abspath(path))
    folders = list(getattr(top, "__path__", ()))      # a stand-in package (import_shim) has no file
    return os.path.abspath(folders[0]) if folders else None


# The grader's own packages: engines, probes, built-in players, validation. Out of every player's
# reach in every install shape (a source tree, a wheel in a venv, Gradescope's /autograder/venv, a
# system-wide install under /usr/local/lib), whatever read path (a Python prefix, site-packages,
# /usr/lib) holds them; a Python player keeps only the files its shim imported.
GRADER_PACKAGES = ("rulesets", "grader")


def grader_package_dirs() -> set[str]:
    """The folders of GRADER_PACKAGES as found on sys.path (and their real paths), not imported."""
    out: set[str] = set()
    for name in GRADER_PACKAGES:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
            out |= {os.path.normpath(os.path.abspath(folder)), os.path.realpath(folder)}
    return out


def first_turn_paths(cfg: ChildConfig) -> list[str]:
    """readable_until_first_reply as absolute paths; relative ones are inside the submission."""
    return [os.path.normpath(os.path.join(cfg.submission, p)) for p in cfg.readable_until_first_reply]


def import_shim(name: str) -> types.ModuleType:
    """Import the shim without running its parent packages' __init__: a ruleset's __init__ imports
    its engine, probes and built-in players, which the player's process must not hold. Each parent
    not yet imported becomes an empty package over its folder (no file, no loader)."""
    parts = name.split(".")
    for i in range(1, len(parts)):
        parent = ".".join(parts[:i])
        if parent not in sys.modules:
            spec = importlib.util.find_spec(parent)           # its own parent is already in sys.modules
            if spec is None or spec.submodule_search_locations is None:
                break                              # import_module below says what is missing
            stub = types.ModuleType(parent, "An empty stand-in: the package's own __init__ was not run.")
            stub.__path__ = list(spec.submodule_search_locations)
            stub.__spec__ = importlib.machinery.ModuleSpec(parent, None, is_package=True)
            stub.__spec__.submodule_search_locations = stub.__path__
            sys.modules[parent] = stub
            if i > 1:
                setattr(sys.modules[".".join(parts[:i - 1])], parts[i - 1], stub)
    return importlib.import_module(name)


def loaded_files(folder: str) -> list[str]:
    """The files of the modules imported so far from beneath `folder`."""
    inside = folder.rstrip("/") + "/"
    files = (getattr(m, "__file__", None) for m in list(sys.modules.values()))
    return sorted({os.path.abspath(f) for f in files if f and os.path.abspath(f).startswith(inside)})


def readable_paths(cfg: ChildConfig, modules: list[types.ModuleType], shim: types.ModuleType | None = None,
                   interpreter: list[str] | None = None) -> list[str]:
    """What the player may read: the interpreter, site-packages, system libraries, the packages of
    `modules` (the sandbox, the PRELOAD), the submission and the configured paths; of the shim's
    own top-level package only the files it imported (so a ruleset's engine, probes and built-in
    players stay unreadable, even where site-packages holds them) and the shim's READ_PATHS.
    `interpreter`: interpreter_paths() already worked out (by a pre-fork template, once)."""
    if cfg.exec is not None:                 # a program: no interpreter, its own files instead
        return paths_without([*SYSTEM_READ_PATHS, cfg.submission, *cfg.exec.read, *cfg.read_paths,
                              *first_turn_paths(cfg)], grader_package_dirs())
    if interpreter is None:
        interpreter = interpreter_paths(cfg.python_path, modules, shim)
    return [*interpreter, cfg.submission, *cfg.read_paths, *first_turn_paths(cfg)]


def interpreter_paths(python_path: list[str], modules: list[types.ModuleType],
                      shim: types.ModuleType | None = None) -> list[str]:
    """The part of a Python player's readable paths that is the same for every submission (the
    interpreter, libraries, the modules' packages, the shim's files): a template works it out once
    (listing the folders that hold hidden packages took about 3 ms a player)."""
    hidden = grader_package_dirs()
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    sitedirs = set(site.getsitepackages()) | {p for p in sys.path if p.endswith("site-packages")}
    packages = {d for d in map(package_dir, modules) if d}
    paths = [*sorted(prefixes | sitedirs | packages | set(python_path)), *SYSTEM_READ_PATHS]
    own = package_dir(shim) if shim is not None and "." in shim.__name__ else None   # a package of its own
    gone = hidden | ({own} if own is not None and own not in packages else set())
    kept = [f for folder in sorted(gone) for f in loaded_files(folder)]
    paths = paths_without(paths, gone) + sorted(set(kept)) + list(getattr(shim, "READ_PATHS", ()))
    for folder in [p for p in sys.path_importer_cache if any(p == g or p.startswith(g + "/") for g in gone)]:
        del sys.path_importer_cache[folder]            # their listings would still name the hidden files
    return paths


def paths_without(paths: list[str], gone: set[str]) -> list[str]:
    """`paths` minus everything beneath `gone`. Landlock cannot subtract, so a granted folder that
    holds a gone path (the submission holding data/) is replaced by its entries, recursively."""
    out = []
    for path in paths:
        path = os.path.normpath(path)
        real = os.path.realpath(path)               # /lib -> /usr/lib holds what /usr/lib holds
        if path in gone or real in gone:
            continue
        inside = [g for g in gone if g.startswith(real.rstrip("/") + "/")]
        if inside and os.path.isdir(real):
            out += paths_without([os.path.join(real, e) for e in sorted(os.listdir(real))], gone)
        else:
            out.append(path)
    return out


class Bootstrap:
    """Applies the restrictions in order and remembers what each step achieved."""

    def __init__(self, cfg: ChildConfig) -> None:
        self.cfg = cfg
        self.applied: dict[str, str] = {}
        self.abi = 0
        self.started_in: str | None = None   # the cgroup v2 directory a template created us in

    def step(self, name: str, fn: Callable[..., str], *args: Any) -> bool:
        try:
            self.applied[name] = fn(*args)
            return True
        except Exception as exc:                      # a missing layer is logged, not fatal
            self.applied[name] = f"missing: {exc}"
            print(f"sandbox: {name} not applied: {exc}", file=sys.stderr)
            return False

    def skip(self, name: str, why: str) -> None:
        self.applied[name] = f"missing: {why}"

    def run(self) -> types.ModuleType:
        shim = self.load()
        self.restrict()
        return shim

    def load(self) -> types.ModuleType:
        """Steps 1-2, no restriction yet: import the shim, its PRELOAD and libseccomp; read the
        Landlock ABI. A pre-fork template (sandbox/zygote.py) stops here and forks."""
        course_packages(self.cfg.python_path)      # before the shim imports NumPy
        shim = import_shim(self.cfg.shim)
        self.shim = shim
        self.modules = [sys.modules["sandbox"]]
        self.modules += [importlib.import_module(m) for m in getattr(shim, "PRELOAD", ())]
        self.seccomp_ok = self.step("seccomp", lambda: seccomp_filter.load_library() and "loaded")
        self.abi = landlock.abi_version()
        self.interpreter = interpreter_paths(self.cfg.python_path, self.modules, shim)
        return shim

    def restrict(self) -> None:
        """Every restriction, in order, for the submission in self.cfg (nothing is imported from it)."""
        cfg, seccomp_ok = self.cfg, self.seccomp_ok
        root, uid = os.geteuid() == 0, cfg.uid
        run = cfg.exec
        if cfg.cgroup_procs:
            procs, cfg.cgroup_procs = cfg.cgroup_procs, []
            self.step("cgroup", confine.join_cgroups, procs, self.started_in)
        self.step("rlimits", confine.set_rlimits, cfg.address_space_mb, run.nofile if run else 64,
                  cgroup.PIDS_MAX if uid is not None else None, run.fsize_mb if run else 0)
        if cfg.cpu is not None:
            self.step("cpu", confine.pin_cpu, cfg.cpu)
        if run is None:                            # before the private root hides /proc
            self.step("own_clock", own_clock.install)
        if cfg.netns and root:
            self.step("netns", confine.unshare_network)
        if os.getpid() == 1:
            self.applied["pid_namespace"] = "pid 1 of its own pid namespace: no other process visible"
        else:
            self.skip("pid_namespace", cfg.pid_namespace_missing or "not started in a pid namespace")
        self.read_paths = readable_paths(cfg, self.modules, self.shim, self.interpreter)
        if root:                                   # real root, or uid 0 of a user namespace
            self.step("private_root", box.private_root,
                      [*self.read_paths, *(run.execute if run else ()), *(run.write if run else ())], bool(run),
                      run.write if run else ())
        else:
            self.skip("private_root", cfg.pid_namespace_missing or "no mount namespace without root")
        os.chdir(cfg.submission)
        sys.path.insert(0, cfg.submission)
        if root:
            self.step("capabilities", confine.drop_capabilities, uid)
        self.applied["uid"] = (f"{os.getuid()}, its own (no other player, template or manager has it)"
                               if uid is not None and os.getuid() == uid else
                               f"missing: {cfg.uid_missing or 'the uid could not be changed'}")
        self.step("parent_death", confine.die_with_parent, cfg.request_fd)
        nnp = self.step("no_new_privs", confine.no_new_privs)
        if self.abi and nnp:
            self.step("landlock", self.apply_landlock, self.read_paths)
        else:
            self.skip("landlock", "kernel has no Landlock" if not self.abi else "NO_NEW_PRIVS failed")
        if seccomp_ok and nnp:
            exec_note = f"; execve for {run.argv[0]} only (Landlock)" if run else ""
            processes = run is not None and run.processes
            if processes:
                exec_note += "; processes allowed (a build)"
            self.step("seccomp", lambda: f"{seccomp_filter.install(bool(run), processes)} rules, "
                                         f"EPERM; foreign ABIs killed{exec_note}")

    def apply_landlock(self, paths: list[str]) -> str:
        run = self.cfg.exec
        if run:
            skipped = landlock.restrict(paths, self.abi, execute=list(run.execute), write=list(run.write))
        else:
            skipped = landlock.restrict(paths, self.abi)
        extra = ", TCP denied" if self.abi >= 4 else ""
        if run:
            extra += f", EXECUTE only {len(run.execute)} files" + (
                f", writable {len(run.write)} folders" if run.write else "")
        extra += ", signal and abstract-socket scopes" if self.abi >= 6 else ""
        return f"ABI {self.abi}: read-only {len(paths) - len(skipped)} paths{extra}"

    def after_ready(self, req_fd: int, rep_fd: int) -> None:
        """A program player (a JVM, a compiled program): exec it now, every layer applied and the
        ready frame written; it inherits the protocol's descriptors. Python players go on serving."""
        if self.cfg.exec is not None:
            command.exec_command(self.cfg.exec, req_fd, rep_fd, self.first_turn_env())

    def first_turn_env(self) -> dict[str, str]:
        """For a program (a JVM) that forgets the first-turn paths itself after its first move:
        what stays readable, one path a line, in GRADER_KEEP_READABLE (nothing when none is gone)."""
        gone = {p for p in first_turn_paths(self.cfg) if os.path.exists(p)}
        if not gone or not self.abi:
            return {}
        keep = paths_without([*self.read_paths, *(self.cfg.exec.execute if self.cfg.exec else ())], gone)
        return {"GRADER_KEEP_READABLE": "\n".join(keep)}

    def forget_first_turn_paths(self) -> None:
        """Stack a second ruleset without readable_until_first_reply (this thread and new ones)."""
        gone = set(first_turn_paths(self.cfg))
        if gone and self.abi:
            landlock.restrict(paths_without(self.read_paths, gone), self.abi)


def read_config(req_fd: int, rep_fd: int) -> ChildConfig:
    """The manager's first message on the request pipe: this player's configuration."""
    msg = wire.read_message(req_fd)
    if not isinstance(msg, dict):
        os._exit(0)                                # the manager is gone already
    return ChildConfig.from_message(msg, request_fd=req_fd, reply_fd=rep_fd)


def main() -> None:
    cfg = read_config(int(sys.argv[1]), int(sys.argv[2]))
    del sys.argv[1:]
    prepare_interpreter()
    try:
        boot = Bootstrap(cfg)
        shim = boot.run()
        serve(boot, shim, cfg.request_fd, cfg.reply_fd)
    except MemoryError:
        os._exit(wire.MEMORY_EXIT)


if __name__ == "__main__":
    main()
