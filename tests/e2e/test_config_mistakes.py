"""Config mistakes people make: each is one sentence on stderr naming the key, and exit status 2."""
from __future__ import annotations

import pytest
import yaml


def config_with(tmp_path, text: str):
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = "assignments: {a: {ruleset: colosseum, submissions: subs, %s}}"


@pytest.mark.parametrize("setting, expected", [
    ("options: {read_once: 5}", "assignments.a.options: read_once must be a list of paths"),
    ("grading: {kind: interpolate, must_beat: nobody}", "assignments.a.grading.must_beat: 'nobody' is not a built-in"),
    ("grading: {kind: bands, bands: [[0.5, 1]], must_beat: nobody}", "grading.must_beat: 'nobody' is not a built-in"),
    ("grading: {kind: thresholds, rules: [{beats: nobody, grade: 3}]}", "grading.rules: 'nobody' is not a built-in"),
    ("league: {builtins: [random]}, grading: {kind: thresholds, rules: [{beats: random, grade: 3, share: 0.95}]}",
     "assignments.a.grading: the sequential test's share plus margin must be below 1, not 1.05."),
    ("league: {builtins: [random]}, grading: {kind: thresholds, rules: [{beats: random, grade: ten}]}",
     "assignments.a.grading.rules.0.grade: input should be a valid number"),
    ("league: {builtins: [random]}, grading: {kind: thresholds, rules: [{beats: random, grade: 1, share: 2}]}",
     "assignments.a.grading.rules.0.share: input should be less than or equal to 1"),
    ("league: {concurrency: 0}", "assignments.a.league.concurrency: input should be greater than or equal to 1 (got 0)."),
    ("validation: {smoke_opponent: nobody}", "assignments.a.validation.smoke_opponent: 'nobody' is not a built-in"),
])
def test_a_wrong_setting_is_one_sentence_naming_the_key(tmp_path, cli, setting, expected):
    path = config_with(tmp_path, BASE % setting)
    result = cli("--config", path, "standings", "a")
    assert result.status == 2
    assert expected in result.err
    assert result.err.count("\n") == 1 and "more problem" not in result.err


def test_a_threshold_rule_against_a_built_in_the_league_plays_is_accepted(tmp_path, cli):
    path = config_with(tmp_path, BASE % "league: {builtins: [random]}, grading: {kind: thresholds, "
                                        "rules: [{beats: random, grade: 3}]}")
    result = cli("--config", path, "standings", "a")
    assert "no results yet" in result.err              # past the config, to the next sentence


def test_run_with_a_missing_submissions_folder_says_so_instead_of_an_empty_league(tmp_path, cli):
    path = config_with(tmp_path, BASE % "reports: out")
    result = cli("--config", path, "run", "a", "--quiet")
    assert result.status == 2
    assert "assignments.a.submissions: the folder" in result.err and "does not exist" in result.err
    assert not (tmp_path / "out" / "results.json").exists()


@pytest.mark.parametrize("text, expected", [
    ("", "must be a mapping with an 'assignments' key"),
    ("assignments: {a: {ruleset: colosseum", "is not valid YAML at line"),
    ("assignments: {a: {ruleset: chess, submissions: s}}", "assignments.a.ruleset: must be one of"),
    ("assignments: {a: {ruleset: colosseum, submissions: s, leage: {}}}", "assignments.a.leage: is not a known setting"),
    ("assignments: {a: {ruleset: colosseum, submissions: s, game: {board_size: -3}}}", "assignments.a.game: board_size"),
])
def test_the_classic_mistakes_stay_one_sentence(tmp_path, cli, text, expected):
    result = cli("--config", config_with(tmp_path, text), "check", tmp_path, "--assignment", "a")
    assert result.status == 2 and expected in result.err


def test_a_missing_config_file_is_a_usage_error(tmp_path, cli):
    result = cli("--config", tmp_path / "nope.yaml", "doctor")
    assert result.status == 0                 # doctor needs no config
    result = cli("--config", tmp_path / "nope.yaml", "standings", "a")
    assert result.status == 2 and "no such config file" in result.err


def test_the_bundled_config_still_loads(cli):
    from grader.assignment import default_config_path, load_assignments

    assert set(load_assignments(default_config_path())) >= {"quoridor", "colosseum", "rbnim"}
    assert yaml.safe_load(default_config_path().read_text())["assignments"]


def test_running_every_assignment_skips_one_with_a_missing_folder_and_runs_the_rest(tmp_path, cli):
    (tmp_path / "subs").mkdir()
    path = config_with(tmp_path, "assignments:\n"
                       "  gone: {ruleset: rbnim, submissions: nothere, reports: out_gone}\n"
                       "  here: {ruleset: rbnim, submissions: subs, reports: out_here, grading: {kind: validation}}\n")
    result = cli("--config", path, "run", "--quiet", "--no-report")
    assert result.status == 2
    assert "assignments.gone.submissions: the folder" in result.err and "not run: gone" in result.err
    assert (tmp_path / "out_here" / "results.json").exists()


@pytest.mark.parametrize("setting, expected", [
    ("reports: a_file", "assignments.a.reports: cannot create the folder"),
    ("reports: out, store: damaged.sqlite", "assignments.a.store: "),
])
def test_outputs_that_cannot_be_written_are_one_sentence_before_anything_runs(tmp_path, cli, setting, expected):
    (tmp_path / "subs").mkdir()
    (tmp_path / "a_file").write_text("")
    (tmp_path / "damaged.sqlite").write_text("not a database")
    result = cli("--config", config_with(tmp_path, BASE % setting), "run", "a", "--quiet")
    assert result.status == 2 and expected in result.err
    assert "damaged.sqlite cannot be used as the results store (file is not a database)" in result.err \
        or "store" not in setting
