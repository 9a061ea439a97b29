"""The PSRO hunt: gain intervals, what a best response does differently, resumability, refusal of foreign checkpoints."""

import json
from dataclasses import replace
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.strength.hunt import HuntConfig, differences, format_report, gain_interval, hunt

TINY = dict(env_id="tempo_duel_v0", population=("random", "tempo_heuristic"), iterations=2, steps=128,
            games_per_pair=4, workers=1, n_envs=2, n_steps=64, batch_size=64, progress=False, threshold=-2.0)


def test_gain_is_the_mixture_weighted_return_with_a_smoothed_normal_interval():
    gain, low, high = gain_interval({"a": [1, 1, 0, 1], "b": [0.5, 0.5]}, {"a": 0.75, "b": 0.25})
    # a: returns 1,1,-1,1 (+1,-1 smoothing: variance 16/15); b: returns 0,0 (+1,-1: variance 2/3)
    assert gain == pytest.approx(0.75 * 0.5)
    assert high - gain == pytest.approx(1.959964 * (0.75 ** 2 * (16 / 15) / 4 + 0.25 ** 2 * (2 / 3) / 2) ** 0.5, rel=1e-5)
    assert gain - low == pytest.approx(high - gain)


def test_identical_results_never_give_a_zero_width_interval():
    gain, low, high = gain_interval({"a": [0.5] * 40}, {"a": 1.0})
    assert gain == 0.0 and high == pytest.approx(1.959964 * (2 / 41 / 40) ** 0.5, rel=1e-5)


def test_differences_name_the_kinds_that_moved_largest_first():
    assert differences({"react": 0.6, "act": 0.4}, {"act": 0.9, "react": 0.08, "wait": 0.02}) == \
        ["react: 8% -> 60%", "act: 90% -> 40%"]  # +52 before -50


def test_a_hunt_reports_every_iteration_and_a_rerun_reuses_it(tmp_path):
    config = HuntConfig(out=str(tmp_path / "h"), **TINY)
    first = hunt(config)
    assert len(first) == 2
    assert first[1].population == ["random", "tempo_heuristic", "br1"]
    assert abs(sum(first[0].mixture.values()) - 1) < 1e-9 and first[0].gain_low <= first[0].gain <= first[0].gain_high
    assert set(first[0].gain_by_opponent) == set(first[0].mixture)
    stamp = (tmp_path / "h" / "agents" / "br2.zip").stat().st_mtime_ns
    again = hunt(config)
    assert [it.gain for it in again] == [it.gain for it in first]
    assert (tmp_path / "h" / "agents" / "br2.zip").stat().st_mtime_ns == stamp
    assert list((tmp_path / "h" / "tb").iterdir())  # TensorBoard scalars


