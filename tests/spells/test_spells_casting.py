"""Casting in the fight (seed 004 §3–§4): structures, the check at activation, failure, interruption,
Karmic Retribution, forced dispersed spells and exhaustion; worked examples SP-T*/SP-D* exact.

The onmyoji (Finesse 2: Energy 12, Wits 3, Sorcery 3, Hardiness 1, Physique 2) is seat 0 and acts first
against the ronin (Energy 12, same Finesse: the allies' side breaks the tie, BR-A07)."""

from __future__ import annotations

import pytest

from issoku.rules.breath.ruleset import FighterSpec
from issoku.rules.ma.ladder import DuelKind
from issoku.rules.spells.casting import CASTING_TN, is_forced, structure_rule
from issoku.rules.spells.content import default_spell_content
from tests.spells.helpers import (HIGH_SORCERER, caster_rules, content_with, events, legal_names, play, scripted,
                                  spell_data)


@pytest.mark.rule("SP-029", "SP-T02")
def test_sp_018_one_dan_spell_is_instant_and_checks_at_once():
    state = scripted(caster_rules("onmyoji", "ronin"), [4, 2])
    play(state, "cast:fire_talisman")
    paid = events(state, "energy_spent")[-1]
    assert (paid.rule, paid.data["cost"], paid.data["after"]) == ("SP-018", 2, 10)
    check = events(state, "casting_check")[0]
    assert (check.data["dice"], check.data["total"], check.data["target"], check.data["tn_rule"]) == ((4, 2), 12, 8,
                                                                                                      "SP-029")
    hit = events(state, "spell_hit")[0]
    assert (hit.data["target"], hit.data["wounds"], state.fighters[1].wounds) == (1, 1, state.fighters[1].sheet.max_wounds - 1)


@pytest.mark.rule("SP-019", "SP-035", "SP-044", "SP-T06", "SP-G05", "SP-017", "SP-030")
def test_sp_t06_three_dan_preparation_spell_in_two_breaths_has_no_exhaustion():
    state = scripted(caster_rules("onmyoji", "ronin"), [5, 5])
    play(state, "cast:thunder_seal")
    assert state.fighters[0].stance.key == "spell_preparation"
    assert not events(state, "casting_check")  # SP-035: preparation spends Energy only
    assert "activate" not in legal_names(state)  # SP-G05: the next stage keeps the beat (a later breath)
    play(state, "end_breath", "stand", "activate")
    assert events(state, "energy_spent")[-1].rule == "SP-019"
    check = events(state, "casting_check")[0]
    assert (check.data["target"], check.data["success"]) == (10, True)
    assert state.fighters[0].stance is None
    play(state, "stand")  # the lull
    assert state.round == 2 and state.fighters[0].energy == state.fighters[0].sheet.max_energy
    assert not events(state, "exhaustion")


@pytest.mark.rule("SP-G05")
def test_sp_g05_preparation_carries_over_the_lull():
    state = scripted(caster_rules("onmyoji", "ronin"), [5, 5])
    play(state, "cast:thunder_seal", "stand", "stand")
    assert state.round == 2 and state.fighters[0].stance.key == "spell_preparation"
    play(state, "activate")
    assert events(state, "spell_activated")


@pytest.mark.rule("SP-D01", "SP-028", "SP-046", "SP-T08")
def test_sp_d01_three_dan_check_wisdom_2_skill_3():
    """The exorcist has Wits (Wisdom) 2 and Exorcism 3: dice summing 5 reach TN 10; 4 fails, the slot goes."""
    for faces, success in (([2, 3], True), ([1, 3], False)):
        state = scripted(caster_rules("exorcist", "ronin"), faces)
        play(state, "cast:holy_flame", "end_breath")
        state_energy = state.fighters[0].energy
        play(state, "stand", "activate")
        check = events(state, "casting_check")[0]
        assert (check.data["total"], check.data["success"]) == (10 if success else 9, success)
        assert spell_data(state).slots[0][("exorcism", 3)] == 3 - 1  # consumed either way
        if not success:
            failed = events(state, "casting_failed")[0]
            assert (failed.rule, failed.data["energy_lost"]) == ("SP-046", 4)
            assert state.fighters[0].energy == state_energy - 2
            assert state.fighters[1].wounds == state.fighters[1].sheet.max_wounds


