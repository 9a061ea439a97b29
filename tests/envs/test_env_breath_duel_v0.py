"""``breath_duel_v0``: conformance over every weapon pairing and both duel kinds, the spec docstring,
rewards, masks, the wrapper."""

from __future__ import annotations

import contextlib
import io
import itertools
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from issoku.agents import RandomLegal
from issoku.envs import breath_duel_v0, make_env
from issoku.envs.single_agent import SingleAgentEnv
from issoku.rules.breath.content import load_catalog
from issoku.rules.breath.ruleset import FighterSpec

from .mask_property import play_checking_masks

WEAPONS = sorted(load_catalog().weapons)
PAIRINGS = list(itertools.combinations_with_replacement(WEAPONS, 2))


def duel(first: str, second: str, **kwargs):
    return breath_duel_v0.env(fighters=[{"archetype": "kenshi", "weapon": first},
                                        {"archetype": "ronin", "weapon": second}], **kwargs)


def conformance(make) -> None:
    """PettingZoo's api_test and seed_test, quietly (api_test advises against Dict observation spaces)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(make(), num_cycles=60)
        seed_test(make, num_cycles=60)


@pytest.mark.parametrize("kind", ["ikkiuchi", "hatashiai"])
@pytest.mark.parametrize("first, second", PAIRINGS, ids=[f"{a}-{b}" for a, b in PAIRINGS])
def test_api_and_seed_tests_pass_for_every_weapon_pairing_and_duel_kind(first, second, kind):
    # every unordered pairing in both kinds; hatashiai swaps who holds which, so every ordered pairing
    # (kenshi with one weapon, ronin with the other) is also played once
    pair = (first, second) if kind == "ikkiuchi" else (second, first)
    conformance(lambda: duel(*pair, kind=kind))


@pytest.mark.parametrize("options", [
    {"mode": "sparring"},
    {"hit_locations": False, "step_in_edge": True, "long_weapon_opening": True},
    *({"stage": stage, "kind": "hatashiai"} for stage in ("sandbar", "narrow_path", "high_ground", "backlight")),
    {"stage": "high_ground", "stage_side": 1},
    {"ma": False},
], ids=lambda options: "-".join(f"{key}={value}" for key, value in options.items()))
def test_api_and_seed_tests_pass_for_duel_options(options):
    conformance(lambda: breath_duel_v0.env(**options))


def test_docstring_spec_matches_the_shipped_content():
    doc = breath_duel_v0.__doc__
    env = breath_duel_v0.env()
    assert env.ruleset.name == "ma_duel" and str(env) == "breath_duel_v0"
    assert env.possible_agents == ["player_0", "player_1"]
    for options, actions, observations in (({}, 100, 129), ({"mode": "sparring"}, 90, 129),
                                           ({"hit_locations": False}, 90, 129), ({"ma": False}, 78, 92)):
        configured = breath_duel_v0.env(**options)
        assert configured.action_space("player_0").n == actions
        assert configured.observation_space("player_0")["observation"].shape == (observations,)
        assert f"Discrete({actions})" in doc and f"({observations},)" in doc
    for name in env.ruleset.observation_spec.names:
        assert name in doc, f"observation field {name} missing from the spec"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc
    for stage in env.ruleset.modules[0].content.stages:
        assert stage in doc


def test_fighters_by_name_mapping_or_spec_and_shared_rulesets():
    by_name = breath_duel_v0.env(fighters=["kenshi", "ronin"])
    by_spec = breath_duel_v0.env(fighters=[FighterSpec("kenshi", 0), FighterSpec("ronin", 1)])
    assert by_name.ruleset is by_spec.ruleset  # one immutable ruleset for identical configs
    assert by_name.ruleset is breath_duel_v0.env().ruleset  # the default duel
    spear = breath_duel_v0.env(fighters=["kenshi", {"archetype": "ronin", "weapon": "yari"}], round_limit=5)
    assert spear.ruleset.sheets[1].weapon.key == "yari" and spear.ruleset.config.round_limit == 5
    assert spear.ruleset.seat_teams == (0, 1)
    with pytest.raises(TypeError):
        breath_duel_v0.env(fighters="kenshi")
    with pytest.raises(ValueError, match="unknown archetype"):
        breath_duel_v0.env(fighters=["kenshi", "dragon"])
    with pytest.raises(ValueError, match="kind must be one of \\['ikkiuchi', 'hatashiai'\\]"):
        breath_duel_v0.env(kind="brawl")
    with pytest.raises(ValueError, match="need ma=True"):
        breath_duel_v0.env(ma=False, mode="sparring")
    assert breath_duel_v0.env(kind="hatashiai").ruleset is breath_duel_v0.env(kind="hatashiai").ruleset
    assert breath_duel_v0.env(kind="hatashiai").ruleset is not breath_duel_v0.env().ruleset


def _play_out(env, seed):
    """One random-legal fight through ``agent_iter``; the agent who made the last decision, and what
    ``env.last()`` gave each agent once its fight was over: ``(reward, terminated, truncated)``."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    last_mover, final = None, {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = (reward, terminated, truncated)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            last_mover = agent
    return last_mover, final


def test_the_loser_of_a_fight_ending_on_the_winners_move_receives_minus_one():
    env = breath_duel_v0.env()
    endings = set()
    for seed in range(40):
        mover, final = _play_out(env, seed)
        returns = env.game_state.returns()
        assert {agent: reward for agent, (reward, _, _) in final.items()} == {"player_0": returns[0],
                                                                             "player_1": returns[1]}
        if env.game_state.is_terminal():
            winner, loser = ("player_0", "player_1") if returns[0] == 1.0 else ("player_1", "player_0")
            assert final[winner] == (1.0, True, False) and final[loser] == (-1.0, True, False)
            endings.add("winner moved last" if mover == winner else "loser moved last")
    assert endings == {"winner moved last", "loser moved last"}  # both endings were exercised


