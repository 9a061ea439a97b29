"""The mask is the encoding of ``legal_actions()``: property test over random play on the toy ruleset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.envs.adapter import RulesetAECEnv

from .mask_property import play_checking_masks
from .toy_ruleset import ToyRace


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), num_seats=st.sampled_from([2, 3]), policy_seed=st.integers(0, 1000))
def test_masked_in_accepted_masked_out_rejected_acting_mask_never_empty(seed, num_seats, policy_seed):
    play_checking_masks(RulesetAECEnv(ToyRace(num_seats), illegal_action="raise"), seed, policy_seed)
