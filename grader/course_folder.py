"""The texts `grader init` writes into a new course folder: a config.yaml that states every setting
a course must decide (each with a comment, each set to the course's own rule as the bundled
config.yaml plays it), and a README of the next commands. The folder is the course's own: the
bundled demo players stay in this project's submissions/, never in it.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

import rulesets
from rulesets.base import Policy

from .player_kinds import PROGRAMS

PROJECT = Path(__file__).resolve().parent.parent
BUNDLED_CONFIG = PROJECT / "config.yaml"


# What each field of the ruleset's `Defaults` means, for the comment beside it (every field is written,
# with the ruleset's own value; tests/grader/test_course_folder.py keeps the two in step)
LIMIT_NOTES = {
    "first_move_s": "start, setup and the first move share this (seconds)",
    "move_s": "every later move (seconds)",
    "kill_after_s": "a move still unanswered this long after its limit is stopped (seconds)",
    "kill_factor": "... or after its limit times this, plus kill_after_s",
    "clock": "what the course's harness timed: cpu (the player's own CPU time) or wall (wall-clock time)",
    "memory_mb": "a player over this is stopped and loses",
    "max_submission_mb": "a bigger upload is refused with a sentence",
}
POLICY_NOTES = {
    "on_late": "a move after the time limit",
    "on_illegal": "an illegal or unreadable move",
    "on_error": "the player's code raised an exception",
    "on_none": "the player's code returned nothing (None, Java's null)",
    "on_uncaught": "a Java Error the course's client did not catch; random_rest: a random move on every later turn",
}


def bundled_blocks() -> dict[str, dict[str, Any]]:
    """The bundled config's assignments: the course rules each game was set up with."""
    if not BUNDLED_CONFIG.is_file():
        return {}
    raw = yaml.safe_load(BUNDLED_CONFIG.read_text(encoding="utf-8")) or {}
    return dict(raw.get("assignments") or {})


def skeleton_copies(name: str) -> list[tuple[Path, str]]:
    """(the bundled skeleton file or folder, its place in a new course folder): `grader init` copies
    the course's starter code in, so the config names it relative to the course folder, which can move."""
    given = (bundled_blocks().get(name, {}).get("similarity") or {}).get("skeleton", [])
    return [((PROJECT / p).resolve(), f"skeleton/{name}/{Path(p).name}") for p in given if (PROJECT / p).exists()]


def known_assignments() -> list[str]:
    """What `grader init --assignment` accepts: each game this grader knows."""
    return list(rulesets.names())


def _flow(value: Any) -> str:
    """`value` as one line of YAML (inside a list, so that a plain scalar gets no document-end marker)."""
    return yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, sort_keys=False,
                          width=10_000).strip()[1:-1]


def _line(key: str, value: Any, comment: str, indent: int = 4) -> str:
    text = f"{' ' * indent}{key}: {_flow(value)}"
    return f"{text:<44} # {comment}" if comment else text


def assignment_block(name: str) -> str:
    """One assignment's settings, commented, with the course's own rules as values."""
    ruleset = rulesets.load(name)
    bundled = bundled_blocks().get(name, {})
    d = ruleset.defaults
    skeleton = [target for _, target in skeleton_copies(name)]
    grading = bundled.get("grading") or {"kind": "none"}
    lines = [
        f"  {name}:",
        _line("title", bundled.get("title") or ruleset.title, "shown on the sites and in every student's feedback"),
        _line("ruleset", name, f"the game: rules, probes and built-in players (rulesets/{name}/README.md)"),
        _line("submissions", f"submissions/{name}", "one folder, zip or file per student; `grader import` fills it"),
        _line("reports", f"reports/{name}", "results.json, grades.csv, the sites; publish only its public/"),
        _line("game", bundled.get("game") or {}, "the game's parameters, as the course played it"),
        "    limits:                                  # the course's time and memory rules",
        *(_line(key, getattr(d, key), comment, 6) for key, comment in LIMIT_NOTES.items()),
        ("    policy:                                  # forfeit: the game is lost; random: a random move is "
        "played for it; disqualify: out of the league"),
        *(_line(key, getattr(d.policy, key), POLICY_NOTES[key], 6) for key in Policy.KEYS
          if getattr(d.policy, key)),
        _line("validation", bundled.get("validation") or {"smoke_games": 2},
              "the stages before the league; a failed required stage keeps a submission out"),
        _line("league", bundled.get("league") or {"format": "round_robin", "games_per_pair": 2, "seed": 0},
              "who plays whom, how often, from which seed"),
        _line("grading", grading, "how grades are given; with kind none every export refuses"),
    ]
    if ruleset.lines is not None:
        lines.append(_line("programs", bundled.get("programs") or {"builds": list(PROGRAMS)},
                           "programs in other languages: the builds allowed"))
    if bundled.get("options"):
        lines.append(_line("options", bundled["options"], "passed to the game's student API"))
    lines += [
        _line("public_names", False, "public site: pseudonyms (false), real names (true), or a list of ids"),
        _line("anonymise", False, "true: pseudonyms in the instructor's outputs too"),
        _line("report_url", None, "where public/ is published; the LMS feedback then links each page"),
        _line("penalties", {}, "BRUTE-style: upload_limit, upload_penalty, deadline, late_penalty, floor"),
        (f"    # penalties: {{deadline: '{deadline_placeholder()}', upload_limit: 10, upload_penalty: 0.1, "
         f"late_penalty: 0.5}}   # the deadline with its zone"),
        _line("sandbox", {"require": []}, "protections grading needs (names from `grader doctor`: memory, uid, …)"),
        _line("sparring", {}, "players students may play against, never graded: {name: folder here}"),
    ]
    similarity = _line("similarity", {"skeleton": skeleton}, "similar code, after every `grader run` (instructor only)")
    lines.append(similarity if "similarity" in bundled else "    # " + similarity.strip())
    return "\n".join(lines)