def test_the_round_limit_truncates_both_agents_with_zero():
    env = breath_duel_v0.env(round_limit=1)
    truncated = 0
    for seed in range(20):
        _, final = _play_out(env, seed)
        if env.game_state.is_truncated():
            truncated += 1
            assert final == {"player_0": (0.0, False, True), "player_1": (0.0, False, True)}
    assert truncated  # one round is too short for most random fights


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 1000), pairing=st.sampled_from(PAIRINGS),
       options=st.sampled_from([{"kind": "ikkiuchi"}, {"kind": "hatashiai"}, {"mode": "sparring"},
                                {"kind": "hatashiai", "stage": "narrow_path"}, {"ma": False}]))
def test_masks_over_random_play_accept_exactly_the_legal_actions(seed, policy_seed, pairing, options):
    # random fights last 34 decisions on average (66 at most over 50 seeds): 80 plays most to the end
    play_checking_masks(duel(*pairing, illegal_action="raise", **options), seed, policy_seed, max_decisions=80)


def test_registry_and_single_agent_wrapper_pass_the_checkers():
    assert make_env("breath_duel_v0").ruleset is breath_duel_v0.env().ruleset
    wrapped = SingleAgentEnv(breath_duel_v0.env(), RandomLegal(seed=0))
    gymnasium_check_env(wrapped, skip_render_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_check_env(wrapped, warn=False)


def play_random(env, seed: int) -> tuple[dict[str, float], set[str]]:
    """Seeded random-legal play of one fight: what ``last()`` paid each agent as it left, and the
    agents that fell while the fight went on (checking that a fallen one is never asked to decide)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    paid, fell = {}, set()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            paid[agent] = reward
            env.step(None)
            continue
        assert not info["eliminated"]
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if not env.game_state.is_over():
            fell |= {other for other in env.agents if env.infos[other]["eliminated"]}
    return paid, fell


def test_two_against_one_passes_the_api_test_and_a_fallen_ally_gets_its_sides_result():
    def make():
        return breath_duel_v0.env(fighters=["kenshi", "ashigaru", {"archetype": "ronin", "side": 1}], ma=False)

    conformance(make)
    env = make()
    assert env.ruleset.seat_teams == (0, 1, 1)
    fallen_allies = 0
    for seed in range(40):
        paid, fell = play_random(env, seed)
        returns = env.game_state.returns()
        assert paid == {agent: returns[seat] for seat, agent in enumerate(env.possible_agents)}
        fallen_allies += bool(fell & {"player_1", "player_2"})
    assert fallen_allies  # some fights did drop one of the pair while the other fought on


def _step_until(env, seed, done):
    """Random-legal steps (seeded) until ``done(env)`` or the fight ends."""
    rng = np.random.default_rng(seed)
    while not done(env) and not any(env.terminations.values()) and not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_ansi_render_draws_the_ladder_both_fighters_energy_and_guard_bars_and_the_last_events():
    env = breath_duel_v0.env(render_mode="ansi", kind="hatashiai", stage="high_ground", stage_side=1)
    env.reset(seed=4)
    text = env.render()
    assert "ladder  [FAR] - issoku_itto - near - close - tsubazeriai" in text
    assert "player_0 >------------< player_1" in text  # as far apart as the ma
    assert "E[#############] 13/13" in text and "E[############] 12/12" in text  # Energy bars
    assert "guard   player_0   G[########]  8/8" in text and "guard   player_1   G[#######]  7/7" in text
    assert "stage   high_ground (side: player_1)" in text
    assert "[MA-009 ] ma_start" in text  # the events of the reset
    rung = env.ruleset.modules[0].data(env.game_state).ladder
    _step_until(env, 4, lambda e: rung.rung != 0)
    text = env.render()
    assert "[ISSOKU_ITTO]" in text and ">---------<" in text  # one half-step closer
    assert "[MA-009 ] ma_start" not in text and "[MA-0" in text  # only the last step's events


def test_ansi_render_marks_open_guards_injuries_and_a_stage_without_far_range():
    env = breath_duel_v0.env(render_mode="ansi", kind="hatashiai", stage="narrow_path")
    env.reset(seed=0)
    assert "ladder  xfarx - [ISSOKU_ITTO]" in env.render()  # MA-051: no far range on a narrow path
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        guards = env.ruleset.modules[0].data(env.game_state).guards
        injuries = env.ruleset.modules[0].data(env.game_state).injuries
        _step_until(env, seed, lambda e: any(g.value == 0 for g in guards) and any(i.bleeding for i in injuries))
        text = env.render()
        seen |= {marker for marker in ("OPEN", "injured:", "bleeding") if marker in text}
        if seen == {"OPEN", "injured:", "bleeding"}:
            break
    assert seen == {"OPEN", "injured:", "bleeding"}


def test_three_way_free_for_all_pays_every_loser_minus_one_whenever_it_fell():
    env = breath_duel_v0.env(fighters=["kenshi", "ronin", "ashigaru"], ma=False)  # three sides (BR-G20 results)
    fell_early = 0
    for seed in range(30):
        paid, fell = play_random(env, seed)
        winner = env.game_state.winner_side()
        if winner is None:
            assert set(paid.values()) == {0.0}
            continue
        assert paid == {agent: 1.0 if seat == winner else -1.0 for seat, agent in enumerate(env.possible_agents)}
        fell_early += bool(fell)
    assert fell_early  # some fights lost a fighter long before the end, and it was still paid −1
