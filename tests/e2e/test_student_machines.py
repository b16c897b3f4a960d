"""What `grader check` and `grader doctor` tell a student about the sandbox on their machine."""
from __future__ import annotations

from pathlib import Path

from grader.check_report import sandbox_summary

ROOT = Path(__file__).resolve().parents[2]
ORDINARY_LINUX_USER = {          # sandbox.protections() for an ordinary user (no cgroup, no netns)
    "landlock": "ABI 7: read-only interpreter, libraries, sandbox/rulesets, submission",
    "seccomp": "libseccomp via pyseccomp 0.1.2, deny-list of 98 calls",
    "memory": "RLIMIT_AS 500 MB; missing: a memory cgroup (not root, so no cgroup can be created)",
    "network": "missing netns: not root, seccomp denies socket()",
    "freeze": "SIGSTOP/SIGCONT of the process group between calls",
}


def test_check_says_first_that_the_servers_sandbox_is_stricter(cli, monkeypatch):
    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    result = cli("--config", ROOT / "config.yaml", "check", ROOT / "submissions" / "quoridor" / "alice",
                 "--assignment", "quoridor")
    assert result.status == 0
    lines = result.out.splitlines()
    stricter = next(i for i, line in enumerate(lines) if "The server's sandbox is stricter" in line)
    assert stricter < next(i for i, line in enumerate(lines) if "Interface" in line)
    assert "missing: filesystem, network, processes" in result.out


def test_doctor_states_the_portable_protections_plainly(cli, monkeypatch):
    monkeypatch.setenv("GRADER_SANDBOX", "portable")
    result = cli("doctor")
    assert result.status == 0
    assert "The server's sandbox is stricter" in result.out
    assert "psutil" in result.out and "no filesystem restriction" in result.out


def test_an_ordinary_users_linux_sandbox_names_what_only_root_gets():
    first, layers = sandbox_summary(ORDINARY_LINUX_USER)
    assert first.startswith("The server's sandbox may be stricter") and "network, memory" in first
    assert "memory (partly)" in layers and "missing: network" in layers
    assert sandbox_summary({k: v for k, v in ORDINARY_LINUX_USER.items() if k in ("landlock", "seccomp")}) == [
        "Sandbox on this machine: landlock, seccomp (grader doctor says more)."]
