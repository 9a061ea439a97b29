"""``breath_skirmish_v0`` goes through the training and tournament commands unchanged (small budgets).

Training: ``issoku train --env breath_skirmish_v0`` trains one MaskablePPO learner on a random seat,
the opponent policy playing every other fighter. Tournaments (``issoku balance-report``): one policy
plays every member of a side, through the generic team view of the evaluation layer.
"""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import pytest
from pettingzoo.test import api_test
from typer.testing import CliRunner

from issoku.agents.policy import RandomLegal
from issoku.agents.registry import make_policy
from issoku.cli import app
from issoku.envs import breath_skirmish_v0
from issoku.evaluation.games.match import play_match
from issoku.evaluation.games.store import MatchStore
from issoku.envs.teams import TeamView, as_two_seats
from issoku.training.config import ConfigError, TrainConfig
from issoku.training.make_env import make_config_env
from issoku.training.play import play

TWO_V_TWO = [["kenshi", "shinobi"], ["ronin", "ashigaru"]]
THREE_V_ONE = [["kenshi", "shinobi", "mikkyo_monk"], ["wildman"]]
TINY_TRAINING = ["--set", "n_envs=1", "--set", "n_steps=64", "--set", "batch_size=64", "--set", "n_epochs=1",
                 "--set", "net_arch=16", "--set", "eval_every=0", "--set", "final_eval_episodes=2",
                 "--set", "checkpoint_every=64", "--set", "progress_bar=false"]


@pytest.mark.parametrize("sides", [TWO_V_TWO, THREE_V_ONE], ids=["2v2", "3v1"])
def test_a_side_scores_its_outcome_however_many_of_its_fighters_fell(sides):
    """The team view's returns are the side's +1 / −1 / 0, matching the fight's winner, seed by seed."""
    env = breath_skirmish_v0.env(sides)
    view = as_two_seats(env)
    assert isinstance(view, TeamView) and view.possible_agents == ["team_0", "team_1"]
    fell_before_the_end = 0
    for seed in range(8):
        policies = [make_policy("breath_aggressive", seed=seed, ruleset=env.ruleset), RandomLegal(seed)]
        if seed % 2:
            policies.reverse()
        record = play_match(view, policies, seed, key=str(seed), loadout="default", loadout_kwargs={},
                            policy_names=("a", "b"))
        winner = env.game_state.winner_side()
        assert record.returns == ((0.0, 0.0) if winner is None else (1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        assert record.winner == winner and record.env_id == "breath_skirmish_v0"
        assert record.length == sum(map(len, record.actions))
        fallen = sum(env.game_state.is_eliminated(seat) for seat in range(len(env.possible_agents)))
        fell_before_the_end += winner is not None and fallen > 1
    assert fell_before_the_end  # a side scored as one though a fighter had left the agents before the end


def test_the_team_view_passes_pettingzoo_s_api_test():
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(as_two_seats(breath_skirmish_v0.env(THREE_V_ONE)), num_cycles=300)


def test_every_decision_of_a_side_is_its_policy_s():
    env = breath_skirmish_v0.env(TWO_V_TWO, round_limit=4)
    seen: list[str] = []

    def watching(name):
        def policy(observation, mask):
            seen.append((name, env.agent_selection))
            return RandomLegal(0)(observation, mask)
        return policy

    record = play_match(as_two_seats(env), [watching("a"), watching("b")], 3, key="k", loadout="default",
                        loadout_kwargs={}, policy_names=("a", "b"))
    assert {agent for name, agent in seen if name == "a"} <= {"side_0_fighter_1", "side_0_fighter_2"}
    assert {agent for name, agent in seen if name == "b"} <= {"side_1_fighter_1", "side_1_fighter_2"}
    assert len(seen) == record.length and {name for name, _ in seen} == {"a", "b"}


def test_balance_report_plays_a_skirmish_study(tmp_path):
    study = tmp_path / "study.toml"
    study.write_text('env = "breath_skirmish_v0"\npolicies = ["random", "breath_aggressive"]\ngames_per_pair = 2\n'
                     '[[loadouts]]\nname = "2v2"\nkwargs = { round_limit = 6 }\n'
                     '[[loadouts]]\nname = "3v1"\n'
                     'kwargs = { round_limit = 6, sides = [["kenshi", "shinobi", "mikkyo_monk"], ["wildman"]] }\n')
    db, out = tmp_path / "m.sqlite", tmp_path / "out"
    result = CliRunner().invoke(app, ["balance-report", "--study", str(study), "--workers", "0", "--db", str(db),
                                      "--out", str(out), "--bootstrap", "10"])
    assert result.exit_code == 0, result.output
    with MatchStore(db) as store:
        records = list(store.records())
    assert len(records) == 4 and {r.loadout for r in records} == {"2v2", "3v1"}
    assert {r.agents for r in records} == {("team_0", "team_1")}
    assert "## breath_skirmish_v0" in (out / "report.md").read_text()


def test_issoku_train_runs_on_the_skirmish(tmp_path):
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "--env", "breath_skirmish_v0", "--total-steps", "64", "--seed", "1",
                                      "--run-dir", str(run_dir), *TINY_TRAINING,
                                      "--set", 'env_kwargs={"sides": [["kenshi", "shinobi", "ronin"], ["ashigaru"]], '
                                               '"round_limit": 4}'])
    assert result.exit_code == 0, result.output
    assert "trained 64 steps" in result.output and "vs random: won" in result.output
    final = json.loads((run_dir / "final_eval.json").read_text())
    assert final  # the learner was evaluated on the skirmish it trained on
    (checkpoint,) = (run_dir / "checkpoints").glob("step_*64.zip")
    lines: list[str] = []
    reward = play(checkpoint, seat=3, seed=0, choose=lambda menu: menu[-1][0], write=lines.append)
    assert lines[0] == ("you play side_1_fighter_1; the agent plays side_0_fighter_1, side_0_fighter_2, "
                        "side_0_fighter_3") and reward in (-1.0, 0.0, 1.0)


def test_duel_matchups_are_refused_with_a_message_not_a_traceback():
    """Randomized matchups give the env ``fighters=[a, b]``; the skirmish takes ``sides``."""
    with pytest.raises(ConfigError, match="breath_skirmish_v0 cannot take that"):
        make_config_env(TrainConfig(env_id="breath_skirmish_v0", matchups=("kenshi", "ronin")))


def test_head_to_head_plays_side_against_side():
    result = CliRunner().invoke(app, ["head-to-head", "-a", "breath_heuristic", "-o", "random", "-n", "4",
                                      "--env", "breath_skirmish_v0", "--env-kwargs", '{"round_limit": 8}'])
    assert result.exit_code == 0, result.output
    assert "breath_heuristic vs random on breath_skirmish_v0" in result.output and "won " in result.output
