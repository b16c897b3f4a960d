"""The fast suite stays fast (issue 44.6): the slow tests are marked by path, marker and variant in one
place (tests/suite_split.py), and a test that lands in the fast suite is held to its limit.

The rules are tried on a small suite of their own, run by pytest in a subprocess with this project's
conftest, so that what `make test` deselects and refuses is what is checked."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests import suite_split
from tests.suite_split import FAST_TIMEOUT_S, SLOW_PATHS, is_slow_path, is_slow_variant, missing_slow_paths

ROOT = Path(__file__).resolve().parents[1]


def run_pytest(base: Path, files: dict[str, str], *args: str) -> str:
    """pytest on `files` (relative path: body) under `base` with the project's conftest hooks."""
    (base / "conftest.py").write_text("from tests.conftest import *  # noqa: F403\n")
    (base / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n    root: root\n    browser: browser\n")
    for name, body in files.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(textwrap.dedent(body))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
                           "--import-mode=importlib", *args], cwd=base, env=env, capture_output=True, text=True)
    return done.stdout + done.stderr


def test_every_slow_path_names_a_folder_or_module_of_the_suite():
    assert missing_slow_paths(ROOT) == []
    assert all(p.startswith("tests/") for p in SLOW_PATHS)


def test_a_folder_entry_covers_what_is_under_it_and_a_module_entry_only_itself():
    assert is_slow_path("tests/e2e/test_install.py")
    assert is_slow_path("tests/doors/test_kind_door_matrix.py")
    assert not is_slow_path("tests/e2e_other/test_x.py")
    assert not is_slow_path("tests/doors/test_verdict_sentence_doors.py")
    assert is_slow_path("tests/e2e/test_install.py::test_x[spawn]")


def test_a_test_entry_covers_every_variant_of_that_test_and_nothing_else_in_its_module():
    nightly = "tests/league/test_nightly_workflow.py::test_the_nightly_site_replays_its_own_games_on_the_next_night"
    assert nightly in SLOW_PATHS
    assert is_slow_path(f"{nightly}[root-with-cached-secret]") and is_slow_path(nightly)
    assert not is_slow_path(f"{nightly}_too")
    assert not is_slow_path("tests/league/test_nightly_workflow.py")
    assert not is_slow_path("tests/league/test_nightly_workflow.py::test_the_league_secret_comes_from_the_environment_and_a_different_file_is_refused")


def test_a_test_entry_whose_test_is_gone_is_named(tmp_path, monkeypatch):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_kept():\n    pass\n")
    monkeypatch.setattr(suite_split, "SLOW_PATHS", ("tests/test_a.py::test_kept", "tests/test_a.py::test_renamed"))
    assert suite_split.missing_slow_paths(tmp_path) == ["tests/test_a.py::test_renamed"]


def test_a_slow_variant_is_its_fixture_with_that_value_only():
    assert is_slow_variant({"db_url": "postgres"})
    assert is_slow_variant({"db_url": "postgres", "mode": "spawn"})
    assert not is_slow_variant({"db_url": "sqlite"})
    assert not is_slow_variant({"database": "postgres"})
    assert not is_slow_variant({})
    assert is_slow_variant({"prefork": True}) and not is_slow_variant({"prefork": False})
    assert not is_slow_variant({"start_mode": "prefork"})


def test_the_fast_run_keeps_a_fixture_s_fast_variant_and_leaves_out_its_slow_one(tmp_path):
    out = run_pytest(tmp_path, {
        "tests/serve/test_db.py": """
            import pytest

            @pytest.fixture(params=["sqlite", "postgres"])
            def db_url(request):
                return request.param

            @pytest.fixture
            def service(db_url):
                return db_url

            def test_upload(service):
                pass

            @pytest.mark.parametrize("engine", ["sqlite", "postgres"])
            def test_other_parameter(engine):
                pass
            """,
    }, "-m", "not slow")
    assert "PASSED tests/serve/test_db.py::test_upload[sqlite]" in out, out
    assert "test_upload[postgres]" not in out and "1 deselected" in out, out
    assert "PASSED tests/serve/test_db.py::test_other_parameter[postgres]" in out, out


def collected(*args: str) -> list[str]:
    """The ids of this project's tests that pytest collects with `args`."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True)
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_service_tests_run_on_sqlite_in_the_fast_suite_and_on_postgresql_only_in_the_whole_one():
    fast, slow = collected("-m", "not slow", "tests/serve"), collected("-m", "slow", "tests/serve")
    upload = "tests/serve/test_service.py::test_a_student_uploads_a_broken_player_and_sees_the_failing_stage_then_a_fixed_one_passes"
    assert f"{upload}[sqlite]" in fast and f"{upload}[postgres]" in slow
    assert not [t for t in fast if "postgres" in t.partition("[")[2]], fast


def test_a_grader_test_in_both_start_modes_runs_spawned_in_the_fast_suite_and_the_sandbox_s_in_both():
    fast = collected("-m", "not slow", "tests/grader/test_smoke_boards.py", "tests/sandbox/test_blame.py")
    slow = collected("-m", "slow", "tests/grader/test_smoke_boards.py")
    boards = "tests/grader/test_smoke_boards.py::test_an_agent_slow_only_on_the_largest_board_fails_the_smoke_games"
    assert f"{boards}[spawn]" in fast and f"{boards}[prefork]" in slow and f"{boards}[prefork]" not in fast
    sigkill = "tests/sandbox/test_blame.py::test_a_sigkill_the_player_sends_itself_is_never_infra"
    assert f"{sigkill}[spawn]" in fast and f"{sigkill}[prefork]" in fast


def test_the_fast_run_leaves_out_slow_paths_and_bounds_the_rest(tmp_path):
    out = run_pytest(tmp_path, {
        "tests/e2e/test_whole.py": "def test_whole():\n    pass\n",
        "tests/report/test_chromium.py": "import pytest\n\n@pytest.mark.browser\ndef test_page():\n    pass\n",
        "tests/grader/test_unit.py": f"""
            def test_unit(request):
                assert request.node.get_closest_marker("timeout").args[0] == {FAST_TIMEOUT_S!r}
            """,
    }, "-m", "not slow")
    assert "PASSED tests/grader/test_unit.py::test_unit" in out, out
    assert "test_whole" not in out and "test_page" not in out and "2 deselected" in out, out


def test_a_fast_test_that_asks_for_more_time_is_refused_and_told_where_to_mark_it(tmp_path):
    out = run_pytest(tmp_path, {
        "tests/grader/test_long.py": f"""
            import pytest

            @pytest.mark.timeout({FAST_TIMEOUT_S * 2})
            def test_long():
                pass

            @pytest.mark.timeout(0)
            def test_unbounded():
                pass

            @pytest.mark.slow
            @pytest.mark.timeout({FAST_TIMEOUT_S * 2})
            def test_marked():
                pass
            """,
    })
    assert "ERROR tests/grader/test_long.py::test_long " in out, out
    assert "ERROR tests/grader/test_long.py::test_unbounded " in out, out
    assert "SLOW_PATHS (tests/suite_split.py)" in out, out
    assert "PASSED tests/grader/test_long.py::test_marked" in out, out
