"""sb3-contrib's MaskablePPO runs on the single-agent wrapper (tiny budget: a smoke test, not learning)."""

from __future__ import annotations

import numpy as np
from sb3_contrib import MaskablePPO

from issoku.agents import RandomLegal
from issoku.envs import breath_duel_v0
from issoku.envs.single_agent import SingleAgentEnv


def test_maskable_ppo_trains_and_predicts_only_legal_actions():
    env = SingleAgentEnv(breath_duel_v0.env(), RandomLegal(seed=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    observation, _ = env.reset(seed=1)
    for _ in range(50):
        mask = env.action_masks()
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        observation, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            observation, _ = env.reset()
    assert np.isfinite(observation).all()
