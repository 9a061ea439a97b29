"""Casters in the envs: selectable as archetypes in breath_duel_v0 (with and without Ma) and
breath_skirmish_v0; masks for the casting orders; what the observation shows of a caster; fights
without a caster unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from issoku.agents.registry import make_policy
from issoku.envs import breath_duel_v0, breath_skirmish_v0
from issoku.rules.kernel.dice import ScriptedDice


def names(env, mask) -> set[str]:
    return {env.ruleset.action_names[a] for a in np.flatnonzero(mask)}


def field(env, observation, name):
    return observation[env.ruleset.observation_spec.slice(name)]


@pytest.mark.rule("SP-017", "SP-035", "SP-G05", "SP-G13", "SP-036")
@pytest.mark.parametrize("ma", [False, True])
def test_sp_017_casting_orders_in_the_mask_and_the_observation(ma):
    env = breath_duel_v0.env(fighters=["onmyoji", "ronin"], ma=ma)
    env.reset(seed=0, options={"dice": ScriptedDice([6, 6] * 10)})
    observation = env.last()[0]
    assert {"cast:fire_talisman", "cast:thunder_seal", "cast:paper_shikigami"} <= names(env, observation["action_mask"])
    assert not {"activate", "channel", "abandon", "command"} & names(env, observation["action_mask"])
    assert field(env, observation["observation"], "sp_own_slots")[:2].tolist() == pytest.approx([4 / 5, 3 / 5])
    env.step(env.action_id("cast:thunder_seal"))
    observation = env.last()[0]
    mask = names(env, observation["action_mask"])
    assert "abandon" in mask and "activate" not in mask and "cast:fire_talisman" in mask    # SP-036: instant only
    assert not {"cast:thunder_seal", "cast:paper_shikigami"} & mask
    own = field(env, observation["observation"], "sp_own_spell")
    assert list(env.ruleset.modules[-1].content.spells)[int(np.argmax(own))] == "thunder_seal"
    env.step(env.action_id("end_breath"))
    seen = env.last()[0]["observation"]  # the ronin's view: the onmyoji (slot 1) is preparing, halfway
    assert field(env, seen, "sp_preparing").tolist()[:2] == [0.0, 1.0]
    assert field(env, seen, "sp_progress").tolist()[1] == pytest.approx(0.5)
    assert not field(env, seen, "sp_own_spell").any()  # not which spell (SP-G13)


@pytest.mark.rule("SP-037")
def test_sp_037_no_zone_move_while_preparing_in_the_skirmish():
    env = breath_skirmish_v0.env(sides=[["onmyoji", "kenshi"], ["ronin", "ashigaru"]])
    env.reset(seed=1)
    checked = 0
    for _ in range(400):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        mask = names(env, observation["action_mask"])
        agent = env.agent_selection
        data = next(v for k, v in env.game_state.ext.items() if k.startswith("spells:"))
        seat = env.possible_agents.index(agent)
        if data.casting[seat] is not None:
            assert not any(n.split(":")[0] in ("walk", "sprint", "breakthrough") for n in mask)
            checked += 1
        casts = sorted(n for n in mask if n.startswith("cast:paper_shield") or n.startswith("cast:thunder_seal"))
        env.step(env.action_id(casts[-1]) if casts else int(np.flatnonzero(observation["action_mask"])[-1]))
    assert checked > 0


def test_casters_play_every_env_with_the_scripted_caster():
    for env, policy in ((breath_duel_v0.env(fighters=["diviner", "kenshi"], ma=False), "spells_caster"),
                        (breath_duel_v0.env(fighters=["exorcist", "ronin"]), "ma_spells_caster"),
                        (breath_skirmish_v0.env(sides=[["barrier_priest", "kenshi"], ["onmyoji"]]), "spells_caster")):
        agent = make_policy(policy, seed=0, ruleset=env.ruleset)
        env.reset(seed=3)
        casts = 0
        for name in env.agent_iter(max_iter=3000):
            observation, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else agent(observation["observation"], observation["action_mask"])
            casts += action is not None and env.ruleset.action_names[action].startswith("cast:")
            env.step(action)
        assert casts > 0 and env.game_state.is_over()


def test_a_fight_without_casters_keeps_its_rules():
    """No spells module, no casters' data: the same action table and fingerprint as before spells."""
    env = breath_duel_v0.env(fighters=["kenshi", "ronin"])
    assert not any(n.startswith(("cast:", "activate", "command")) for n in env.ruleset.action_names)
    assert "spell_preparation" not in env.ruleset.catalog.stances
    assert len(env.ruleset.action_names) == 100


@pytest.mark.rule("SP-G13")
def test_sp_g13_in_the_skirmish_a_spell_reaches_the_casters_zone_only():
    from issoku.envs.breath_skirmish_v0 import make_ruleset
    from issoku.rules.breath.zones import ZonesModule

    ruleset = make_ruleset([["onmyoji"], ["ronin"]])
    state = ruleset.new_initial_state(0)
    zones = next(m for m in ruleset.modules if isinstance(m, ZonesModule))
    onmyoji, ronin = state.fighters
    if state.current_seat() != 0:
        state.apply(ruleset.codec.by_name("stand"))
    assert zones.zone_of(state, onmyoji) != zones.zone_of(state, ronin)
    legal = {ruleset.action_names[a] for a in state.legal_actions()}
    assert "cast:fire_talisman:enemy0" not in legal and "cast:paper_shield" in legal
    zones.place(state, ronin, zones.zone_of(state, onmyoji))
    state.invalidate_legal()
    assert "cast:fire_talisman:enemy0" in {ruleset.action_names[a] for a in state.legal_actions()}
