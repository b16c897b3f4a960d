"""One assignment, resolved: the ruleset's course defaults with the config's overrides applied.

Everything downstream (validation, matches, the league, reports) takes an `Assignment` and never
looks at raw config again.
"""
from __future__ import annotations

import site
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import rulesets
from rulesets.base import Game, Policy, Probe, Ruleset
from sandbox import Limits

from . import seeds
from .config import AssignmentConfig, Config, ConfigError, load_config
from .config_checks import check_config
from .course_env import CourseEnv, course_env
from .results_doc import MoveLimits


@dataclass
class Assignment:
    name: str
    ruleset: Ruleset
    game: Game
    config: AssignmentConfig
    base: Path                     # folder that relative paths in the config are relative to
    policy: Policy
    first_move_s: float
    move_s: float
    load_s: float | None           # loading the submission's own limit; None: part of the first-move allowance
    kill_after_s: float
    kill_factor: float
    memory_mb: int
    max_submission_mb: float
    _league_key: bytes | None = field(default=None, repr=False, compare=False)

    def league_key(self) -> bytes:
        """The key of this league's seat seeds (grader/seeds.py): its secret beside the results,
        read once (so a pool's workers get it with the assignment); where no results can be kept
        (a read-only install), the public key of checks. A secret given twice, differently, is a
        config error."""
        if self._league_key is None:
            try:
                self._league_key = seeds.league_key(self.store_path.parent)
            except OSError:
                self._league_key = seeds.CHECK_KEY
            except seeds.SecretMismatch as exc:
                raise ConfigError(str(exc)) from None
        return self._league_key
    config_path: Path | None = None    # the file it was read from, for sentences that name it

    @property
    def title(self) -> str:
        return self.config.title or self.ruleset.title

    @property
    def submissions_dir(self) -> Path:
        return (self.base / self.config.submissions).resolve()

    @property
    def reports_dir(self) -> Path:
        return (self.base / (self.config.reports or f"reports/{self.name}")).resolve()

    @property
    def store_path(self) -> Path:
        return (self.base / self.config.store).resolve() if self.config.store else self.reports_dir / "results.sqlite"

    def course_env(self) -> CourseEnv | None:
        """The course's own packages for this assignment's players (built on first use), if it names any."""
        return course_env(self.ruleset.requirements) if self.ruleset.requirements is not None else None

    def limits(self, cpu: int | None = None) -> Limits:
        """Sandbox limits for one player process of this assignment."""
        env = self.course_env()
        return Limits(python_path=(str(env.path),) if env is not None and env.path is not None else (),memory_mb=self.memory_mb, start_s=self.load_s or self.first_move_s, call_s=self.move_s,
                      first_call_s=self.first_move_s, kill_after_s=self.kill_after_s,
                      kill_factor=self.kill_factor, clock=self.clock,
                      wall_factor=self.config.limits.wall_factor, wall_after_s=self.config.limits.wall_after_s,
                      cpu=cpu, output_kb=self.config.limits.output_kb,
                      readable_until_first_reply=tuple(self.config.options.get("read_once", ())))

    def probes(self) -> list[Probe]:
        """The ruleset's correctness stages with the config's points and required flags applied."""
        stages = []
        for probe in (self.ruleset.probes(self.game) if self.ruleset.probes else []):
            override = self.config.validation.stages.get(probe.name)
            if override is not None:
                if override.points is not None:
                    probe.points = override.points
                if override.required is not None:
                    probe.required = override.required
            stages.append(probe)
        return stages

    def play_settings(self) -> dict:
        """Everything that changes how a game is played: part of every game's cache key."""
        return {"game": self.game.params, "policy": vars(self.policy), "first_move_s": self.first_move_s,
                **({"load_s": self.load_s} if self.load_s is not None else {}),
                "move_s": self.move_s, "kill_after_s": self.kill_after_s, "kill_factor": self.kill_factor,
                "memory_mb": self.memory_mb, "options": self.config.options, **self.clock_settings(),
                **({"course_env": env.versions} if (env := self.course_env()) is not None else {})}

    @property
    def sparring(self) -> dict[str, Path]:
        """The course's sparring players by name (config `sparring`): played against on request, never graded."""
        return {name: self.base / where for name, where in self.config.sparring.items()}

    @property
    def clock(self) -> str:
        """What move limits measure: the config's `limits.clock`, else what the course's harness timed."""
        return self.config.limits.clock or self.ruleset.defaults.clock

    def clock_settings(self) -> dict:
        """What the move limits measure, and the wall-clock backstop of the CPU clock."""
        lim = self.config.limits
        return {"clock": self.clock, "wall_factor": lim.wall_factor, "wall_after_s": lim.wall_after_s}

    def describe_limits(self) -> MoveLimits:
        budget = self.limits().budget(self.move_s)
        return {"clock": budget.clock, "load_s": self.load_s, "first_move_s": self.first_move_s, "move_s": self.move_s,
                "hard_kill_s": round(budget.hard, 3), "wall_backstop_s": round(budget.wall, 3),
                "memory_mb": self.memory_mb, "max_submission_mb": self.max_submission_mb,
                "on_late": self.policy.on_late, "on_illegal": self.policy.on_illegal,
                "on_error": self.policy.on_error, "on_none": self.policy.on_none,
                "on_uncaught": self.policy.on_uncaught or self.policy.on_error}


