"""Line-protocol programs in the sandbox: a native program exec'd by the child, spoken to in lines.

The programs are compiled here with gcc (trusted test set-up); grader/builds.py builds students'
programs inside the sandbox, which tests/e2e/test_line_programs.py covers.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sandbox import CallResult, Limits, PlayerProcess, Verdict
from sandbox.command import Command, loader_paths

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")

PROGRAM = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "try")) {
            pid_t pid = fork();
            if (pid == 0) _exit(0);
            int ex = execl("/bin/true", "true", (char *) 0);
            int fd = open("written.txt", O_WRONLY | O_CREAT, 0644);
            int tmp = open("/tmp/line-program-was-here", O_WRONLY | O_CREAT, 0644);
            int sock = socket(AF_INET, SOCK_STREAM, 0);
            printf("fork=%d exec=%d open=%d tmp=%d socket=%d\n", pid, ex, fd, tmp, sock);
        } else if (!strcmp(line, "sleep")) {
            sleep(2);
            printf("awake\n");
        } else {
            for (char *c = line; *c; c++) if (*c >= 'a' && *c <= 'z') *c -= 32;
            printf("%s\n", line);
        }
        fflush(stdout);
    }
    return 0;
}
"""


class Ask:
    """The smallest manager-side adapter: each `ask` call sends one line and reads one back."""

    def call(self, proc, method: str, args: dict, soft: float) -> CallResult:
        return proc.exchange_line([args["line"]], soft)


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("line")
    (folder / "p.c").write_text(PROGRAM)
    subprocess.run(["gcc", "-O1", "-o", str(folder / "player"), str(folder / "p.c")], check=True)
    return folder


@pytest.fixture
def program(binary, start_mode, request):
    pool = request.getfixturevalue("prefork_pool") if start_mode == "prefork" else None
    exe = str(binary / "player")
    p = PlayerProcess("sandbox.module_shim", binary, Limits(start_s=20, call_s=5, kill_after_s=1.0, clock="wall"), name="line",
                      prefork=pool, lines=Ask(),
                      program=Command((exe,), execute=(exe, *loader_paths(exe)), read=(str(binary),), io="lines"))
    r = p.start()
    assert r.ok, (r, p.close().output)
    assert p.started_by == start_mode
    yield p
    p.close()


def test_lines_go_in_and_come_back(program):
    assert program.call("ask", {"line": "pit 3"}).value == "PIT 3"
    assert program.call("ask", {"line": "again"}).value == "AGAIN"


def test_no_process_no_exec_no_write_no_socket(program):
    r = program.call("ask", {"line": "try"})
    assert r.ok and r.value == "fork=-1 exec=-1 open=-1 tmp=-1 socket=-1", r
    assert not Path("/tmp/line-program-was-here").exists()
    assert "EXECUTE only 2 files" in program.protections["landlock"]


def test_a_slow_answer_is_late_and_a_hanging_one_is_killed(program):
    r = program.call("ask", {"line": "sleep"}, soft=1.8)          # 2 s: late, within the 1 s cushion
    assert r.verdict is Verdict.LATE and r.value == "awake", r
    r = program.call("ask", {"line": "sleep"}, soft=0.2)          # beyond 0.2 + 1 s: killed
    assert r.verdict is Verdict.KILLED, r
