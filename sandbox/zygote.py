"""The pre-fork template ("zygote"): `python -s -P -m sandbox.zygote '<json>'`, started by sandbox.prefork.

Trusted and unrestricted: it has imported sandbox.child, the shim, its PRELOAD and libseccomp
(child.Bootstrap.load) and never runs student code. For each request on its control socket
(a JSON config plus four descriptors by SCM_RIGHTS: request, reply, output, status socket) it
forks. The parent answers with the child's pid and a pidfd, keeps the status socket and, when
the child ends, reaps it and writes its wait status and rusage there. The child leaves the
template's loop entirely, keeps only stdin, stdout/stderr (the output pipe) and the two protocol
pipes, starts its own session, and runs the same restriction steps as sandbox.child before it
opens the submission: every game is a fresh process that restricts itself first. As root each
child is pid 1 of a new pid namespace (unshare before the fork, setns back after it), so it sees
neither the template nor anything else; it dies with the template (PR_SET_PDEATHSIG), and the
template leaves when its manager hangs up or dies: while it imports (and cannot read its control
socket) by PR_SET_PDEATHSIG too, lifted once it serves, since the manager's thread that started it
may end long before the manager does. On cgroup v2 the child is created inside its player's cgroup
(clone3 CLONE_INTO_CGROUP), so it never migrates into it.
"""
from __future__ import annotations

import json
import os
import select
import socket
import sys

from sandbox import callloop, child, confine, wire
from sandbox.wire import ChildConfig

REQUEST_BYTES = 64 * 1024          # one fork request: the child's JSON config
FDS_PER_REQUEST = 4                # request pipe, reply pipe, output pipe, status socket


