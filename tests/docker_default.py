"""Run a command as Gradescope runs its autograder: root in a Docker container with Docker's default
capabilities and the namespace part of its default seccomp profile, recreated on this host.

`python tests/docker_default.py COMMAND...` installs the filter (while it still has CAP_SYS_ADMIN, as
runc does), then execs COMMAND under setpriv (util-linux) with the bounding and inheritable sets
cut to CAPS: root's exec then keeps exactly those. The capability list is moby's
oci/caps/defaults.go; the denials are the calls moby's profiles/seccomp/default.json allows only
with CAP_SYS_ADMIN (namespaces, mounts, bpf, ...), which a default container lacks: EPERM, and
clone3 ENOSYS so the C library falls back to clone. Every other call is allowed. Landlock's calls
stay allowed here (newer Docker profiles allow them); a host without Landlock has none anyway.
"""
from __future__ import annotations

import errno
import os
import sys

import pyseccomp as sc

CAPS = ("chown", "dac_override", "fsetid", "fowner", "mknod", "net_raw", "setgid", "setuid", "setfcap",
        "setpcap", "net_bind_service", "sys_chroot", "kill", "audit_write")
# default.json's calls for CAP_SYS_ADMIN only (clone and clone3 are handled apart, by their flags).
SYS_ADMIN_ONLY = ("unshare", "setns", "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen",
                  "fsmount", "fsconfig", "fspick", "mount_setattr", "bpf", "fanotify_init", "lookup_dcookie",
                  "name_to_handle_at", "perf_event_open", "quotactl", "quotactl_fd", "setdomainname",
                  "sethostname", "syslog")
# default.json: clone is allowed for a caller without CAP_SYS_ADMIN only with none of CLONE_NEWNS,
# CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET (0x7E020000).
NAMESPACE_FLAGS = 0x7E020000


def install_filter() -> None:
    flt = sc.SyscallFilter(sc.ALLOW)
    for name in SYS_ADMIN_ONLY:
        try:
            flt.add_rule(sc.ERRNO(errno.EPERM), name)
        except (ValueError, RuntimeError):       # a call this libseccomp does not know
            pass
    for bit in (b for b in range(32) if NAMESPACE_FLAGS >> b & 1):   # libseccomp has no "masked, not equal"
        flt.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, 1 << bit, 1 << bit))
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    flt.load()


def main(argv: list[str]) -> None:
    caps = ",".join(f"+{c}" for c in CAPS)
    install_filter()
    os.execvp("setpriv", ["setpriv", f"--bounding-set=-all,{caps}", f"--inh-caps=-all,{caps}", "--", *argv])


if __name__ == "__main__":
    main(sys.argv[1:])
