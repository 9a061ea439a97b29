"""Readings, gaps and derived cases of Ma and Blade that tests used to check on helpers only, here
driven through the breath engine with scripted dice (issue 16)."""

import pytest

from issoku.rules.breath.ruleset import FighterSpec
from issoku.rules.ma.config import MaDuelConfig
from issoku.rules.ma.ladder import DuelKind, Rung

from .test_duel_rules import KENSHI, RONIN, Duel


@pytest.mark.rule("MA-A01", "MA-031", "MA-G03")
def test_ma_a01_wits_is_the_sheets_wits_in_the_guard_maximum():
    """Max guard = 5 + the higher of Finesse and Wits (智, the 'Wisdom' of 002): a Wits 4 kenshi has 9."""
    duel = Duel(fighters=(FighterSpec("kenshi", 0, wits=4), RONIN))
    assert [e.data["guard"] for e in duel.events("guard_max")] == [9, 7]


@pytest.mark.rule("MA-D05", "MA-013", "MA-G03")
def test_ma_d05_half_step_contest_17_against_18_the_resister_sets_the_ma():
    """Finesse 2 + Footwork 3 + dice 12 = 17 against 1 + 2 + 15 = 18: the resisting side wins."""
    duel = Duel(dice=[6, 6, 7, 8], fighters=(FighterSpec("shinobi", 0, finesse=2), FighterSpec("ronin", 1, finesse=1)))
    duel.play("half_step:close", "resist")
    contest = duel.events("half_step_contest")[0].data
    assert contest["parts"] == ((("finesse", 2), ("footwork", 3)), (("finesse", 1), ("footwork", 2)))
    assert (contest["winner"], duel.data.ladder.rung) == (1, Rung.ISSOKU_ITTO)


@pytest.mark.rule("MA-D02", "MA-035", "MA-037", "MA-A07", "MA-G12")
def test_ma_d02_a_critical_on_guard_2_breaks_it_and_the_next_hit_is_direct_2_and_critical():
    """Guard 2, a Critical is allowed → guard 0 → break; the next hit is [Direct 2] and a Critical without
    doubles (2 Wounds). The opening lasts to the end of the following round (MA-A07 by MA-G12)."""
    duel = Duel(dice=[7, 7, 9, 8], fighters=(KENSHI, FighterSpec("ronin", 1, armor="medium")))
    duel.data.guards[1].value = 2
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")  # doubles: a Critical
    assert duel.events("guard_break")[0].data["open_through_round"] == 2 and duel.data.guards[1].value == 0
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")  # 9 + 8: no doubles
    check = duel.events("attack_check")[-1].data
    assert (check["direct"], check["critical"]) == (2, True) and check["defense"] == 11  # medium 13 − 2
    assert duel.events("hit")[-1].data["wounds"] == 2 and duel.events("critical_window")


@pytest.mark.rule("MA-A07", "MA-G12")
def test_ma_a07_the_opening_is_over_after_the_following_round():
    duel = Duel(dice=[7, 7], fighters=(KENSHI, RONIN))
    duel.data.guards[1].value = 2
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")
    guard = duel.data.guards[1]
    assert guard.is_open(duel.state.round) and guard.is_open(duel.state.round + 1)
    assert not guard.is_open(duel.state.round + 2)


@pytest.mark.rule("MA-G10", "MA-034")
@pytest.mark.parametrize("faces, threatened", [([3, 2], True), ([2, 2], False)])
def test_ma_g10_a_location_attack_that_misses_by_2_or_less_threatens(faces, threatened):
    """The kenshi's aimed cut, 2d10 + Finesse 3 + Swordsmanship 3, against medium armor (Defense 13):
    11 misses by 2 (guard −1), 10 misses by 3 (nothing)."""
    duel = Duel(dice=faces, fighters=(KENSHI, FighterSpec("ronin", 1, armor="medium")))
    duel.play("aim:attack_a:arm")
    shaved = [e for e in duel.events("guard_loss") if e.data["cause"] == "threatened"]
    assert bool(shaved) is threatened and duel.events("miss")
