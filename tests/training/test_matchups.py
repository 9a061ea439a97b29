"""Randomized loadouts: a matchup mix plays a seed-drawn member env per episode, as one AEC env."""

import pytest
from conftest import RACE
from tests.evaluation.toy_env import race_v0

from issoku.training.make_env import env_identity
from issoku.training.matchups import MatchupMixEnv, every_pairing
from issoku.envs.single_agent import SingleAgentEnv


def mix(starts=(0, 2), target=10) -> MatchupMixEnv:
    return MatchupMixEnv([race_v0(start=s, target=target) for s in starts], [f"start {s}" for s in starts])


def test_every_pairing_is_every_ordered_pair():
    assert every_pairing(["a", "b"]) == [["a", "a"], ["a", "b"], ["b", "a"], ["b", "b"]]


def test_the_seed_draws_the_matchup_reproducibly_and_all_matchups_occur():
    env = mix()
    drawn = []
    for seed in range(30):
        env.reset(seed=seed)
        drawn.append(env.matchup)
    assert set(drawn) == {"start 0", "start 2"}
    again = []
    for seed in range(30):
        env.reset(seed=seed)
        again.append(env.matchup)
    assert again == drawn


def test_aec_state_is_the_current_members_and_the_loser_is_credited():
    env = mix(starts=(1,), target=6)  # counter starts at 1
    seat = SingleAgentEnv(env, lambda observation, mask: int(mask.nonzero()[0][-1]), learner_seat=1)
    observation, _ = seat.reset(seed=0)  # the opponent's +3 -> 4
    assert env.agent_selection == "player_1" and observation[4] == 1.0
    assert seat.step(0)[1:3] == (-1.0, True)  # learner +1 -> 5, the opponent's +1 -> 6 wins
    assert env.terminations["player_1"] and env._cumulative_rewards["player_1"] == -1  # the member's state


def test_the_fingerprint_names_the_matchups():
    assert env_identity(mix((0, 2)), RACE)["rules_fingerprint"] != env_identity(mix((0, 3)), RACE)["rules_fingerprint"]
    assert env_identity(mix((0, 2)), RACE) == env_identity(mix((0, 2)), RACE)


def test_members_with_other_spaces_are_refused():
    with pytest.raises(ValueError, match="differs"):
        MatchupMixEnv([race_v0(target=10), race_v0(target=12)], ["ten", "twelve"])