@pytest.mark.rule("SP-D02", "SP-048", "SP-049", "SP-A03")
def test_sp_d02_double_ones_backlash_only_on_a_failure():
    state = scripted(caster_rules("onmyoji", "ronin"), [1, 1])
    play(state, "cast:fire_talisman")  # 1-dan TN 8: 1 + 1 + Wisdom 3 + Sorcery 3 = 8, a success (SP-A03)
    assert events(state, "spell_activated") and not events(state, "karmic_retribution")
    state = scripted(caster_rules("onmyoji", "ronin"), [1, 1])
    play(state, "cast:thunder_seal", "end_breath", "stand", "activate")  # 3-dan TN 10: 8 fails
    backlash = events(state, "karmic_retribution")[0]
    assert (backlash.rule, backlash.data["wounds"], backlash.data["partial_effect"]) == ("SP-048", 3, 0)
    assert state.fighters[0].wounds == state.fighters[0].sheet.max_wounds - 3
    assert events(state, "gm_side_effect")[0].rule == "SP-049"


@pytest.mark.rule("SP-G08", "SP-020", "SP-031")
def test_sp_g08_backlash_turns_half_an_attack_spell_on_the_caster(tmp_path):
    rules = caster_rules("onmyoji", "ronin", content=content_with(tmp_path, HIGH_SORCERER))
    state = scripted(rules, [1, 1])
    play(state, "cast:fox_fire", "end_breath", "stand", "activate")
    assert events(state, "energy_spent")[-1].rule == "SP-020"
    assert events(state, "casting_check")[0].data["target"] == 12
    backlash = events(state, "karmic_retribution")[0]
    assert backlash.data["partial_effect"] == 1  # fox fire removes 2: half, rounded down
    assert state.fighters[0].wounds == state.fighters[0].sheet.max_wounds - 4


@pytest.mark.rule("SP-T05", "SP-022", "SP-041", "SP-042", "SP-043", "SP-045", "SP-A04", "SP-A05", "SP-033")
def test_sp_t05_forced_five_plus_five_dispersed_in_one_breath(tmp_path):
    """10 Energy in one breath: overload check 2d10 + Physique − 5 ≥ 11 and automatic exhaustion; the next
    round at Energy 1, no stance or reservation, Defenseless; the round after, full Energy."""
    rules = caster_rules("onmyoji", "ronin", content=content_with(tmp_path, HIGH_SORCERER))
    state = scripted(rules, [9, 8, 6, 6])
    play(state, "cast:great_exorcism", "activate")
    overload = events(state, "overload_check")[0]
    assert (overload.data["spent"], overload.data["excess"], overload.data["physique"]) == (10, 5, 2)
    assert overload.data["total"] == 9 + 8 + 2 - 5 and overload.data["success"]
    assert events(state, "casting_check")[0].data["target"] == 16
    assert events(state, "exhaustion")[0].rule == "SP-041"
    play(state, "stand", "stand")
    onmyoji = state.fighters[0]
    assert state.round == 2 and onmyoji.energy == 1 and onmyoji.defenseless and onmyoji.stance is None
    assert [e.rule for e in state.events if e.kind in ("exhausted_round", "defenseless")][-2:] == ["SP-042", "SP-043"]
    while state.round == 2:
        play(state, "stand")
    assert onmyoji.energy == onmyoji.sheet.max_energy and not onmyoji.defenseless


@pytest.mark.rule("SP-G07", "SP-A02")
def test_sp_g07_overload_while_casting_uses_the_current_limit(tmp_path):
    """Swift-decision armor raises the limit to 6: the forced 5+5 overloads by 4, not 5."""
    rules = caster_rules(FighterSpec("onmyoji", 0, armor="swift_decision"), "ronin",
                         content=content_with(tmp_path, HIGH_SORCERER))
    state = scripted(rules, [9, 8, 6, 6])
    play(state, "cast:great_exorcism", "activate")
    assert events(state, "overload_check")[0].data["excess"] == 4


