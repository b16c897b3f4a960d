"""The child's bootstrap: `python -I -m sandbox.child '<config json>'`.

Trusted code running in the player process. In this order: import everything needed (shim,
its PRELOAD, the seccomp library), join the cgroup, rlimits, CPU pinning, network namespace,
drop capabilities, NO_NEW_PRIVS, Landlock, seccomp. Then write the "ready" frame (what was
applied; no student code has run yet, so it cannot be forged) and read messages: the first one
opens the submission, each later one calls the shim's handler; each reply echoes the request id.
stdout and stderr are the manager's capture pipe from exec on, so print() never reaches the protocol.
A thread the player starts before its first "move" keeps the first-turn Landlock domain: the
second ruleset binds the serving thread and the threads it creates afterwards. Each step is optional: a step
that cannot be applied is recorded as "missing: <why>" and reported to the manager.
"""
from __future__ import annotations

import importlib
import json
import os
import site
import sys

from sandbox import confine, invoke, landlock, program, seccomp_filter, wire

SYSTEM_READ_PATHS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache",
                     "/etc/localtime", "/usr/share/zoneinfo", "/dev/null", "/dev/urandom",
                     "/sys/devices/system/cpu")


def package_dir(module) -> str | None:
    """The directory of a module's top-level package (or of the module file itself)."""
    top = sys.modules.get(module.__name__.split(".")[0], module)
    path = getattr(top, "__file__", None)
    return os.path.dirname(os.path.abspath(path)) if path else None


def first_turn_paths(cfg: dict) -> list[str]:
    """readable_until_first_reply as absolute paths; relative ones are inside the submission."""
    return [os.path.normpath(os.path.join(cfg["submission"], p))
            for p in cfg.get("readable_until_first_reply", ())]


def readable_paths(cfg: dict, modules) -> list[str]:
    if cfg.get("exec"):                      # a program: no interpreter, its own files instead
        return [*SYSTEM_READ_PATHS, cfg["submission"], *cfg["exec"]["read"], *cfg.get("read_paths", ()),
                *first_turn_paths(cfg)]
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    sitedirs = set(site.getsitepackages()) | {p for p in sys.path if p.endswith("site-packages")}
    packages = {d for d in map(package_dir, modules) if d}
    return [*sorted(prefixes | sitedirs | packages), *SYSTEM_READ_PATHS, cfg["submission"],
            *cfg.get("read_paths", ()), *first_turn_paths(cfg)]


def paths_without(paths: list[str], gone: set[str]) -> list[str]:
    """`paths` minus everything beneath `gone`. Landlock cannot subtract, so a granted folder that
    holds a gone path (the submission holding data/) is replaced by its entries, recursively."""
    out = []
    for path in paths:
        path = os.path.normpath(path)
        if path in gone:
            continue
        inside = [g for g in gone if g.startswith(path.rstrip("/") + "/")]
        if inside and os.path.isdir(path):
            out += paths_without([os.path.join(path, e) for e in sorted(os.listdir(path))], gone)
        else:
            out.append(path)
    return out