def config_text(names: list[str]) -> str:
    head = ("# This course's assignments, made by `grader init`. Every setting a course decides is here,\n"
            "# set to the course's own rule; change what yours does differently (paths are relative to\n"
            "# this file). `grader run` says on its last line how grades were given.\n")
    return head + "assignments:\n" + "\n\n".join(assignment_block(n) for n in names) + "\n\n" + SERVE_SECTION


SERVE_SECTION = """\
serve:                                        # `grader serve`: uploads with the check's verdict in seconds
  data_dir: .grader/serve                     # uploads, the database, the keys (kept readable by the service only)
  host: 127.0.0.1                             # 0.0.0.0 to listen beyond this machine (put TLS in front)
  port: 8000
  public_url: null                            # e.g. https://grader.example.edu: the address in set-password links
  rate_limit: 10                              # uploads per student per rate_window_s seconds
  rate_window_s: 600
  # deadline: per assignment, under its `penalties:` (above), with its zone, e.g. 2030-01-15T23:59:00+01:00
  # lti: students from the LMS and grades back to it (LTI 1.3): see docs/LTI.md
"""


def deadline_placeholder() -> str:
    """An example deadline in this machine's zone (ISO 8601 with its offset), for the commented line."""
    offset = datetime.now().astimezone().strftime("%z")
    return f"2030-01-15T23:59:00{offset[:3]}:{offset[3:]}"


def student_files(name: str) -> str:
    """What a student of this assignment hands in, as the course named it: the entry file, and the
    Java file where the course was taught in Java (the check takes either)."""
    ruleset = rulesets.load(name)
    return ruleset.entry + (f" (or {ruleset.java.entry})" if ruleset.java is not None else "")


def readme_text(folder: Path, names: list[str]) -> str:
    a = names[0]
    checks = "; ".join(f"`grader check {rulesets.load(n).entry} --assignment {n}`" for n in names)
    hands_in = ", ".join(f"{n}: {student_files(n)}" for n in names)
    return f"""# {folder.name}: a course graded with `grader`

Everything here is this course's own: `config.yaml` (every setting, commented), `submissions/<assignment>/`
(filled by `grader import`), `reports/<assignment>/` (written by `grader run`). Run the commands from
this folder (or pass `--config {folder}/config.yaml`). Assignments: {", ".join(names)}.

1. Check the settings in `config.yaml`, above all `grading:`.
2. Bring the class in: `grader import ~/Downloads/<LMS download>.zip --assignment {a} --roster <grading worksheet or gradebook>`
3. Let students check before they upload: {checks}
   (what each student hands in: {hands_in})
4. Grade: `grader run {a}` (its last line says how grades were given)
5. Grades back: `grader export {a} --moodle <worksheet.csv>` or `--canvas <gradebook.csv> --canvas-assignment "<column>"`,
   or the plain `reports/{a}/grades.csv` (`grader export {a}`)
6. Publish `reports/{a}/public/` only; `grader similarity {a}` for copied code and thrown games (instructor only)
7. Uploads with instant feedback: `grader serve` (a `serve:` section in config.yaml), or Gradescope:
   `grader gradescope {a} --out autograder.zip`
8. A nightly league in CI: run `grader run {a} --quiet` on a schedule and publish `reports/{a}/public/`
"""