class Template:
    """The fork server's state: its control socket and the children it has to reap."""

    def __init__(self, control: socket.socket, boot: child.Bootstrap, userns: str | None = None) -> None:
        self.control = control
        self.boot = boot
        self.userns = userns                       # "missing: why", or what enter_user_namespace did
        self.children: dict[int, tuple[int, socket.socket]] = {}    # pidfd -> (pid, status socket)
        self.clone_into_cgroup: str | None = None  # why clone3(CLONE_INTO_CGROUP) failed here, once it did

    def serve(self) -> ChildConfig:
        """Answer fork requests and reap children until the manager hangs up (then exit).
        Returns only in a forked child, with the child's config."""
        while True:
            ready, _, _ = select.select([self.control.fileno(), *self.children], [], [])
            for fd in ready:
                if fd != self.control.fileno():
                    self.reap(fd)
                    continue
                msg, fds, _, _ = socket.recv_fds(self.control, REQUEST_BYTES, FDS_PER_REQUEST)
                if not msg:
                    sys.exit(0)                    # the manager is gone: its players die with us
                job = self.fork(ChildConfig.from_message(json.loads(msg)), fds)
                if job is not None:
                    return job

    def fork(self, cfg: ChildConfig, fds: list[int]) -> ChildConfig | None:
        if len(fds) != FDS_PER_REQUEST:
            for fd in fds:
                os.close(fd)
            self.control.sendall(json.dumps({"error": "a fork request needs four descriptors"}).encode())
            return None
        req_r, rep_w, out_w, status_fd = fds
        try:
            pid, cfg.pid_namespace_missing = self.fork_process(cfg.cgroup_dir)
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            self.control.sendall(json.dumps({"error": f"fork failed: {exc}"}).encode())
            return None
        if pid == 0:
            self.become_child(out_w, keep=(req_r, rep_w))
            cfg.request_fd, cfg.reply_fd = req_r, rep_w
            return cfg
        for fd in (req_r, rep_w, out_w):
            os.close(fd)                           # else the manager never sees EOF on them
        pidfd = os.pidfd_open(pid)
        self.children[pidfd] = (pid, socket.socket(fileno=status_fd))
        socket.send_fds(self.control, [json.dumps({"pid": pid}).encode()], [pidfd])
        return None

    def fork_process(self, cgroup_dir: str | None = None) -> tuple[int, str | None]:
        """(pid, why the child has no pid namespace of its own or None), as os.fork returns; the
        child is created inside `cgroup_dir` (a cgroup v2 directory) where the kernel allows it."""
        if cgroup_dir is not None and self.clone_into_cgroup is None:
            started = self.fork_into(cgroup_dir)
            if started is not None:
                return started
        if self.userns is None or self.userns.startswith("missing"):
            pid, missing = confine.in_new_pid_namespace(os.fork)
            return pid, missing if self.userns is None else self.userns.removeprefix("missing: ")
        try:
            return confine.fork_into_new_pid_namespace(), None
        except confine.NamespaceError as exc:
            return os.fork(), str(exc)

    def fork_into(self, cgroup_dir: str) -> tuple[int, str | None] | None:
        """fork_process's result for a child created inside `cgroup_dir` (it need not join it
        afterwards), or None when the kernel refused (the reason is kept: the next children are
        forked as before and join their cgroup by cgroup.procs)."""
        namespace = os.geteuid() == 0                  # root, or uid 0 of the template's user namespace
        try:
            fd = os.open(cgroup_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            pid = confine.fork_into_cgroup(fd, namespace)
        except OSError as exc:
            self.clone_into_cgroup = str(exc)
            return None
        finally:
            os.close(fd)
        if pid == 0:
            self.boot.started_in = cgroup_dir
        if namespace:
            return pid, None
        return pid, self.userns.removeprefix("missing: ") if self.userns else "not root, so no pid namespace can be made"

    def reap(self, pidfd: int) -> None:
        """The child ended: collect it and tell its manager how, on its status socket."""
        pid, status_sock = self.children.pop(pidfd)
        _, status, rusage = os.wait4(pid, 0)
        try:
            status_sock.sendall(json.dumps({"status": status, "rusage": list(rusage)}).encode())
        except OSError:
            pass                                   # that manager has gone already
        status_sock.close()
        os.close(pidfd)

    def become_child(self, out_w: int, keep: tuple[int, ...]) -> None:
        """In the new child: its own session, output to the capture pipe, and not one descriptor
        of the template (control socket, other children's pidfds and status sockets)."""
        os.setsid()
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        for pidfd, (_, sock) in self.children.items():
            os.close(pidfd)
            os.close(sock.detach())                # detach: a later GC must not close a reused number
        self.children = {}
        os.close(self.control.detach())            # detached: it holds no descriptor any more
        lowest = 3
        for fd in sorted(keep):
            os.closerange(lowest, fd)
            lowest = fd + 1
        os.closerange(lowest, os.sysconf("SC_OPEN_MAX"))
        numpy_random = sys.modules.get("numpy.random")
        if numpy_random is not None:               # `random` reseeds itself after fork; numpy does not
            numpy_random.seed()


def main() -> None:
    args = json.loads(sys.argv[1])
    control = socket.socket(fileno=args["control_fd"])
    callloop.prepare_interpreter()
    userns = None
    if os.geteuid() != 0:                          # no root: namespaces inside a user namespace
        try:
            userns = confine.enter_user_namespace()
        except OSError as exc:
            userns = f"missing: no user namespace here ({exc})"
    confine.die_with(control.fileno())             # after the user namespace: entering one clears it
    boot = child.Bootstrap(ChildConfig(shim=args["shim"], python_path=list(args.get("python_path", []))))
    try:
        shim = boot.load()
    except BaseException as exc:                   # a shim that cannot import: say why, then stop
        control.sendall(json.dumps({"error": f"the template cannot import {args['shim']}: {exc!r}"}).encode())
        raise SystemExit(1) from None
    threads = len(os.listdir("/proc/self/task"))
    if threads != 1:                               # fork copies one thread: locks held by others stay held
        control.sendall(json.dumps({"error": f"the template runs {threads} threads after importing "
                                             f"{args['shim']}; forking it would not be safe"}).encode())
        raise SystemExit(1)
    control.sendall(json.dumps({"ready": os.getpid()}).encode())
    confine.outlive_parent()                       # from here on, the control socket's EOF says it
    cfg = Template(control, boot, userns).serve()
    sys.argv = [child.__file__]                    # what a spawned child's argv holds
    boot.cfg = cfg
    try:                                           # from here on: exactly sandbox.child's main()
        boot.restrict()
        callloop.serve(boot, shim, cfg.request_fd, cfg.reply_fd)
    except MemoryError:
        os._exit(wire.MEMORY_EXIT)


if __name__ == "__main__":
    main()
