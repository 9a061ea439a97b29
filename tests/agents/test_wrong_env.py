"""Every registered scripted agent refuses, by name, an env whose rules it cannot read: built for the wrong
ruleset it raises a ValueError naming the rules it was given, never an AttributeError or a masked-out move
in the middle of a game (clear errors for an agent on the wrong env)."""

import pytest

from issoku.agents.registry import make_policy, policy_names
from issoku.envs.registry import resolve_env

ENVS = {"breath_duel_v0": {}, "breath_fight": {"ma": False}, "tempo_duel_v0": {}, "tempo_skirmish_v0": {},
        "encounter_duel_v0": {}, "encounter_skirmish_v0": {}}
HOME = {"ma_": {"breath_duel_v0"}, "breath_": {"breath_duel_v0", "breath_fight"},
        "tempo_focus_fire": {"tempo_skirmish_v0"}, "tempo_": {"tempo_duel_v0"},
        "encounter_focus_fire": {"encounter_skirmish_v0"}, "encounter_": {"encounter_duel_v0"}}


def ruleset_of(label: str):
    env_id = "breath_duel_v0" if label == "breath_fight" else label
    env = resolve_env(env_id)(**ENVS[label])
    return env.unwrapped.ruleset


@pytest.mark.parametrize("name", [n for n in policy_names() if n.startswith(tuple(HOME))])
def test_a_scripted_agent_is_built_on_its_own_rules_and_refuses_the_others_by_name(name):
    home = next(envs for prefix, envs in HOME.items() if name.startswith(prefix))
    for label in ENVS:
        ruleset = ruleset_of(label)
        if label in home:
            make_policy(name, seed=0, ruleset=ruleset)
            continue
        with pytest.raises(ValueError) as refused:
            make_policy(name, seed=0, ruleset=ruleset)
        assert repr(ruleset.name) in str(refused.value), (name, label, str(refused.value))
