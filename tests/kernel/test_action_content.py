"""The kernel's content hook: every shipped ruleset says which content items each action of its table exercises
(the balance report's coverage reads it, knowing no ruleset)."""

import pytest

from issoku.envs.registry import ENV_FACTORIES, make_env
from issoku.rules.kernel.protocol import action_content


@pytest.mark.parametrize("env_id", sorted(ENV_FACTORIES))
def test_every_action_of_every_shipped_ruleset_names_its_content(env_id):
    ruleset = make_env(env_id).unwrapped.ruleset
    assert callable(getattr(ruleset, "action_content", None)), f"{env_id}: no content hook"
    for name in ruleset.action_names:
        items = action_content(ruleset, name)
        assert items and all(isinstance(item, str) and item for item in items), (name, items)


def test_the_hooks_group_what_one_content_item_is_played_through():
    breath = make_env("breath_duel_v0").unwrapped.ruleset
    assert action_content(breath, "counter:nodachi.cut") == ("technique:nodachi.cut",)
    assert action_content(breath, "use_reserved:yari.harry") == ("defence:yari.harry",)
    assert action_content(breath, "kata:kiai") == ("kata:kiai",)
    assert action_content(breath, "aim:attack_a:wrist") == ("location:wrist",)  # MA-040, from the Ma module
    encounters = make_env("encounter_duel_v0").unwrapped.ruleset
    assert action_content(encounters, "attack:feint:knockdown:ed2") == (
        "maneuver:feint", "maneuver:knockdown", "maneuver:extra_damage")
    assert action_content(encounters, "stance:fire") == ("stance:fire",)
    tempo = make_env("tempo_duel_v0").unwrapped.ruleset
    assert action_content(tempo, "react:parry") == ("react:parry",)
    with pytest.raises(KeyError):
        action_content(tempo, "react:nonsense")


def test_a_ruleset_without_the_hook_gets_each_action_as_its_own_item():
    class Bare:
        action_names = ("a", "b:c")

    assert action_content(Bare(), "b:c") == ("b:c",)
