"""Scenario files, playback, the replay printers, the registries and ``issoku replay``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from textwrap import dedent

import pytest
from typer.testing import CliRunner

from issoku.agents import RandomLegal
from issoku.agents.registry import make_policy, policy_names, register_policy
from issoku.cli import app
from issoku.envs.registry import UnknownNameError, env_ids, import_object, make_env, register_env
from issoku.envs.replay import format_jsonl, format_text
from issoku.envs.scenario import ScenarioError, load_scenario, play, scenario_env
from issoku.rules.kernel.content import DataError

SCRIPTED = """
env = "toy_race_v1"
seed = 3
title = "Blocked three times"
description = "racer_1 blocks until it falls."
actions = ["strike", {agent = "racer_1", action = "block"}, "boost", "strike", "block", "step", "strike", "block"]

[env_kwargs]
with_renderer = true
"""


@pytest.fixture
def write(tmp_path):
    def write(text: str, name: str = "scenario.toml"):
        path = tmp_path / name
        path.write_text(dedent(text))
        return path
    return write


def test_scripted_scenario_plays_to_the_end_and_prints_rule_by_rule(toy_env_id, write):
    replay = play(load_scenario(write(SCRIPTED)))
    assert replay.over and replay.state.returns() == (1.0, -1.0)
    assert [d.action_name for d in replay.decisions][:3] == ["strike", "block", "boost"]
    assert [d.decision_kind for d in replay.decisions][:2] == ["move", "answer"]
    block = replay.decisions[1]
    assert [e.kind for e in replay.state.events.since(block.events_start)[:1]] == ["hurt"]
    text = format_text(replay)
    assert text.startswith("Blocked three times  [toy_race_v1, seed 3]\nracer_1 blocks until it falls.\nsetup\n")
    assert "  2. racer_1 (answer): block\n    [TOY-07 ] hurt               racer_1: before=3 after=2" in text
    assert "racer_1: ##...... hp 0" in text  # the ruleset's picture of the end
    assert text.endswith("result: fight over after 8 decisions: racer_0 +1, racer_1 -1\n")


def test_json_lines_are_canonical_and_repeatable(toy_env_id, write):
    path = write(SCRIPTED)
    first = format_jsonl(play(load_scenario(path)))
    assert first == format_jsonl(play(load_scenario(path)))
    records = [json.loads(line) for line in first.splitlines()]
    assert records[0]["rule"] == "TOY-01"
    assert records[1] == {"action": "strike", "action_id": 3, "agent": "racer_0", "decision_kind": "move",
                          "scripted": True, "seat": 0, "step": 1}
    assert records[-1]["result"]["returns"] == {"racer_0": 1.0, "racer_1": -1.0}
    assert sum("step" in record for record in records) == 8


def test_a_policy_plays_on_after_the_script(toy_env_id, write):
    scenario = load_scenario(write('env = "toy_race_v1"\nseed = 1\nactions = ["step"]\n'))
    stopped = play(scenario)
    assert not stopped.over and len(stopped.decisions) == 1
    assert "result: stopped after 1 decisions; racer_1 to decide (move)" in format_text(stopped)
    finished = play(scenario, RandomLegal(seed=0))
    assert finished.over and not any(d.scripted for d in finished.decisions[1:])
    assert "(policy)" in format_text(finished)


@pytest.mark.parametrize("actions, message", [
    ('["step", {agent = "racer_0", action = "step"}]', "expects racer_0 to decide, but it is racer_1's 'move'"),
    ('["step", "fly"]', "decision 2 (racer_1): toy_race_v1 has no action named 'fly'"),
    ('["step", "block"]', "decision 2 (racer_1): illegal action 5 (block) at a 'move' decision"),
])
def test_unplayable_scripts_name_the_decision(toy_env_id, write, actions, message):
    scenario = load_scenario(write(f'env = "toy_race_v1"\nseed = 1\nactions = {actions}\n'))
    with pytest.raises(ScenarioError, match=re.escape(message)):
        play(scenario)


def test_invalid_scenario_files_name_the_field(write):
    with pytest.raises(DataError, match="colour"):
        load_scenario(write('env = "x"\nseed = 1\ncolour = "red"\n'))
    with pytest.raises(DataError, match="seed"):
        load_scenario(write('env = "x"\n'))
    with pytest.raises(DataError, match="no such file"):
        load_scenario(write("", "a.toml").with_name("missing.toml"))


def test_env_registry(toy_env_id, monkeypatch):
    assert toy_env_id in env_ids()
    env = make_env(toy_env_id, num_seats=3, render_mode="ansi")
    assert env.possible_agents == ["racer_0", "racer_1", "racer_2"] and env.render_mode == "ansi"
    with pytest.raises(UnknownNameError, match="unknown env id 'nope_v0'; known: .*toy_race_v1"):
        make_env("nope_v0")
    with pytest.raises(ValueError, match="package.module:attribute"):
        register_env("bad_v0", "tests.envs.toy_ruleset.toy_env")
    monkeypatch.setattr("issoku.envs.registry.ENV_FACTORIES", {})
    register_env("again_v0", "tests.envs.toy_ruleset:toy_env")
    assert env_ids() == ["again_v0"]
    assert import_object("issoku.envs.adapter:RulesetAECEnv").__name__ == "RulesetAECEnv"


def test_agent_registry(monkeypatch):
    assert "random" in policy_names()
    policy = make_policy("random", seed=4)
    assert isinstance(policy, RandomLegal)
    with pytest.raises(UnknownNameError, match="unknown policy 'genius'"):
        make_policy("genius")
    monkeypatch.setattr("issoku.agents.registry.POLICY_FACTORIES", {})
    register_policy("uniform", "issoku.agents.policy:RandomLegal")
    assert policy_names() == ["uniform"]


def test_cli_replay_text_json_and_errors(toy_env_id, write):
    runner = CliRunner()
    path = write(SCRIPTED)
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 0 and "[TOY-07 ] hurt" in text.output
    lines = runner.invoke(app, ["replay", str(path), "--json"])
    assert lines.exit_code == 0 and json.loads(lines.output.splitlines()[-1])["result"]["terminated"] is True
    with_policy = write('env = "toy_race_v1"\nseed = 2\npolicy = "random"\n', "policy.toml")
    assert "result: fight over" in runner.invoke(app, ["replay", str(with_policy)]).output
    bad = runner.invoke(app, ["replay", str(write('env = "nope_v0"\nseed = 1\n', "bad.toml"))])
    assert bad.exit_code == 2 and "unknown env id 'nope_v0'" in bad.output


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "scenarios").rglob("*.toml"))


def test_cli_replay_finds_a_shipped_scenario_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as an installed user: no scenarios/ folder here
    runner = CliRunner()
    names = runner.invoke(app, ["replay", "--list"])
    assert names.exit_code == 0
    assert names.output.split() == [path.relative_to(SHIPPED[0].parents[1]).with_suffix("").as_posix()
                                    for path in SHIPPED]
    by_name = runner.invoke(app, ["replay", "tempo_duel/bind_wind_withdraw"])
    as_in_the_docs = runner.invoke(app, ["replay", "scenarios/tempo_duel/bind_wind_withdraw.toml"])
    assert by_name.exit_code == as_in_the_docs.exit_code == 0
    assert by_name.output == as_in_the_docs.output and "TP-" in by_name.output
    missing = runner.invoke(app, ["replay", "tempo_duel/no_such_fight"])
    assert missing.exit_code == 2 and "nor a shipped scenario (`issoku replay --list`" in missing.output
    assert runner.invoke(app, ["replay"]).exit_code == 2


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_shipped_scenarios_play_their_script_and_replay_byte_for_byte(path):
    scenario = load_scenario(path)
    policy_seed = scenario.seed if scenario.policy_seed is None else scenario.policy_seed

    def replay_once():
        env = scenario_env(scenario)
        policy = make_policy(scenario.policy, seed=policy_seed, ruleset=env.ruleset) if scenario.policy else None
        return play(scenario, policy, env)

    replay = replay_once()
    assert len(replay.decisions) >= len(scenario.actions)
    assert format_jsonl(replay) == format_jsonl(replay_once())


def test_there_is_a_shipped_scenario():
    assert SHIPPED


def _replay_shipped(name: str):
    scenario = load_scenario(next(path for path in SHIPPED if path.stem == name))
    env = scenario_env(scenario)
    seed = scenario.seed if scenario.policy_seed is None else scenario.policy_seed
    return play(scenario, make_policy(scenario.policy, seed=seed, ruleset=env.ruleset), env)


def _scripted_events(replay, kind: str) -> list:
    """The events of ``kind`` the scripted decisions produced, in order."""
    events = replay.state.events
    return [events[i] for decision in replay.decisions if decision.scripted
            for i in range(decision.events_start, decision.events_end) if events[i].kind == kind]


def test_closing_the_ma_tells_what_its_comment_says():
    """Five resisted half-steps from far range, three won by the closer (MA-013), the ashigaru's guard
    shaved for losing two in a row (MA-036); the ma ends at close range."""
    replay = _replay_shipped("closing_the_ma")
    contests = _scripted_events(replay, "half_step_contest")
    assert [event.data["winner"] for event in contests] == [1, 0, 1, 0, 0]
    assert [event.data["after"] for event in _scripted_events(replay, "half_step")] == [1, 2, 3]
    streak = [event for event in _scripted_events(replay, "guard_loss") if event.rule == "MA-036"]
    assert len(streak) == 1 and streak[0].actor == 1
    assert replay.over and "ladder" in format_text(replay)


def test_parry_and_riposte_tells_what_its_comment_says():
    """The improvised parry (1.5x, BR-020) falls one short of the thrust; the reserved parry (0 Energy,
    BR-019) meets the ronin's great cut."""
    replay = _replay_shipped("parry_and_riposte")
    improvised, reserved = _scripted_events(replay, "defense_roll")
    assert improvised.actor == 1 and improvised.data["total"] == improvised.data["attack_total"] - 1
    assert reserved.actor == 0 and reserved.data["technique"] == "uchigatana.parry"
    assert [event.rule for event in _scripted_events(replay, "reservation_triggered")] == ["BR-019"]
    assert replay.over