def resolve(name: str, a: AssignmentConfig, base: Path) -> Assignment:
    ruleset = rulesets.load(a.ruleset)
    d = ruleset.defaults
    lim = a.limits
    pol = a.policy
    policy = replace(d.policy, **{k: v for k, v in pol.model_dump().items() if v is not None})
    return Assignment(
        name=name, ruleset=ruleset, game=ruleset.game(**a.game), config=a, base=base, policy=policy,
        first_move_s=lim.first_move_s or d.first_move_s, move_s=lim.move_s or d.move_s, load_s=lim.load_s,
        kill_after_s=d.kill_after_s if lim.kill_after_s is None else lim.kill_after_s,
        kill_factor=lim.kill_factor or d.kill_factor, memory_mb=lim.memory_mb or d.memory_mb,
        max_submission_mb=lim.max_submission_mb or d.max_submission_mb)


def load_checked_config(config_path: str | Path) -> tuple[Config, Path]:
    """The config read and checked whole: its schema and the ruleset's settings (grader/config.py),
    then what only the grader can judge (grader/config_checks.py); ConfigError at the first problem."""
    config, base = load_config(config_path)
    check_config(Path(config_path), config)
    return config, base


def load_assignments(config_path: str | Path) -> dict[str, Assignment]:
    config, base = load_checked_config(config_path)
    return {name: replace(resolve(name, a, base), config_path=Path(config_path))
            for name, a in config.assignments.items()}


def pick(assignments: dict[str, Assignment], name: str | None, config_path: str | Path) -> Assignment:
    """The named assignment, or the only one; a sentence when the choice is unclear."""
    if name is None:
        if len(assignments) == 1:
            return next(iter(assignments.values()))
        raise ConfigError(f"{config_path}: has several assignments ({', '.join(assignments)}); "
                          f"name one with --assignment.")
    if name not in assignments:
        raise ConfigError(f"{config_path}: has no assignment {name!r} (it has: {', '.join(assignments)}).")
    return assignments[name]


def default_config_path() -> Path:
    """config.yaml in the current folder, else the one at the project root (a clone), else the one
    an installed copy carries (pip puts it in <prefix>/share/game-grader/)."""
    here = Path("config.yaml")
    if here.exists():
        return here
    project = Path(__file__).resolve().parent.parent / "config.yaml"
    installed = [Path(p, "share", "game-grader", "config.yaml") for p in (sys.prefix, site.getuserbase())]
    return next((p for p in (project, *installed) if p.exists()), project)


__all__ = [
    "Assignment",
    "Config",
    "ConfigError",
    "default_config_path",
    "load_assignments",
    "load_checked_config",
    "pick",
    "resolve",
]
