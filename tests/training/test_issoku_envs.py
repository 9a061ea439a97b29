"""Training on issoku envs: breath_duel_v0 through the envs registry, its single-agent wrapper and scripted agents;
tempo_duel_v0, encounter_duel_v0, breath_skirmish_v0, tempo_skirmish_v0 and encounter_skirmish_v0 (teams of fighters)
train with the same code, unchanged."""

import numpy as np
import pytest

from issoku.agents.breath_scripted import Heuristic
from issoku.agents.checkpoint import CheckpointPolicy, read_metadata
from issoku.agents.policy import RandomLegal
from issoku.envs.single_agent import SingleAgentEnv
from issoku.training.checkpoints import latest_checkpoint
from issoku.training.config import ConfigError, TrainConfig
from issoku.training.make_env import action_names, env_identity, make_config_env, make_selfplay_env, ruleset_of
from issoku.training.opponents import Opponent, OpponentPool, scripted_policy
from issoku.training.selfplay import train

HEURISTIC = "issoku.agents.breath_scripted:Heuristic"


def test_scripted_agents_by_registry_name_or_import_path_get_the_envs_ruleset():
    env = make_config_env(TrainConfig(env_id="breath_duel_v0"))
    assert isinstance(scripted_policy("random", 0), RandomLegal)
    heuristic = scripted_policy(HEURISTIC, 0, ruleset_of(env))
    assert isinstance(heuristic, Heuristic) and heuristic.ruleset is env.ruleset
    with pytest.raises(ConfigError, match="has none"):
        scripted_policy(HEURISTIC, 0, None)
    with pytest.raises(ConfigError, match="unknown scripted agent"):
        scripted_policy("no_such_agent", 0)


def test_breath_trains_through_the_envs_single_agent_wrapper_with_randomized_matchups():
    config = TrainConfig(env_id="breath_duel_v0", matchups=("kenshi", "ronin", "shinobi"))
    pool = OpponentPool([Opponent("random", RandomLegal(0))])
    env = make_selfplay_env(config, pool)
    assert isinstance(env.unwrapped, SingleAgentEnv)
    mix = env.unwrapped.env
    rng = np.random.default_rng(0)
    matchups, outcomes = set(), []
    for seed in range(12):
        env.reset(seed=seed)
        matchups.add(mix.matchup)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.get_wrapper_attr("action_masks")()))))
            done = terminated or truncated
        outcomes.append(info["selfplay"]["return"])
    assert len(matchups) > 3 and set(outcomes) <= {-1.0, 0.0, 1.0}
    assert "attack" in {name.split(":")[0] for name in action_names(mix)}


def test_the_identity_of_a_breath_run_names_version_and_matchups():
    fixed = env_identity(make_config_env(TrainConfig(env_id="breath_duel_v0")), "breath_duel_v0")
    mixed = env_identity(make_config_env(TrainConfig(env_id="breath_duel_v0", matchups=("kenshi", "ronin"))),
                         "breath_duel_v0")
    assert fixed["env_version"] == mixed["env_version"] == 0
    assert fixed["rules_version"] == mixed["rules_version"] is not None
    assert fixed["rules_fingerprint"] != mixed["rules_fingerprint"]
    assert len(fixed["rules_fingerprint"]) >= 16


@pytest.mark.parametrize("env_id, scripted", [("tempo_duel_v0", "tempo_heuristic"),
                                              ("encounter_duel_v0", "encounter_heuristic"),
                                              ("breath_skirmish_v0", "random"),
                                              ("tempo_skirmish_v0", "tempo_focus_fire"),
                                              ("encounter_skirmish_v0", "encounter_focus_fire")])
def test_other_issoku_envs_train_checkpoint_and_evaluate_unchanged(tmp_path, env_id, scripted):
    config = TrainConfig(env_id=env_id, opponents=(scripted,), eval_opponents=(scripted,), n_envs=2, n_steps=32,
                         batch_size=32, n_epochs=1, net_arch=(16,), total_steps=128, checkpoint_every=64,
                         eval_every=0, final_eval_episodes=2, progress_bar=False, run_dir=str(tmp_path))
    results = train(config)
    assert results["steps"] >= 128 and results["evaluations"][0]["episodes"] == 2
    metadata = read_metadata(latest_checkpoint(tmp_path))
    assert metadata["env_id"] == env_id and metadata["rules_fingerprint"]
    policy = CheckpointPolicy(results["checkpoint"])
    env = make_config_env(config)
    env.reset(seed=0)
    observed = env.observe(env.agent_selection)
    assert observed["action_mask"][policy(observed["observation"], observed["action_mask"])] == 1