@pytest.mark.rule("SP-021", "SP-032")
def test_sp_021_seven_dan_dispersed_over_two_rounds_is_not_forced(tmp_path):
    rules = caster_rules("onmyoji", "ronin", content=content_with(tmp_path, HIGH_SORCERER))
    state = scripted(rules, [7, 7])
    play(state, "cast:heavenly_fire", "stand", "stand")
    assert state.round == 2
    play(state, "activate")
    assert events(state, "energy_spent")[-1].rule == "SP-021"
    assert events(state, "casting_check")[0].data["target"] == 14
    assert not events(state, "exhaustion")


@pytest.mark.rule("SP-025", "SP-T04")
def test_sp_025_great_spell_four_dispersed_stages(tmp_path):
    rules = caster_rules("onmyoji", "ronin", content=content_with(tmp_path, HIGH_SORCERER))
    state = scripted(rules, [9, 9])
    play(state, "cast:star_fall", "stand", "stand", "channel", "stand", "stand", "channel", "stand", "stand", "activate")
    assert [e.data["cost"] for e in events(state, "energy_spent") if e.actor == 0] == [4, 3, 2, 1]
    assert {e.rule for e in events(state, "energy_spent") if e.actor == 0} == {"SP-025"}
    assert not events(state, "exhaustion") and events(state, "spell_activated")


@pytest.mark.rule("SP-026", "SP-T04", "SP-041")
def test_sp_026_mixed_spell_completed_in_one_round_is_forced():
    state = scripted(caster_rules("diviner", "ronin"), [8, 8])
    play(state, "cast:ill_omen", "end_breath", "stand", "channel", "activate")  # 2 (prep) ... 2 (prep) + 3 (dispersed)
    assert {e.rule for e in events(state, "energy_spent") if e.actor == 0} == {"SP-026"}
    assert events(state, "exhaustion")


@pytest.mark.rule("SP-024", "SP-027")
def test_sp_024_instant_dispel_at_three_dan():
    state = scripted(caster_rules("diviner", "onmyoji"), [6, 6])
    play(state, "cast:counter_charm")
    assert events(state, "energy_spent")[-1].data["cost"] == 3 and events(state, "energy_spent")[-1].rule == "SP-024"
    assert events(state, "casting_check")[0].data["target"] == 10


@pytest.mark.rule("SP-036", "SP-G06")
def test_sp_036_preparation_holds_the_stance_slot():
    state = scripted(caster_rules("onmyoji", "ronin"), [])
    play(state, "stance:middle_guard", "cast:thunder_seal")
    assert events(state, "stance_replaced_by_preparation")[0].data["stance"] == "middle_guard"
    legal = legal_names(state)
    assert "stance:middle_guard" not in legal and "release_stance" not in legal and "abandon" in legal
    play(state, "abandon")
    interrupted = events(state, "casting_interrupted")[0]
    assert (interrupted.rule, interrupted.data["energy_lost"]) == ("SP-G06", 2)
    assert spell_data(state).slots[0][("sorcery", 3)] == 2  # 3-dan PC + onmyoji class: 3, one consumed


@pytest.mark.rule("SP-036", "SP-038", "SP-018", "SP-G04")
def test_sp_036_a_preparing_caster_may_cast_an_instant_spell_but_not_a_second_preparation():
    """The onmyoji prepares thunder_seal (3-dan, 2+2) and, in the same breath, casts fire_talisman (1-dan,
    instant): the text forbids a second [stance] while preparing, and an instant spell holds none
    (docs/rules/spells.md, SP-036). The preparation runs on; a second multi-stage spell is not offered."""
    state = scripted(caster_rules("onmyoji", "ronin"), [4, 2, 5, 5])
    play(state, "cast:thunder_seal")
    legal = legal_names(state)
    assert "cast:fire_talisman" in legal and "cast:paper_shikigami" not in legal
    play(state, "cast:fire_talisman")
    assert events(state, "spell_hit")[0].data["wounds"] == 1 and state.fighters[0].energy == 8
    assert state.fighters[0].stance.key == "spell_preparation" and spell_data(state).casting[0] is not None
    slots = spell_data(state).slots[0]
    assert (slots[("sorcery", 1)], slots[("sorcery", 3)]) == (3, 2)   # one slot of each dan used (SP-G04)
    play(state, "end_breath", "stand", "activate")
    assert [e.data["spell"] for e in events(state, "spell_activated")] == ["fire_talisman", "thunder_seal"]


