"""Honest controls: ordinary players work, and quickly, inside the sandbox."""
from __future__ import annotations

from sandbox import InProcessPlayer, PlayerProcess, Verdict, protections


def test_trivial_player_answers_in_time(write_submission, limits):
    """In time on the limits' clock; how fast is `make bench`'s business (bench_sandbox.py)."""
    folder = write_submission("def add(a, b):\n    return a + b\n")
    with PlayerProcess("sandbox.module_shim", folder, limits()) as p:
        assert p.start().ok
        r = p.call("call", {"function": "add", "args": {"a": 2, "b": 3}})
        assert r.verdict is Verdict.OK and r.value == 5, r
        assert p.call("add", {"a": 1, "b": 1}).value == 2
    assert p.report.exit_status == "exit 0" and not p.alive


def test_numpy_import_works(player):
    p = player("import numpy as np\ndef total(xs):\n    return float(np.asarray(xs).sum())\n")
    assert p.call("total", {"xs": [1.5, 2.5]}).value == 4.0


def test_fifty_threads_work(player):
    code = """
import threading
def threads(n):
    out = []
    workers = [threading.Thread(target=out.append, args=(i,)) for i in range(n)]
    for w in workers: w.start()
    for w in workers: w.join()
    return sorted(out)
"""
    assert player(code).call("threads", {"n": 50}).value == list(range(50))


def test_output_is_captured_in_the_report(player):
    p = player("print('hello from import')\ndef say():\n    print('during a call')\n    return 1\n")
    assert p.call("say").ok
    report = p.close()
    assert "hello from import" in report.output and "during a call" in report.output
    assert report.output_dropped == 0


def test_report_lists_what_was_applied(player, require):
    p = player("def ping():\n    return 1\n")
    report = p.close()
    assert report.peak_memory_mb and report.peak_memory_mb > 1
    for layer in ("landlock", "seccomp", "memory", "rlimits", "no_new_privs"):
        host = protections()[layer]
        applied = report.protections[layer]
        assert applied.startswith("missing") == host.startswith("missing"), (layer, applied, host)


def test_host_protections_never_claim_a_missing_layer():
    host = protections()
    assert set(host) >= {"landlock", "seccomp", "memory", "capabilities", "network", "rlimits", "freeze"}
    assert all(isinstance(v, str) and v for v in host.values())


def test_in_process_player_has_the_same_api(write_submission):
    folder = write_submission("def add(a, b):\n    return a + b\ndef boom():\n    raise KeyError('k')\n"
                              "def leave():\n    raise SystemExit(0)\n")
    with InProcessPlayer("sandbox.module_shim", folder, name="inproc") as p:
        assert p.call("add").verdict is Verdict.PROTOCOL          # not started yet
        assert p.start().ok
        assert p.call("add", {"a": 1, "b": 2}).value == 3
        err = p.call("boom")
        assert err.verdict is Verdict.ERROR and "KeyError" in err.message and "player.py" in err.traceback
        assert p.call("add", {"a": 1, "b": 1}, soft=0.0).verdict is Verdict.LATE
        assert p.call("leave").verdict is Verdict.EXITED and not p.alive
        assert p.call("add", {"a": 1, "b": 1}).verdict is Verdict.EXITED
    assert p.report.protections["all"].startswith("missing")


def test_in_process_import_error_is_error(write_submission):
    folder = write_submission("import no_such_module_here\n")
    p = InProcessPlayer("sandbox.module_shim", folder)
    r = p.start()
    assert r.verdict is Verdict.ERROR and "no_such_module_here" in r.message
    assert not p.alive and p.call("x").verdict is Verdict.ERROR


def test_degraded_host_reports_missing_layers(monkeypatch):
    from sandbox import host, landlock, seccomp_filter

    monkeypatch.setattr(landlock, "abi_version", lambda: 0)
    monkeypatch.setattr(seccomp_filter, "describe", lambda: (_ for _ in ()).throw(OSError("no libseccomp")))
    monkeypatch.setattr(host, "cgroup_reason", lambda: "not root, so no cgroup can be created")
    report = host.protections()
    assert report["landlock"].startswith("missing")
    assert report["seccomp"] == "missing: no libseccomp"
    assert report["memory"].startswith("RLIMIT_AS") and "not root" in report["memory"]
    assert "seccomp" not in report["network"]
