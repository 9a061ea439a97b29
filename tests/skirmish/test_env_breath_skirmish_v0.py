"""``breath_skirmish_v0``: conformance for 1v1, 2v2, 3v1 and 4v4, the spec docstring, fixed slots,
defeated fighters leaving, team rewards."""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from issoku.envs import breath_skirmish_v0, env_ids, make_env
from issoku.rules.breath.zones import ORDERS

SIZES = {
    "1v1": [["kenshi"], ["ronin"]],
    "2v2": [["kenshi", "shinobi"], ["ronin", "ashigaru"]],
    "3v1": [["kenshi", "shinobi", "mikkyo_monk"], ["wildman"]],
    "4v4": [["kenshi", "shinobi", "ronin", "ashigaru"], ["ronin", "mikkyo_monk", "wildman", "kenshi"]],
}


@pytest.mark.parametrize("size", SIZES)
def test_api_and_seed_tests_pass(size):
    sides = SIZES[size]
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(breath_skirmish_v0.env(sides), num_cycles=300)
        seed_test(lambda: breath_skirmish_v0.env(sides), num_cycles=300)


def test_agents_are_named_by_side_and_rank():
    env = breath_skirmish_v0.env(SIZES["3v1"])
    assert env.possible_agents == ["side_0_fighter_1", "side_0_fighter_2", "side_0_fighter_3", "side_1_fighter_1"]
    assert env.ruleset.seat_teams == (0, 0, 0, 1)
    assert str(env) == "breath_skirmish_v0"


def test_every_size_has_the_same_spaces_so_one_policy_plays_any_seat():
    envs = [breath_skirmish_v0.env(sides) for sides in SIZES.values()]
    names = {env.action_names for env in envs}
    assert len(names) == 1
    shapes = {env.observation_space(agent)["observation"].shape for env in envs for agent in env.possible_agents}
    assert shapes == {(363,)}
    specs = {env.ruleset.observation_spec.names for env in envs}
    assert len(specs) == 1


def test_padded_slots_put_enemy_k_in_slot_4_plus_k():
    env = breath_skirmish_v0.env(SIZES["3v1"])
    env.reset(seed=3)
    spec = env.ruleset.observation_spec
    view = spec.unpack(env.observe("side_1_fighter_1")["observation"])
    assert view["present"].tolist() == [1, 0, 0, 0, 1, 1, 1, 0]  # self, no allies, three enemies
    assert view["ally"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    view = spec.unpack(env.observe("side_0_fighter_2")["observation"])
    assert view["present"].tolist() == [1, 1, 1, 0, 1, 0, 0, 0]
    assert view["ally"].tolist() == [1, 1, 1, 0, 0, 0, 0, 0]


PER_SLOT_BLOCKS = ("weapon", "armor", "stance", "zone")
"""Fields laid out slot-major, one block per slot (the scalar per-fighter fields are one value a slot)."""


@pytest.mark.parametrize("size", ["1v1", "3v1"])
def test_padded_slots_encode_as_all_zeros_in_play(size):
    """Through random play (stances declared, zones changed, fighters fallen), an empty slot stays zero."""
    from issoku.rules.breath.observe import PER_FIGHTER, ego_orders

    env = breath_skirmish_v0.env(SIZES[size])
    spec = env.ruleset.observation_spec
    orders = ego_orders(env.ruleset)
    slots = len(orders[0])
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    while env.agents:
        agent = env.agent_selection
        seen = env.observe(agent)["observation"]
        empty = [slot for slot, seat in enumerate(orders[env.seat(agent)]) if seat is None]
        assert empty, "every seat of these sizes has padded slots"
        for name in PER_FIGHTER:
            assert not seen[spec.slice(name)][empty].any(), name
        for name in PER_SLOT_BLOCKS:
            blocks = seen[spec.slice(name)].reshape(slots, -1)
            assert not blocks[empty].any(), name
            assert blocks[0].sum() == 1 or name == "stance", name  # its own slot is filled in (a stance may be none)
        checked += 1
        _, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert checked > 20


def test_docstring_spec_matches_the_shipped_content():
    env = breath_skirmish_v0.env()
    doc = breath_skirmish_v0.__doc__
    agent = env.possible_agents[0]
    assert f"Discrete({env.action_space(agent).n})" in doc
    assert f"({env.observation_space(agent)['observation'].shape[0]},)" in doc
    for name in env.ruleset.observation_spec.names:
        assert name in doc, f"observation field {name} missing from the spec"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc
    moves = {name.split(":")[0] for name in env.action_names} - {"attack", "reserve", "stance", "kata", "counter",
                                                                 "use_reserved", "improvise"}
    for kind in moves:
        assert f"``{kind}" in doc, kind
    assert f"the {len(ORDERS)} movement orders" in doc


@pytest.mark.parametrize("sides", [[[], ["ronin"]], [["kenshi"] * 5, ["ronin"]], [["kenshi"]], "kenshi"])
def test_sides_are_two_of_one_to_four_fighters(sides):
    with pytest.raises(ValueError):
        breath_skirmish_v0.env(sides)


def test_registered_and_made_by_id():
    assert "breath_skirmish_v0" in env_ids()
    env = make_env("breath_skirmish_v0", sides=SIZES["2v2"], round_limit=5)
    assert env.ruleset.config.round_limit == 5 and len(env.possible_agents) == 4


def play_out(env, seed: int):
    """Random legal play; returns (agents that fell while the fight went on, every agent's final reward)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    fell: set[str] = set()
    final: dict[str, float] = {}
    while env.agents:
        agent = env.agent_selection
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert not info["eliminated"]  # a fallen fighter is never asked to decide
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        if not env.game_state.is_over():
            fell |= {other for other in env.agents if env.infos[other]["eliminated"]}
    return fell, final


def test_a_defeated_fighter_stays_and_the_team_reward_goes_to_every_member():
    env = breath_skirmish_v0.env(SIZES["2v2"])
    for seed in range(200):
        fell, final = play_out(env, seed)
        if fell and env.game_state.winner_side() is not None:
            break
    else:
        pytest.fail("no random 2v2 with a fighter defeated mid-fight and a winner in 200 seeds")
    winner = env.game_state.winner_side()
    for agent, reward in final.items():
        side = env.ruleset.seat_teams[env.seat(agent)]
        assert reward == (1.0 if side == winner else -1.0)  # the fallen too: their side's result
    assert set(final) == set(env.possible_agents)


def test_a_learner_whose_fighter_falls_is_paid_its_sides_win():
    from issoku.agents import RandomLegal
    from issoku.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(breath_skirmish_v0.env(SIZES["2v2"]), RandomLegal(seed=0))
    rng = np.random.default_rng(0)
    for seed in range(300):
        env.reset(seed=seed)
        done = False
        while not done:
            _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        inner = env.env
        fell = inner.infos[env.learner]["eliminated"] == 1
        if fell and inner.game_state.winner_side() == inner.ruleset.seat_teams[env.learner_seat]:
            assert reward == 1.0
            break
    else:
        pytest.fail("no random 2v2 in 300 seeds where the learner fell and its ally won")
