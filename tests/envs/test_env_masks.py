"""The mask is the encoding of ``legal_actions()``: property test over random play on the toy ruleset."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toy_ruleset import ToyRace

from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import IllegalActionError


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), num_seats=st.sampled_from([2, 3]), policy_seed=st.integers(0, 1000))
def test_masked_in_accepted_masked_out_rejected_acting_mask_never_empty(seed, num_seats, policy_seed):
    env = RulesetAECEnv(ToyRace(num_seats))
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask, info["action_mask"])
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
