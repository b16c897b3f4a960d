"""The course environment's build: reused once built, named by its requirements, and honest when
it cannot be built (the check's header says so; no retry storm without network)."""
from __future__ import annotations

import os
import sys

import pytest

from grader import course_env


@pytest.fixture
def envs(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_COURSE_ENVS", str(tmp_path / "envs"))
    course_env.course_env.cache_clear()
    yield tmp_path / "envs"
    course_env.course_env.cache_clear()


def test_requirements_that_cannot_be_installed_say_so_once(tmp_path, envs, monkeypatch):
    req = tmp_path / "requirements.txt"
    req.write_text("no-such-distribution-for-the-grader-tests==0.0.1\n")
    env = course_env.course_env(req)
    assert env.path is None and "not available" in env.header() and "grader's own packages" in env.header()
    calls = []
    monkeypatch.setattr(course_env, "_build", lambda *a: calls.append(a))
    course_env.course_env.cache_clear()
    again = course_env.course_env(req)
    assert again.path is None and "tried less than an hour ago" in again.problem and calls == []


def test_a_folder_another_user_can_write_is_never_offered(tmp_path, envs):
    req = tmp_path / "requirements.txt"
    req.write_text("# nothing\n")
    key = course_env.env_key(req)
    built = envs / f"py{sys.version_info.major}{sys.version_info.minor}-{key}"
    built.mkdir(parents=True)
    (built / course_env.VERSIONS_FILE).write_text("{}")
    os.chmod(built, 0o777)                        # planted, or left writable: refused
    env = course_env.course_env(req)
    assert env.path is None and "not owned by this user alone" in env.problem
    os.chmod(built, 0o755)
    course_env.course_env.cache_clear()
    assert course_env.course_env(req).path == built     # built once, then reused as it is


def test_the_key_changes_with_the_requirements(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("numpy==1.26.4\n")
    b.write_text("numpy==1.26.3\n")
    assert course_env.env_key(a) != course_env.env_key(b)
    assert course_env.requirement_names(a) == {"numpy"}
