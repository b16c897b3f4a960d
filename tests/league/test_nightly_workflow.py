"""examples/nightly-league.yml, run as a runner would: its `run:` steps' grader commands, twice, each
time in a fresh checkout holding only what the workflow keeps (its cache paths, and the league
secret of the repository's secrets when one is set). Every `grader play … --seed` line the second
night's site shows must replay the game stored for it (issue 45: a new secret each night made the
lines replay other games)."""
from __future__ import annotations

import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "examples" / "nightly-league.yml"
SECRET = "ab" * 32
GRADER_CALL = re.compile(r"""(?:^|[\s/"'])grader["']?\s+([^\n&|;]+)""")
PLAY_LINE = re.compile(r"grader play [^<\n]*--seed \d+[^<\n]*")


def _expand(text: str, env: dict[str, str]) -> str:
    """${{ env.X }} and ${{ secrets.X }} as GitHub fills them (a secret not set is empty)."""
    return re.sub(r"\$\{\{\s*(env|secrets)\.(\w+)\s*\}\}",
                  lambda m: env.get(m.group(2), "") if m.group(1) == "env" else env.get("secrets." + m.group(2), ""),
                  text)


def _checkout(repo: Path, course: str) -> None:
    """What actions/checkout gives: the course folder (config, submissions), no reports."""
    folder = repo / course
    subs = folder / "submissions" / "q"
    for name in ("dice", "coin"):
        shutil.copytree(ROOT / "rulesets" / "quoridor" / "players" / "random", subs / name)
    (folder / "config.yaml").write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "submissions/q", "game": {"sizex": 5, "sizey": 5},
        "validation": {"smoke_games": 0},
        "league": {"format": "round_robin", "games_per_pair": 2, "seed": 5, "builtins": ["random"],
                   "concurrency": 2}}}}), encoding="utf-8")


def _night(repo: Path, workflow: dict, secrets: dict[str, str]) -> dict[str, str]:
    """Every grader command of the workflow's `run:` steps, in each step's working directory."""
    env = {**workflow.get("env", {})}
    env = {k: _expand(str(v), {**env, **secrets}) for k, v in env.items()}
    job = workflow["jobs"]["league"]
    default_dir = _expand(job.get("defaults", {}).get("run", {}).get("working-directory", "."), env)
    ran = 0
    for step in job["steps"]:
        if "run" not in step:
            continue
        where = repo / _expand(step.get("working-directory", default_dir), env)
        for call in GRADER_CALL.finditer(_expand(step["run"], env)):
            proc = subprocess.run([sys.executable, "-m", "grader.cli", *shlex.split(call.group(1))], cwd=where,
                                  capture_output=True, text=True, timeout=600,
                                  env={**os.environ, "PYTHONPATH": str(ROOT), **env})
            assert proc.returncode == 0, f"{step.get('name')}: {proc.stdout}{proc.stderr}"
            ran += 1
    assert ran >= 2                                # doctor and the league
    return env


def _kept(repo: Path, workflow: dict, env: dict[str, str]) -> list[Path]:
    """The files the workflow's cache save keeps, relative to the repository."""
    saves = [s for s in workflow["jobs"]["league"]["steps"] if str(s.get("uses", "")).startswith("actions/cache/save")]
    assert len(saves) == 1
    patterns = [p.strip() for p in _expand(saves[0]["with"]["path"], env).splitlines() if p.strip()]
    return sorted({f.relative_to(repo) for p in patterns for f in repo.glob(p) if f.is_file()})


@pytest.mark.parametrize(("course", "secret"), [("comp424", SECRET), (".", "")],
                         ids=["subfolder-with-repository-secret", "root-with-cached-secret"])
def test_the_nightly_site_replays_its_own_games_on_the_next_night(tmp_path, course, secret):
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    workflow["env"] = {**workflow.get("env", {}), "COURSE": course}     # as the instructor sets it
    secrets = {"secrets.GRADER_LEAGUE_SECRET": secret}
    first, second = tmp_path / "night1", tmp_path / "night2"
    _checkout(first, course)
    env = _night(first, workflow, secrets)
    kept = _kept(first, workflow, env)
    assert any(p.name.startswith("results.sqlite") for p in kept), kept
    _checkout(second, course)
    for path in kept:
        (second / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(first / path, second / path)
    _night(second, workflow, secrets)

    reports = second / course / "reports" / "q"
    stored = {g["reproduce"]: g for g in json.loads((reports / "results.json").read_text(encoding="utf-8"))["games"]}
    shown = {html.unescape(m.group(0)).strip() for page in reports.glob("**/*.html")
             for m in PLAY_LINE.finditer(page.read_text(encoding="utf-8"))}
    assert shown and len(stored) == 6, (shown, list(stored))
    for line in sorted(shown):
        assert line in stored, line
        proc = subprocess.run([sys.executable, "-m", "grader.cli", *shlex.split(line)[1:], "--json"],
                              cwd=second / course, capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(ROOT), **env})
        assert proc.returncode == 0, proc.stderr
        replay = json.loads(proc.stdout)["games"][0]
        assert (replay["moves"], replay["points"]) == (stored[line]["moves"], stored[line]["points"]), line
    site = second / course / "reports"
    assert not list(site.glob("*/public/**/league-secret"))


def test_the_league_secret_comes_from_the_environment_and_a_different_file_is_refused(tmp_path, monkeypatch):
    """$GRADER_LEAGUE_SECRET (a repository secret) is the key and writes no file; a kept file that
    disagrees with it is one sentence naming both, not a silent choice; a malformed one too."""
    from grader.assignment import resolve
    from grader.config import AssignmentConfig, ConfigError

    def fresh(base: Path):
        return resolve("t", AssignmentConfig(ruleset="quoridor", submissions="."), base)

    monkeypatch.setenv("GRADER_LEAGUE_SECRET", SECRET)
    a = fresh(tmp_path / "ci")
    assert a.league_key() == bytes.fromhex(SECRET)
    assert not (a.store_path.parent / "league-secret").exists()

    monkeypatch.delenv("GRADER_LEAGUE_SECRET")
    kept = fresh(tmp_path / "laptop").league_key()                  # made and kept beside the results
    monkeypatch.setenv("GRADER_LEAGUE_SECRET", kept.hex())
    assert fresh(tmp_path / "laptop").league_key() == kept           # the same secret twice: fine
    monkeypatch.setenv("GRADER_LEAGUE_SECRET", SECRET)
    with pytest.raises(ConfigError, match=r"GRADER_LEAGUE_SECRET differs from the league secret kept in .*league-secret"):
        fresh(tmp_path / "laptop").league_key()
    monkeypatch.setenv("GRADER_LEAGUE_SECRET", "not hex")
    with pytest.raises(ConfigError, match="64 hexadecimal digits"):
        fresh(tmp_path / "ci").league_key()
