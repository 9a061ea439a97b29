"""The mask property every env must hold, as one reusable check over random play."""

from __future__ import annotations

import numpy as np
import pytest

from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import IllegalActionError


def play_checking_masks(env: RulesetAECEnv, seed: int, policy_seed: int, max_decisions: int | None = None) -> None:
    """Random-legal play in which, at every decision, every masked-in action is accepted (on a clone of
    the state), every masked-out one rejected (by the rules and by the env), the deciding agent's mask
    is never all zero, and every other agent's mask is zero.
    ``env`` must be built with ``illegal_action="raise"`` (the env's rejection is checked)."""
    assert env.illegal_action == "raise", "build the env with illegal_action='raise'"
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    decisions = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        if max_decisions is not None and decisions >= max_decisions:
            return
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert info["decision_kind"] >= 0
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        state = env.game_state
        for action in range(len(mask)):
            trial = state.clone()
            if mask[action]:
                trial.apply(action)
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply(action)
                with pytest.raises(IllegalActionError):
                    env.step(action)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        decisions += 1