@pytest.mark.rule("SP-037", "SP-G10")
def test_sp_g10_no_half_steps_while_preparing_under_ma():
    state = scripted(caster_rules("onmyoji", "ronin", ma=True, kind=DuelKind.HATASHIAI), [])
    assert "half_step:close" in legal_names(state)
    play(state, "cast:thunder_seal")
    assert not {"half_step:close", "half_step:open"} & legal_names(state)
    play(state, "end_breath", "half_step:close")  # the ronin steps in: the caster may only yield
    assert state.decision_kind() == "resist" and legal_names(state) == {"yield"}


@pytest.mark.rule("SP-038")
def test_sp_038_the_blade_while_preparing():
    state = scripted(caster_rules("onmyoji", "ronin"), [1, 2, 5, 5])
    play(state, "cast:thunder_seal")
    assert "attack:tanto.thrust" in legal_names(state)
    play(state, "attack:tanto.thrust")  # misses (1 + 2 + 2 + 1 < 10)
    assert state.fighters[0].stance.key == "spell_preparation" and spell_data(state).casting[0] is not None


@pytest.mark.rule("SP-039", "SP-047", "SP-G01")
def test_sp_039_a_dispel_removes_the_preparation_stance():
    state = scripted(caster_rules("onmyoji", "diviner"), [5, 5, 5, 5])  # the diviner (Energy 13) acts first
    play(state, "cast:foresight", "end_breath", "cast:thunder_seal", "end_breath", "cast:read_the_flow")
    interrupted = events(state, "casting_interrupted")[0]
    assert (interrupted.rule, interrupted.data["why"], interrupted.data["energy_lost"]) == ("SP-039", "dispelled", 2)
    assert state.fighters[0].stance is None and events(state, "interruption_failure")


@pytest.mark.rule("SP-039")
def test_sp_039_defenseless_from_a_failed_overload_interrupts():
    # cast 2 + thrust 1 + thrust 1 + thrust 1 = 5, then a fourth thrust: 6 > 5, overload 1+1+2−1 < 11
    state = scripted(caster_rules("onmyoji", "ronin"), [1, 1, 1, 2, 1, 3, 1, 4, 1, 1])
    play(state, "cast:thunder_seal", "attack:tanto.thrust", "attack:tanto.thrust", "attack:tanto.thrust",
         "attack:tanto.thrust")
    assert events(state, "overload_failure")
    assert events(state, "casting_interrupted")[0].data["why"] == "defenseless"


@pytest.mark.rule("SP-D03", "SP-040", "SP-047", "SP-G09", "SP-T08")
def test_sp_d03_focus_resistance_after_a_critical():
    """A Critical (2 Wounds) on the preparing onmyoji: 2d10 + Physique 2 + Hardiness 1 ≥ 12, dice ≥ 9."""
    for focus, kept in (([5, 4], True), ([4, 4], False)):
        state = scripted(caster_rules("onmyoji", "ronin"), [5, 5, *focus])
        play(state, "cast:thunder_seal", "end_breath", "attack:nodachi.cut")
        if state.decision_kind() == "defend":
            play(state, "take_hit")
        check = events(state, "focus_resistance")[0]
        assert (check.data["target"], check.data["success"]) == (12, kept)
        assert (spell_data(state).casting[0] is not None) == kept
        if not kept:
            assert events(state, "casting_interrupted")[0].rule == "SP-047"


