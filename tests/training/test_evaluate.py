"""Evaluation plays masked (sb3-contrib's maskable evaluation): a policy that prefers an illegal move still plays legally."""

import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.evaluation import evaluate_policy as unmasked_evaluate_policy
from stable_baselines3.common.vec_env import DummyVecEnv

from issoku.agents.policy import RandomLegal
from issoku.training.evaluate import evaluate_against
from issoku.training.make_env import make_selfplay_env
from issoku.training.opponents import Opponent, OpponentPool


def always_add_three(checkpoint: str) -> MaskablePPO:
    """The checkpoint's model, rewired to prefer "take 3", which race_v0 masks out near the target."""
    model = MaskablePPO.load(checkpoint, device="cpu")
    with torch.no_grad():
        model.policy.action_net.weight.zero_()
        model.policy.action_net.bias.copy_(torch.tensor([-50.0, -50.0, 50.0]))
    return model


def test_evaluation_masks_the_learners_moves(tiny_run):
    config, results = tiny_run
    model = always_add_three(results["checkpoint"])
    result = evaluate_against(model, config, "random", 12, seed=0)
    assert result["episodes"] == 12 and result["wins"] + result["draws"] + result["losses"] == 12

    env = DummyVecEnv([lambda: make_selfplay_env(config, OpponentPool([Opponent("random", RandomLegal(0))]))])
    env.seed(0)
    with pytest.raises(ValueError, match="illegal action"):  # what SB3's plain evaluation would do
        unmasked_evaluate_policy(model, env, n_eval_episodes=12, deterministic=True, warn=False)
