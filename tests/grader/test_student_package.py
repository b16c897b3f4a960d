"""`grader package-for-students`: the students' copy carries the course's config and the course's
pinned packages, and installs and checks a player on a machine without the network (issue 45: the
wheel carried the demo's config, and the course environment needed pip and the network)."""
from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import replace
from pathlib import Path

import yaml

from grader import usecases
from grader.assignment import load_assignments
from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
TITLE = "COMP 424 Quoridor, winter"


def _tiny_wheel(folder: Path) -> Path:
    """tinypin 1.0, a pure wheel made here: the course's "pinned package" without a network."""
    files = {"tinypin/__init__.py": b"VALUE = 424\n",
             "tinypin-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: tinypin\nVersion: 1.0\n",
             "tinypin-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = [f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()},{len(b)}"
              for p, b in files.items()]
    files["tinypin-1.0.dist-info/RECORD"] = ("\n".join([*record, "tinypin-1.0.dist-info/RECORD,,"]) + "\n").encode()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tinypin-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for name, body in files.items():
            zf.writestr(name, body)
    return path


def _course(folder: Path) -> Path:
    """A course folder with a sparring player (`sparring/strong/`), which the students' package ships."""
    folder.mkdir(parents=True)
    (folder / "submissions" / "quoridor").mkdir(parents=True)
    (folder / "sparring" / "strong").mkdir(parents=True)
    shutil.copy(ROOT / "rulesets" / "quoridor" / "players" / "random" / "player.py",
                folder / "sparring" / "strong" / "player.py")
    config = folder / "config.yaml"
    config.write_text("# COMP 424's own config\n" + yaml.safe_dump({"assignments": {"quoridor": {
        "ruleset": "quoridor", "title": TITLE, "submissions": "submissions/quoridor",
        "game": {"sizex": 5, "sizey": 5}, "limits": {"move_s": 3.5}, "validation": {"smoke_games": 1},
        "sparring": {"strong": "sparring/strong"}}}}), encoding="utf-8")
    return config


def _offline_env(home: Path) -> dict[str, str]:
    """A student's machine: a home of its own, no pip configuration, no index to reach."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "GRADER_", "PYTHON", "VIRTUAL_ENV"))}
    home.mkdir(parents=True, exist_ok=True)
    return {**env, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "PIP_CONFIG_FILE": os.devnull,
            "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _fresh_venv(where: Path) -> Path:
    """A new venv that sees the grader's dependencies (already on this machine: CI has no network to
    download them) through a .pth folder, but not the grader itself."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    deps = where.parent / "deps"
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.lower().startswith(("game_grader", "__editable__", "_virtualenv", "distutils-precedence")):
            (deps / entry.name).symlink_to(entry)
    site = next(where.glob("lib/python*/site-packages"))
    (site / "grader-deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return where / "bin"


def test_the_cli_packs_the_courses_config_not_the_demos(tmp_path, capsys, monkeypatch):
    config = _course(tmp_path / "course")
    monkeypatch.chdir(config.parent)
    status = main(["package-for-students", "quoridor", "--without-dependencies", "--no-index"])
    out = capsys.readouterr().out
    assert status == 0, out
    unpacked = tmp_path / "unzipped"
    shutil.unpack_archive(config.parent / "quoridor-for-students.zip", unpacked)
    folder = unpacked / "quoridor-for-students"
    with zipfile.ZipFile(next(folder.glob("game_grader-*.whl"))) as zf:
        shipped = zf.read(next(n for n in zf.namelist() if n.endswith("/share/game-grader/config.yaml")))
        sparring = [n for n in zf.namelist() if "/share/game-grader/sparring/" in n]
    assert shipped.decode().splitlines()[0] == "# COMP 424's own config"
    assert [n.split("/share/game-grader/")[1] for n in sparring] == ["sparring/strong/player.py"]
    assert "pip install" in (folder / "INSTALL.txt").read_text()
    assert "dependencies are not in the zip" in out


def test_the_package_installs_offline_checks_with_the_courses_config_and_builds_its_packages(tmp_path):
    """Made with the course's pinned packages (downloaded then: here a cached wheel folder), installed
    into a fresh venv without an index, it checks a player against the course's config and builds
    the course environment from the wheel's own copy."""
    config = _course(tmp_path / "course")
    wheels = _tiny_wheel(tmp_path / "cached-wheels").parent
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("tinypin==1.0\n", encoding="utf-8")
    assignment = load_assignments(config)["quoridor"]
    assignment = replace(assignment, ruleset=replace(assignment.ruleset, requirements=requirements))
    made = usecases.package_for_students(assignment, config, tmp_path / "out" / "pkg.zip", find_links=(wheels,),
                                         no_index=True, dependencies=False)
    assert made.course_wheels == ["tinypin-1.0-py3-none-any.whl"]
    assert not any("course's packages" in n for n in made.notes)       # a pure wheel: no platform line
    shutil.unpack_archive(made.zip_path, tmp_path / "unzipped")
    folder = tmp_path / "unzipped" / "quoridor-for-students"

    bin_dir = _fresh_venv(tmp_path / "student" / "venv")
    env = _offline_env(tmp_path / "student" / "home")
    proc = subprocess.run([str(bin_dir / "pip"), "install", "--no-index", "--find-links", ".", made.wheel_name],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    work = tmp_path / "student" / "work"
    work.mkdir()
    shutil.copy(ROOT / "rulesets" / "quoridor" / "players" / "random" / "player.py", work / "player.py")
    proc = subprocess.run([str(bin_dir / "grader"), "check", "player.py"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and TITLE in proc.stdout, proc.stdout + proc.stderr
    proc = subprocess.run([str(bin_dir / "grader"), "play", "player.py", "sparring:strong", "--games", "1"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "strong (the course's sparring player)" in proc.stdout, proc.stdout + proc.stderr

    build = ("import sys; from pathlib import Path; from grader.course_env import course_env; "
             "e = course_env(Path(sys.argv[1])); print(e.header()); sys.path.insert(0, str(e.path)); "
             "import tinypin; print(tinypin.VALUE)")
    proc = subprocess.run([str(bin_dir / "python"), "-c", build, str(requirements)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["Course environment (requirements.txt): tinypin 1.0.", "424"], proc.stdout
    assert "preparing the course environment (tinypin)" in proc.stderr and "ready" in proc.stderr, proc.stderr


def test_the_demo_config_is_not_packed_for_students(capsys):
    status = main(["--config", str(ROOT / "config.yaml"), "package-for-students", "quoridor"])
    said = capsys.readouterr().err
    assert status == 2 and "demo's config" in said and "nothing was made" in said, said


def test_a_link_inside_a_sparring_player_is_refused_not_followed(tmp_path, capsys, monkeypatch):
    """The package ships the course's files, never what a link points at (here a private key)."""
    config = _course(tmp_path / "course")
    secret = tmp_path / "private-key"
    secret.write_text("not for students\n")
    (config.parent / "sparring" / "strong" / "notes.txt").symlink_to(secret)
    monkeypatch.chdir(config.parent)
    assert main(["package-for-students", "quoridor", "--without-dependencies", "--no-index"]) == 2
    said = capsys.readouterr().err
    assert "notes.txt is a symbolic link" in said and not (config.parent / "quoridor-for-students.zip").exists()
