"""Units a spell brings (seed 002 Principle 2, BR-032/040/041): a summoned shikigami has no Energy of its
own; its caster moves it with control actions paid from the caster's Energy, at most two a round in the
shared cap of 0-Energy [Kata] (BR-047/048)."""

from __future__ import annotations

import pytest

from tests.spells.helpers import caster_rules, events, legal_names, play, scripted, spell_data


def summoned():
    """The onmyoji summons a paper shikigami (3-dan, 2+2 preparation) while the ronin stands."""
    state = scripted(caster_rules("onmyoji", "ronin"), [5, 5] + [9, 9] + [5, 5] + [9, 9])
    play(state, "cast:paper_shikigami", "end_breath", "stand", "activate")
    return state


@pytest.mark.rule("BR-032", "BR-040", "BR-G18", "SP-G01")
def test_br_040_a_unit_acts_on_its_controllers_energy():
    state = summoned()
    summon = events(state, "unit_summoned")[0]
    assert (summon.rule, summon.data["unit_energy"]) == ("BR-032", 0)
    before = state.fighters[0].energy
    assert "command" in legal_names(state)
    play(state, "command")
    paid = events(state, "energy_spent")[-1]
    assert (paid.rule, paid.data["cost"], state.fighters[0].energy) == ("BR-032", 1, before - 1)
    strike = events(state, "unit_strike")[0]
    assert strike.rule == "BR-040" and strike.data["total"] == 9 + 9 + 2 and strike.data["hit"]
    assert state.fighters[1].wounds == state.fighters[1].sheet.max_wounds - 1


@pytest.mark.rule("BR-041", "BR-047", "BR-048")
def test_br_041_two_control_actions_a_round_however_many_units():
    state = summoned()
    play(state, "command")
    assert "command" not in legal_names(state)  # the one shikigami: once a round (BR-047)
    play(state, "cast:paper_shikigami", "end_breath", "activate", "command")
    assert len(spell_data(state).units[0]) == 2
    fighter = state.fighters[0]
    assert fighter.zero_energy_used == ["control:0", "control:1"] and fighter.energy >= 1
    assert not state.zero_energy_allowed(fighter, "any_other_kata")  # the shared cap of two (BR-048)
    assert "command" not in legal_names(state)
    assert events(state, "control_action")[-1].data["used_this_round"] == 2