class Bootstrap:
    """Applies the restrictions in order and remembers what each step achieved."""

    def __init__(self, cfg: dict) -> None:
        self.cfg = cfg
        self.applied: dict[str, str] = {}
        self.abi = 0

    def step(self, name: str, fn, *args) -> bool:
        try:
            self.applied[name] = fn(*args)
            return True
        except Exception as exc:                      # a missing layer is logged, not fatal
            self.applied[name] = f"missing: {exc}"
            print(f"sandbox: {name} not applied: {exc}", file=sys.stderr)
            return False

    def skip(self, name: str, why: str) -> None:
        self.applied[name] = f"missing: {why}"

    def run(self):
        shim = self.load()
        self.restrict()
        return shim

    def load(self):
        """Steps 1-2, no restriction yet: import the shim, its PRELOAD and libseccomp; read the
        Landlock ABI. A pre-fork template (sandbox/zygote.py) stops here and forks."""
        shim = importlib.import_module(self.cfg["shim"])
        self.modules = [sys.modules["sandbox"], shim]
        self.modules += [importlib.import_module(m) for m in getattr(shim, "PRELOAD", ())]
        self.seccomp_ok = self.step("seccomp", lambda: seccomp_filter.load_library() and "loaded")
        self.abi = landlock.abi_version()
        return shim

    def restrict(self) -> None:
        """Every restriction, in order, for the submission in self.cfg (nothing is imported from it)."""
        cfg, seccomp_ok = self.cfg, self.seccomp_ok
        run = cfg.get("exec") or {}
        os.chdir(cfg["submission"])
        sys.path.insert(0, cfg["submission"])
        if cfg.get("cgroup_procs"):
            self.step("cgroup", confine.join_cgroups, cfg["cgroup_procs"])
        self.step("rlimits", confine.set_rlimits, cfg["address_space_mb"], run.get("nofile", 64),
                  run.get("fsize_mb", 0))
        if cfg.get("cpu") is not None:
            self.step("cpu", confine.pin_cpu, cfg["cpu"])
        if cfg.get("netns") and os.geteuid() == 0:
            self.step("netns", confine.unshare_network)
        if os.geteuid() == 0:
            self.step("capabilities", confine.drop_capabilities)
        nnp = self.step("no_new_privs", confine.no_new_privs)
        self.read_paths = readable_paths(cfg, self.modules)
        if self.abi and nnp:
            self.step("landlock", self.apply_landlock, self.read_paths)
        else:
            self.skip("landlock", "kernel has no Landlock" if not self.abi else "NO_NEW_PRIVS failed")
        if seccomp_ok and nnp:
            exec_note = f"; execve for {run['argv'][0]} only (Landlock)" if run else ""
            if run.get("processes"):
                exec_note += "; processes allowed (a build)"
            self.step("seccomp", lambda: f"{seccomp_filter.install(bool(run), bool(run.get('processes')))} rules, "
                                         f"EPERM; foreign ABIs killed{exec_note}")

    def apply_landlock(self, paths) -> str:
        run = self.cfg.get("exec")
        if run:
            skipped = landlock.restrict(paths, self.abi, execute=run["execute"], write=run["write"])
        else:
            skipped = landlock.restrict(paths, self.abi)
        extra = ", TCP denied" if self.abi >= 4 else ""
        if run:
            extra += f", EXECUTE only {len(run['execute'])} files" + (
                f", writable {len(run['write'])} folders" if run["write"] else "")
        extra += ", signal and abstract-socket scopes" if self.abi >= 6 else ""
        return f"ABI {self.abi}: read-only {len(paths) - len(skipped)} paths{extra}"

    def first_turn_env(self) -> dict[str, str]:
        """For a program (a JVM) that forgets the first-turn paths itself after its first move:
        what stays readable, one path a line, in GRADER_KEEP_READABLE (nothing when none is gone)."""
        gone = {p for p in first_turn_paths(self.cfg) if os.path.exists(p)}
        if not gone or not self.abi:
            return {}
        keep = paths_without([*self.read_paths, *self.cfg["exec"]["execute"]], gone)
        return {"GRADER_KEEP_READABLE": "\n".join(keep)}

    def forget_first_turn_paths(self) -> None:
        """Stack a second ruleset without readable_until_first_reply (this thread and new ones)."""
        gone = set(first_turn_paths(self.cfg))
        if gone and self.abi:
            landlock.restrict(paths_without(self.read_paths, gone), self.abi)


def serve(boot: Bootstrap, shim, req_fd: int, rep_fd: int) -> None:
    handler = None
    open_error = "the submission was not opened"
    first_turn_pending = bool(boot.cfg.get("readable_until_first_reply"))
    wire.write_all(rep_fd, wire.encode({"ready": boot.applied}))   # before any student code runs
    if boot.cfg.get("exec"):
        program.exec_program(boot.cfg["exec"], req_fd, rep_fd, boot.first_turn_env())
    while True:
        msg = wire.read_message(req_fd)
        if msg is None:
            os._exit(0)
        if "open" in msg:
            invoke.seed_generators(msg.get("seed"))
            try:
                handler = shim.open_submission(boot.cfg["submission"], msg["open"] or {})
                reply = {"ok": None}
            except MemoryError:
                raise
            except Exception as exc:
                reply = invoke.error_reply(exc)
                open_error = f"the submission failed to open: {reply['error']['message']}"
        elif handler is None:
            reply = {"error": {"type": "RuntimeError", "message": open_error, "traceback": ""}}
        else:
            reply = invoke.call(handler, msg.get("method"), msg.get("args"))
            if first_turn_pending and msg.get("method") == "move" and "ok" in reply:
                boot.forget_first_turn_paths()
                first_turn_pending = False
        reply["id"] = msg.get("id")
        try:
            data = wire.encode(reply)
        except (TypeError, ValueError) as exc:
            data = wire.encode({**invoke.error_reply(TypeError(f"the reply is not JSON data: {exc}")),
                                "id": msg.get("id")})
        wire.write_all(rep_fd, data)


def prepare_interpreter() -> None:
    """No bytecode files (nothing is writable anyway); print() reaches the capture pipe by line."""
    sys.dont_write_bytecode = True
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(line_buffering=True)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    prepare_interpreter()
    try:
        boot = Bootstrap(cfg)
        shim = boot.run()
        serve(boot, shim, cfg["request_fd"], cfg["reply_fd"])
    except MemoryError:
        os._exit(wire.MEMORY_EXIT)


if __name__ == "__main__":
    main()
