"""``ma_duel_v0``: PettingZoo conformance across the duel's options, the spec docstring, the registry."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from issoku.envs import ma_duel_v0, make_env

OPTIONS = [
    {},
    {"fighters": ["ashigaru", "wildman"], "kind": "hatashiai", "stage": "backlight"},
    {"fighters": ["shinobi", "kenshi"], "mode": "sparring", "stage": "high_ground", "stage_side": 1},
    {"fighters": ["mikkyo_monk", "ronin"], "stage": "narrow_path", "hit_locations": False, "step_in_edge": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=range(len(OPTIONS)))
def test_api_and_seed_tests_pass(options):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")  # api_test's advice about Dict observation spaces
        api_test(ma_duel_v0.env(**options), num_cycles=60)
        seed_test(lambda: ma_duel_v0.env(**options), num_cycles=60)


def test_docstring_spec_matches_the_shipped_content():
    env = ma_duel_v0.env()
    doc = ma_duel_v0.__doc__
    assert f"Discrete({env.action_space('player_0').n})" in doc
    assert f"Discrete({ma_duel_v0.env(mode='sparring').action_space('player_0').n})" in doc
    size = env.observation_space("player_0")["observation"].shape[0]
    assert f"({size},)" in doc
    for name in env.ruleset.observation_spec.names:
        if name.startswith("ma_"):
            assert name in doc, f"observation field {name} missing from the spec"
    for kind in env.ruleset.decision_kinds:
        assert f"``{kind}``" in doc
    assert str(env) == "ma_duel_v0"


def test_registry_and_shared_rulesets():
    assert make_env("ma_duel_v0").ruleset is ma_duel_v0.env().ruleset
    assert ma_duel_v0.env(stage="sandbar").ruleset is not ma_duel_v0.env().ruleset
    with pytest.raises(ValueError):
        ma_duel_v0.env(kind="brawl")
    with pytest.raises(ValueError, match="1:1"):
        ma_duel_v0.env(fighters=["kenshi", "ronin", {"archetype": "ashigaru", "side": 1}])