def test_a_hunt_killed_with_sigkill_resumes_to_the_same_result(tmp_path):
    straight = hunt(HuntConfig(out=str(tmp_path / "straight"), **TINY))
    out = tmp_path / "killed"
    command = [sys.executable, "-c", "import sys; from tests.evaluation.test_hunt import *; "
               "hunt(HuntConfig(out=sys.argv[1], **TINY))", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while not (out / "agents" / "br1.zip").exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the hunt ended before it could be killed mid-run"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    state = out / "hunt.json"
    assert len(json.loads(state.read_text())["iterations"] if state.exists() else []) < 2  # killed mid-hunt
    resumed = hunt(HuntConfig(out=str(out), **{**TINY, "progress": False}))
    assert [round(it.gain, 12) for it in resumed] == [round(it.gain, 12) for it in straight]


def test_a_warm_start_checkpoint_of_other_rules_is_refused_with_every_difference(tmp_path):
    checkpoint = tmp_path / "old.zip"
    checkpoint.write_bytes(b"")
    (tmp_path / "old.json").write_text(json.dumps({"env_id": "tempo_duel_v0", "env_version": 0, "rules_version": 1,
                                                    "rules_fingerprint": "stale", "interface": "stale"}))
    result = CliRunner().invoke(app, ["hunt", "--env", "tempo_duel_v0", "--warm-start", str(checkpoint),
                                      "--out", str(tmp_path / "h")])
    assert result.exit_code == 2
    assert "rules_fingerprint: checkpoint" in result.output and "interface: checkpoint" in result.output
    assert not (tmp_path / "h" / "matches.sqlite").exists()


def test_a_resume_with_other_settings_is_refused_naming_them(tmp_path):
    hunt(HuntConfig(out=str(tmp_path / "h"), **{**TINY, "iterations": 1}))
    with pytest.raises(ValueError, match="steps: the hunt in .* was run with 128, not 256"):
        hunt(HuntConfig(out=str(tmp_path / "h"), **{**TINY, "steps": 256}))


def test_best_responses_warm_start_from_a_checkpoint_of_the_same_rules(tmp_path):
    hunt(HuntConfig(out=str(tmp_path / "a"), **{**TINY, "iterations": 1}))
    start = str(tmp_path / "a" / "agents" / "br1.zip")
    hunt(HuntConfig(out=str(tmp_path / "b"), **{**TINY, "iterations": 1, "warm_start": start}))
    metadata = json.loads((tmp_path / "b" / "agents" / "br1.json").read_text())
    assert metadata["hunt"]["warm_start"] == start and metadata["steps"] >= 2 * 128  # continued the start's steps


def test_a_hunt_on_a_rules_variant_plays_and_trains_on_it_warm_started_from_the_shipped_agent(tmp_path):
    """The learned-only planted exploit's set-up (docs/balance.md): the shipped breath agent (trained on the shipped
    rules) warm-starts best responses on a variant; the games and the best response are the variant's."""
    from issoku.envs.breath_duel_v0 import env as breath_env
    from issoku.evaluation.games.policies import shipped_checkpoints
    from issoku.evaluation.games.store import MatchStore
    from issoku.training.make_env import env_identity

    variant = "tests/data/variants/learned_only_tanto_thrust"
    config = HuntConfig(out=str(tmp_path / "h"), **{**TINY, "env_id": "breath_duel_v0", "iterations": 1,
                                                    "population": ("random", "ma_heuristic"), "variant": variant,
                                                    "warm_start": str(shipped_checkpoints()["breath_duel_v0"])})
    (iteration,) = hunt(config)
    planted = env_identity(breath_env(variant=variant), "breath_duel_v0")["rules_fingerprint"]
    assert planted != env_identity(breath_env(), "breath_duel_v0")["rules_fingerprint"]
    assert json.loads((tmp_path / "h" / "agents" / "br1.json").read_text())["rules_fingerprint"] == planted
    with MatchStore(tmp_path / "h" / "matches.sqlite") as store:
        assert {record.rules_fingerprint for record in store.records()} == {planted}
    assert set(iteration.mixture) <= {"random", "ma_heuristic"} and iteration.kind_shares
    thrust = "breath/data/weapons.toml: tanto / thrust: check_bonus (absent) → 3"
    assert {play.action for play in iteration.edited} == {"attack:tanto.thrust", "counter:tanto.thrust"}
    assert all(thrust in play.edits for play in iteration.edited)
    assert json.loads((tmp_path / "h" / "hunt.json").read_text())["changes"][0] == thrust
    assert f"## What changed\n\n- `{thrust}`" in format_report(config, [iteration])


def test_a_control_hunt_trains_the_same_best_response_on_the_shipped_rules_outside_the_population(tmp_path):
    """``--control``: each iteration's best response is trained again on the shipped rules (same seed, steps, warm
    start, mixture) and measured there; its figures are in hunt.json and hunt.md, it never joins the population, it
    resumes from its checkpoint, and a resume that adds or drops the control is refused."""
    from dataclasses import replace

    from issoku.envs.breath_duel_v0 import env as breath_env
    from issoku.evaluation.games.store import MatchStore
    from issoku.training.make_env import env_identity

    config = HuntConfig(out=str(tmp_path / "h"), **{**TINY, "env_id": "breath_duel_v0", "population": ("random", "ma_heuristic"),
                                                    "variant": "tests/data/variants/learned_only_tanto_thrust",
                                                    "control": True})
    first, second = hunt(config)
    agents = tmp_path / "h" / "agents"
    assert first.control == str(agents / "control1.zip") and second.control == str(agents / "control2.zip")
    assert "control1" not in second.population and "br1" in second.population  # a measurement, not a member
    shipped = env_identity(breath_env(), "breath_duel_v0")["rules_fingerprint"]
    assert json.loads((agents / "control1.json").read_text())["rules_fingerprint"] == shipped
    with MatchStore(tmp_path / "h" / "control.sqlite") as store:
        games = list(store.records())
    assert games and {game.rules_fingerprint for game in games} == {shipped}
    assert all("control1" in game.policies or "control2" in game.policies for game in games)
    saved = json.loads((tmp_path / "h" / "hunt.json").read_text())
    assert [entry["control_gain"] for entry in saved["iterations"]] == [list(first.control_gain), list(second.control_gain)]
    report = format_report(config, [first, second])
    assert "- the control (control1: the same training on the shipped rules, not in the population) gained " in report
    assert "The control (the same training on the shipped rules, not in the population) tells them apart" in report
    trained = (agents / "control2.zip").stat().st_mtime_ns  # killed after training the control, before saving
    (tmp_path / "h" / "hunt.json").write_text(json.dumps({**saved, "iterations": saved["iterations"][:1]}))
    resumed = hunt(config)
    assert [it.control_gain for it in resumed] == [first.control_gain, second.control_gain]
    assert (agents / "control2.zip").stat().st_mtime_ns == trained  # reused, not retrained
    with pytest.raises(ValueError, match="control: the hunt in .* was run with True, not False"):
        hunt(replace(config, control=False))


def test_a_hunts_field_may_hold_a_search_agent_which_its_best_response_trains_against(tmp_path):
    """A search agent in the starting field plays the payoff matrix and, in the mixture, the learner's opponents."""
    config = HuntConfig(out=str(tmp_path / "h"), **{**TINY, "population": ("random", "one_step"), "iterations": 1})
    [iteration] = hunt(config)
    assert iteration.population == ["random", "one_step"]
    assert iteration.mixture["one_step"] > 0 and "one_step" in iteration.gain_by_opponent


SEARCH = {**TINY, "oracle": "search", "search_simulations": 8}


def _games_of(store_path, name: str) -> int:
    from issoku.evaluation.games.store import MatchStore

    with MatchStore(store_path) as store:
        return sum(name in record.policies for record in store.records("tempo_duel_v0"))


def test_a_search_hunt_adds_searched_best_responses_trains_nothing_and_resumes_their_games(tmp_path):
    """The search oracle: each best response is MCTS against the mixture, named bs<N>, rebuilt from hunt.json on a
    resume with the same identity, so the games it played are reused rather than played again."""
    config = HuntConfig(out=str(tmp_path / "h"), **SEARCH)
    first = hunt(config)
    assert [it.best_response for it in first] == ["bs1", "bs2"]
    assert first[1].population == ["random", "tempo_heuristic", "bs1"]
    assert not (tmp_path / "h" / "agents").exists()  # nothing was trained
    assert "search best responses (MCTS, 8 simulations a decision" in format_report(config, first)
    stored = _games_of(tmp_path / "h" / "matches.sqlite", "bs1")
    longer = hunt(replace(config, iterations=3))
    assert [it.gain for it in longer[:2]] == [it.gain for it in first]
    assert longer[2].population == ["random", "tempo_heuristic", "bs1", "bs2"]
    # bs1's games against the starting field were stored in iteration 2; iteration 3 adds only its games with bs2
    added = _games_of(tmp_path / "h" / "matches.sqlite", "bs1") - stored
    assert added == 2 * SEARCH["games_per_pair"] if "bs1" in longer[2].mixture else added == SEARCH["games_per_pair"]


@pytest.mark.parametrize("mixture, why", [({"evil.module:f": 1.0}, "no member of this hunt"),
                                          ({"bs2": 1.0}, "no member of this hunt"),
                                          ({"random": "1"}, "must be a number"), ({"random": 0.0}, "sum to 0")])
def test_a_search_hunts_saved_mixture_is_checked_as_data_before_a_resume(tmp_path, mixture, why):
    config = HuntConfig(out=str(tmp_path / "h"), **{**SEARCH, "iterations": 3})
    hunt(replace(config, iterations=2))
    state = json.loads((tmp_path / "h" / "hunt.json").read_text())
    state["iterations"][1]["mixture"] = mixture
    (tmp_path / "h" / "hunt.json").write_text(json.dumps(state))
    with pytest.raises(ValueError, match=why):
        hunt(config)


@pytest.mark.parametrize("options, why", [(["--oracle", "annealing"], "--oracle must be one of ppo, search"),
                                          (["--oracle", "search", "--warm-start", "shipped:tempo_duel_v0"],
                                           "--warm-start trains a learner"),
                                          (["--oracle", "search", "--search-simulations", "0"], "--search-simulations")])
def test_a_search_hunts_bad_options_are_one_line_before_anything_is_written(tmp_path, options, why):
    result = CliRunner().invoke(app, ["hunt", "--env", "tempo_duel_v0", "-p", "random", "--out", str(tmp_path / "h"),
                                      *options])
    assert result.exit_code == 2 and why in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "h").exists()
