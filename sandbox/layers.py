"""The names of the sandbox's protections, alone, so the config (a leaf) can check a course's
`sandbox.require` without loading the code that probes the host (sandbox/host.py)."""

# Every name host.protections() reports, in its order: what a course may require (grader/config.py
# `sandbox.require`); tests/e2e/test_required_protections.py keeps the two the same.
LAYERS = ("landlock", "seccomp", "memory", "capabilities", "uid", "pid_namespace", "private_root", "first_turn",
          "parent_death", "no_new_privs", "network", "rlimits", "cpu", "cpu_time", "freeze", "self_tuning", "blame")
