"""Reactive spells (SP-024's instant exception, SP-G13's second half): a caster who knows one may answer an
enemy's attack or dispel spell aimed at it, as an improvised reaction at 1.5× its Energy, out of its breath."""

from __future__ import annotations

from pathlib import Path

import pytest

from issoku.rules.kernel.content import DataError
from issoku.rules.spells.content import CASTERS_FILE, SCHOOLS_FILE, SPELLS_FILE, load_spell_content
from tests.spells.helpers import caster_rules, content_with, events, legal_names, play, scripted, spell_data


def reactors(tmp_path: Path):
    """The shipped sheets, the onmyoji having studied counter_sign and the barrier priest mirror_ward."""
    text = CASTERS_FILE.read_text(encoding="utf-8")
    for last in ('"paper_shikigami"]', '"guardian_spirit"]'):
        assert text.count(last) == 1
    text = text.replace('"paper_shikigami"]', '"paper_shikigami"]\nstudied = ["counter_sign"]')
    text = text.replace('"guardian_spirit"]', '"guardian_spirit"]\nstudied = ["mirror_ward"]')
    return content_with(tmp_path, text)


def diviner_casts_at(tmp_path: Path, reactor: str, spell: str, faces: list[int]):
    """The diviner (seat 1, first to act) casts ``spell`` at ``reactor`` (seat 0)."""
    state = scripted(caster_rules(reactor, "diviner", content=reactors(tmp_path)), faces)
    assert state.current_seat() == 1
    play(state, f"cast:{spell}")
    return state


@pytest.mark.rule("SP-G13", "SP-024", "BR-020")
def test_sp_g13_a_reactive_dispel_stops_the_enemy_spell(tmp_path):
    state = diviner_casts_at(tmp_path, "onmyoji", "fire_talisman", [5, 5] + [9, 9] * 5)
    onmyoji = state.fighters[0]
    assert (state.current_seat(), state.decision_kind()) == (0, "spell_reaction")
    assert legal_names(state) == {"react:counter_sign", "no_reaction"}
    energy, slots = onmyoji.energy, spell_data(state).slots[0][("sorcery", 1)]
    play(state, "react:counter_sign")
    paid = events(state, "energy_spent")[-1]
    assert (paid.rule, paid.data["cost"], onmyoji.energy) == ("SP-G13", 3, energy - 3)  # 2 × 1.5, improvised
    assert onmyoji.spent == 0  # out of its breath
    assert spell_data(state).slots[0][("sorcery", 1)] == slots - 1
    assert events(state, "spell_countered")[0].data["spell"] == "fire_talisman"
    assert not events(state, "spell_hit") and onmyoji.wounds == onmyoji.sheet.max_wounds
    assert (state.current_seat(), state.decision_kind()) == (1, "breath")  # the diviner's breath goes on


@pytest.mark.rule("SP-G13")
def test_sp_g13_without_a_reaction_the_spell_lands(tmp_path):
    state = diviner_casts_at(tmp_path, "onmyoji", "fire_talisman", [5, 5] + [9, 9] * 5)
    play(state, "no_reaction")
    assert events(state, "spell_hit")[0].data["wounds"] == 1
    assert state.fighters[0].wounds == state.fighters[0].sheet.max_wounds - 1


@pytest.mark.rule("SP-G13", "SP-030")
def test_sp_g13_a_reactive_ward_takes_its_amount_off_the_attack(tmp_path):
    state = diviner_casts_at(tmp_path, "barrier_priest", "fire_talisman", [5, 5] + [9, 9] * 5)
    play(state, "react:mirror_ward")
    assert events(state, "energy_spent")[-1].data["cost"] == 6  # 4 × 1.5
    assert events(state, "spell_warded")[0].data["wounds_stopped"] == 1
    assert events(state, "spell_hit")[0].data["wounds"] == 0


@pytest.mark.rule("SP-G13", "SP-046", "SP-048")
def test_sp_g13_a_failed_reaction_lets_the_whole_spell_land(tmp_path):
    # mirror_ward is 3-dan (TN 10); the barrier priest's 2d10 + Wisdom 3 + Barrier 4 = 1 + 1 + 7 = 9
    state = diviner_casts_at(tmp_path, "barrier_priest", "fire_talisman", [5, 5, 1, 1] + [9, 9] * 5)
    play(state, "react:mirror_ward")
    failed = events(state, "casting_failed")[0]
    assert (failed.rule, failed.data["spell"]) == ("SP-046", "mirror_ward")
    assert events(state, "karmic_retribution")[0].data["spell"] == "mirror_ward"  # double 1s and a failure
    assert events(state, "spell_hit")[0].data["wounds"] == 1
    priest = state.fighters[0]
    assert priest.wounds == priest.sheet.max_wounds - 3 - 1


@pytest.mark.rule("SP-G13")
def test_sp_g13_a_ward_does_not_answer_a_dispel_and_reactive_spells_are_never_cast(tmp_path):
    state = diviner_casts_at(tmp_path, "barrier_priest", "binding_charm", [5, 5] + [9, 9] * 5)
    assert state.decision_kind() == "breath" and not events(state, "spell_reaction")
    names = state.ruleset.action_names
    assert "react:mirror_ward" in names and not [n for n in names if n.startswith("cast:mirror_ward")]


@pytest.mark.rule("SP-G13", "SP-024")
def test_sp_g13_a_reactive_spell_is_a_one_stage_ward_or_dispel(tmp_path):
    spells = tmp_path / "spells.toml"
    text = SPELLS_FILE.read_text(encoding="utf-8")
    spells.write_text(text.replace('effect = "dispel"\nreactive = true', 'effect = "attack"\nreactive = true'),
                      encoding="utf-8")
    with pytest.raises(DataError, match=r"\.reactive.*ward or a dispel"):
        load_spell_content(spells, SCHOOLS_FILE)