@pytest.mark.rule("SP-G04")
def test_sp_g04_a_spell_takes_a_slot_of_its_own_dan():
    state = scripted(caster_rules("onmyoji", "ronin"), [6] * 40)
    spell_data(state).slots[0][("sorcery", 1)] = 0
    state.invalidate_legal()
    legal = legal_names(state)
    assert "cast:fire_talisman" not in legal and "cast:thunder_seal" in legal


@pytest.mark.rule("SP-016", "SP-D04")
def test_sp_d04_two_lists_two_slot_pools_one_energy():
    state = scripted(caster_rules("diviner", "ronin"), [6, 6, 6, 6])
    play(state, "cast:curse", "cast:fire_talisman")
    assert state.fighters[0].spent == 4
    slots = spell_data(state).slots[0]
    assert (slots[("prophecy", 1)], slots[("sorcery", 1)]) == (2, 2)


@pytest.mark.rule("SP-G13", "SP-G01")
def test_sp_g13_no_defense_technique_meets_an_attack_spell():
    state = scripted(caster_rules("onmyoji", "kenshi"), [5, 5])
    play(state, "stand", "cast:fire_talisman")  # the kenshi (Energy 13) stands; the spell hits at once
    assert state.decision_kind() == "breath" and events(state, "spell_hit")


@pytest.mark.rule("SP-G01")
def test_sp_g01_ward_and_buff_last_the_round():
    state = scripted(caster_rules("exorcist", "onmyoji"), [5, 5, 5, 5])
    play(state, "cast:sacred_rope", "cast:blessing")
    data = spell_data(state)
    assert (data.wards[0], data.buffs[0]) == (2, 1)
    while state.round == 1:
        play(state, "stand")
    assert (data.wards[0], data.buffs[0]) == (0, 0)


def test_sp_t02_t03_structure_totals_and_tns():
    """SP-T02 and SP-T03 on the shipped catalog's base spells and the TN table."""
    spells = default_spell_content().spells
    assert [spells[k].total_energy for k in ("fire_talisman", "thunder_seal", "fox_fire", "heavenly_fire",
                                             "great_exorcism")] == [2, 4, 6, 8, 10]
    assert [CASTING_TN[d] for d in (1, 3, 5, 7, 9, 10)] == [8, 10, 12, 14, 16, 18]
    assert spells["great_barrier"].notation == "3+3+3 (preparation)" and spells["great_barrier"].total_energy == 9
    assert spells["star_fall"].total_energy == 10 and spells["ill_omen"].total_energy == 7
    assert structure_rule(spells["great_barrier"]) == "SP-025"
    assert is_forced(spells["great_exorcism"], [1, 1]) and not is_forced(spells["fox_fire"], [1, 1])


test_sp_t02_t03_structure_totals_and_tns = pytest.mark.rule("SP-T02", "SP-T03", "SP-034", "SP-023")(
    test_sp_t02_t03_structure_totals_and_tns)


@pytest.mark.rule("SP-063", "BR-045")
def test_sp_063_school_perk_activation_energy_reduction():
    """Banishing's body names the Joseon shamanism perk: activation 2 − 1 = 1 for the exorcist, who holds it."""
    state = scripted(caster_rules("exorcist", "onmyoji"), [6, 6])
    play(state, "cast:banishing", "end_breath", "stand", "activate")
    paid = [e for e in events(state, "energy_spent") if e.actor == 0]
    assert [(e.rule, e.data["cost"]) for e in paid] == [("SP-019", 2), ("SP-063", 1)]
    assert paid[-1].data["modifiers"] == (("school_perk", -1),)


@pytest.mark.rule("SP-A01", "SP-047", "SP-G04")
def test_sp_a01_an_interrupted_slot_stays_consumed_for_the_fight():
    state = scripted(caster_rules("onmyoji", "ronin"), [])
    play(state, "cast:thunder_seal", "abandon")
    while state.round < 3:
        play(state, "stand")
    assert spell_data(state).slots[0][("sorcery", 3)] == 2  # no recovery short of an interlude
