"""The scripted breath agents close in on the zone line before they cut (agents/breath_approach.py)."""

from __future__ import annotations

import pytest

from issoku.agents.breath_approach import Approach
from issoku.agents.registry import make_policy
from issoku.envs import breath_duel_v0, breath_skirmish_v0
from issoku.evaluation.games.match import play_match
from issoku.envs.teams import as_two_seats

MOVES = {"walk", "sprint", "breakthrough", "free_core_entry", "force_core_breakthrough", "forced_core_exit",
         "enter_outside_zone"}


def first_decision(env, policy_name: str) -> str:
    policy = make_policy(policy_name, seed=0, ruleset=env.ruleset)
    seen = env.observe(env.agent_selection)
    return env.action_names[policy(seen["observation"], seen["action_mask"])]


@pytest.mark.rule("BR-074", "BR-Z01")
def test_with_nobody_in_reach_a_kenshi_breaks_into_the_core_toward_the_enemy():
    env = breath_skirmish_v0.env([["kenshi"], ["ronin"]])
    env.reset(seed=0)
    assert env.agent_selection == "side_0_fighter_1"  # Energy 13 against 12
    for name in ("breath_aggressive", "breath_defensive", "breath_heuristic"):
        assert first_decision(env, name) == "force_core_breakthrough"  # the only way one zone nearer


@pytest.mark.rule("BR-073")
def test_the_ronin_follows_into_the_core_for_2_and_then_cuts():
    env = breath_skirmish_v0.env([["kenshi"], ["ronin"]])
    env.reset(seed=0)
    env.step(env.action_id("force_core_breakthrough"))  # seed 0: the Courage check holds
    assert first_decision(env, "breath_aggressive").split(":")[0] not in MOVES  # no room for the exit's 4
    env.step(env.action_id("end_breath"))
    assert env.agent_selection == "side_1_fighter_1"
    assert first_decision(env, "breath_aggressive") == "free_core_entry"  # not the dearer force breakthrough
    env.step(env.action_id("free_core_entry"))
    choice = first_decision(env, "breath_aggressive")
    while choice.split(":")[0] in ("stance", "kata"):  # the free edges come first
        env.step(env.action_id(choice))
        choice = first_decision(env, "breath_aggressive")
    assert choice.startswith("attack:nodachi.") and choice.endswith(":enemy0")


def test_scripted_sides_meet_and_decide_most_skirmishes():
    env = breath_skirmish_v0.env([["kenshi", "shinobi"], ["ronin", "ashigaru"]])
    view = as_two_seats(env)
    decided, moves = 0, 0
    for seed in range(6):
        policies = [make_policy(name, seed=seed, ruleset=env.ruleset) for name in ("breath_heuristic", "breath_aggressive")]
        record = play_match(view, policies, seed, key=str(seed), loadout="default", loadout_kwargs={},
                            policy_names=("breath_heuristic", "breath_aggressive"))
        decided += record.winner is not None
        moves += sum(action.split(":")[0] in MOVES for side in record.actions for action in side)
    assert decided >= 5 and moves >= 6 * 2


def test_a_duel_has_nothing_to_approach():
    env = breath_duel_v0.env()
    approach = Approach(env.ruleset)
    env.reset(seed=0)
    seen = env.observe(env.agent_selection)
    assert not approach.active and approach.move(seen["observation"], list(range(10)), 10) is None
