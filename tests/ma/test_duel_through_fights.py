"""Readings, gaps and derived cases of Ma and Blade that tests used to check on helpers only, here
driven through the breath engine with scripted dice."""

import pytest

from issoku.rules.breath.ruleset import FighterSpec
from issoku.rules.ma.config import MaDuelConfig
from issoku.rules.ma.ladder import DuelKind, Rung

from .test_duel_rules import KENSHI, RONIN, Duel
from .test_reach import MA_T03, X


@pytest.mark.rule("MA-A01", "MA-031", "MA-G03")
def test_ma_a01_wits_is_the_sheets_wits_in_the_guard_maximum():
    """Max guard = 5 + the higher of Finesse and Wits (智, the 'Wisdom' of 002): a Wits 4 kenshi has 9."""
    duel = Duel(fighters=(FighterSpec("kenshi", 0, wits=4), RONIN))
    assert [e.data["guard"] for e in duel.events("guard_max")] == [9, 7]


@pytest.mark.rule("MA-D05", "MA-013", "MA-G03", "MA-G23")
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


@pytest.mark.rule("MA-002", "MA-003", "MA-004", "MA-005", "MA-006", "MA-007", "MA-010")
def test_ma_003_to_007_a_duel_walks_the_five_rungs_one_half_step_at_a_time():
    duel = Duel(config=MaDuelConfig(kind=DuelKind.HATASHIAI))
    rungs = [duel.data.ladder.rung]
    for _ in range(4):
        duel.play("half_step:close", "yield")
        rungs.append(duel.data.ladder.rung)
    assert rungs == list(Rung) == [Rung.FAR, Rung.ISSOKU_ITTO, Rung.NEAR, Rung.CLOSE, Rung.TSUBAZERIAI]
    assert "half_step:close" not in duel.legal()


@pytest.mark.rule("MA-T03", "MA-017", "MA-018", "MA-019", "MA-020", "MA-021", "MA-022", "MA-A02", "MA-A03", "MA-A04")
@pytest.mark.parametrize("weapon", sorted(MA_T03))
@pytest.mark.parametrize("rung", list(Rung))
def test_ma_t03_each_weapon_at_each_rung_in_a_fight(weapon, rung):
    """At its ideal range a weapon attacks as normal, one rung off at −2, two or more not at all (the
    table of tests/ma/test_reach.py, played)."""
    duel = Duel(dice=[1, 2], fighters=(FighterSpec("kenshi", 0, weapon=weapon, armor="none"), RONIN))
    duel.data.ladder.set(rung)
    duel.state._legal_cache = None  # the test moved the ladder by hand, between two decisions
    attacks = [name for name in duel.legal() if name.startswith("attack:")]
    expected = MA_T03[weapon][rung]
    assert bool(attacks) is (expected is not X)
    if attacks:
        duel.play(attacks[0])
        modifiers = dict(duel.events("attack_check")[0].data["modifiers"])
        assert modifiers.get("ma_range", 0) == expected


@pytest.mark.rule("MA-D01", "MA-031", "MA-038")
def test_ma_d01_guard_8_for_finesse_3_wits_1_and_5_with_a_lull_gain_of_1_for_nothing():
    duel = Duel(dice=[9, 8], fighters=(KENSHI, FighterSpec("ronin", 1, finesse=0, wits=0)))
    assert [e.data["guard"] for e in duel.events("guard_max")] == [8, 5]
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")  # a 1-Wound hit: guard 5 → 4
    assert duel.data.guards[1].value == 4
    duel.play("stand", "stand")  # the lull: + max(Finesse, Wits) = 0 → the minimum +1
    assert duel.data.guards[1].value == 5


@pytest.mark.rule("MA-043", "MA-040", "MA-041")
def test_ma_043_an_arm_hit_is_minus_2_on_every_later_attack_of_the_wounded():
    duel = Duel(dice=[9, 8, 1, 2])
    duel.play("aim:attack_a:arm", "take_hit", "stand")  # any attack may name a location, for 1 more
    duel.play("attack:nodachi.cut")
    assert ("arm_wound", -2) in duel.events("attack_check")[-1].data["modifiers"]


@pytest.mark.rule("MA-036", "MA-G11", "MA-G02", "MA-012")
def test_ma_g11_two_lost_contests_in_a_row_shave_1_and_a_tie_counts_for_neither():
    """The kenshi closes three times, the ronin resists: lost, tied (ma unchanged), lost → guard −1."""
    lose, tie = [1, 1, 9, 9], [5, 5, 6, 5]  # 2 + 5 v 18 + 4; 10 + 5 v 11 + 4
    duel = Duel(dice=lose + tie + lose)
    for _ in range(3):
        duel.play("half_step:close", "resist")
    assert [e.data["winner"] for e in duel.events("half_step_contest")] == [1, None, 1]
    assert duel.events("contest_tie") and duel.data.ladder.rung is Rung.ISSOKU_ITTO
    assert [(e.actor, e.data["cause"], e.data["amount"]) for e in duel.events("guard_loss")] == \
        [(0, "half_step_streak", 1)]


@pytest.mark.rule("MA-029", "MA-026", "MA-G04", "MA-G08")
def test_ma_029_the_pushed_side_loses_1_guard_and_a_rung():
    duel = Duel(dice=[9, 9, 1, 1])
    duel.play("half_step:close", "yield", "half_step:close", "yield", "half_step:close", "yield", "end_breath", "stand")
    assert duel.data.ladder.rung is Rung.TSUBAZERIAI
    duel.play("push_out")  # 18 + Physique 2 v 2 + 3
    assert duel.events("energy_spent")[-1].data["cost"] == 2 and duel.data.ladder.rung is Rung.CLOSE
    assert [(e.actor, e.data["cause"], e.data["amount"]) for e in duel.events("guard_loss")] == [(1, "pushed", 1)]


@pytest.mark.rule("MA-G25", "MA-022")
@pytest.mark.parametrize("weapon, rung, expected", [
    ("zanbato", Rung.FAR, 0), ("zanbato", Rung.NEAR, -2), ("zanbato", Rung.CLOSE, X),
    ("ninjato", Rung.CLOSE, 0), ("ninjato", Rung.ISSOKU_ITTO, -2), ("ninjato", Rung.FAR, X),
    ("staff", Rung.NEAR, 0), ("staff", Rung.CLOSE, -2), ("staff", Rung.TSUBAZERIAI, X),
])
def test_ma_g25_weapons_the_table_does_not_name_in_a_fight(weapon, rung, expected):
    """Zanbato with the long swords, ninjato with the kodachi, staff with the uchigatana."""
    duel = Duel(dice=[1, 2], fighters=(FighterSpec("kenshi", 0, weapon=weapon, armor="none"), RONIN))
    duel.data.ladder.set(rung)
    duel.state._legal_cache = None  # the test moved the ladder by hand, between two decisions
    attacks = [name for name in duel.legal() if name.startswith("attack:")]
    assert bool(attacks) is (expected is not X)
    if attacks:
        duel.play(attacks[0])
        assert dict(duel.events("attack_check")[0].data["modifiers"]).get("ma_range", 0) == expected


@pytest.mark.rule("MA-G09", "MA-032")
def test_ma_g09_a_2_wound_hit_that_is_not_critical_shaves_1():
    duel = Duel(dice=[9, 8], fighters=(FighterSpec("ronin", 0, finesse=4), FighterSpec("kenshi", 1, armor="none")))
    duel.play("attack:nodachi.great_cut", "take_hit")
    assert duel.events("hit")[-1].data["wounds"] == 2
    assert [(e.actor, e.data["amount"]) for e in duel.events("guard_loss")] == [(1, 1)]


@pytest.mark.rule("MA-G18", "MA-043")
def test_ma_g18_the_same_location_twice_repeats_its_wounds_not_its_penalty():
    duel = Duel(dice=[9, 8, 9, 7])
    duel.play("aim:attack_a:arm", "take_hit", "end_breath", "stand", "aim:attack_a:arm", "take_hit")
    assert len(duel.events("hit")) == 2 and duel.state.fighters[1].wounds == 8 - 2
    assert duel.data.injuries[1].attack_modifiers(with_weapon=True) == [("arm_wound", -2)]


@pytest.mark.rule("MA-G16", "MA-044", "MA-G24")
def test_ma_g16_a_leg_wound_loses_the_tie_without_a_roll():
    """Two kenshi at 13 Energy: the leg-wounded mover never holds the initiative, so the resister wins
    the tie at once (no dice)."""
    duel = Duel(fighters=(KENSHI, FighterSpec("kenshi", 1, armor="none")))
    duel.data.injuries[0].leg = True  # set up: a leg cut taken earlier
    duel.play("half_step:close", "resist")
    contest = duel.events("half_step_contest")[0]
    assert (contest.rule, contest.data["rolled"], contest.data["winner"]) == ("MA-G16", False, 1)
    assert duel.data.ladder.rung is Rung.ISSOKU_ITTO


@pytest.mark.rule("MA-G28", "MA-037", "MA-038")
def test_ma_g28_a_guard_that_recovered_breaks_again():
    duel = Duel(dice=[7, 7, 8, 8])
    duel.data.guards[1].value = 2
    duel.play("attack:uchigatana.horizontal_cut", "take_hit", "stand", "stand")  # break; the lull: +2
    assert duel.data.guards[1].value == 2 and duel.state.round == 2
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")  # a Critical again: 2 → 0
    assert [e.data["open_through_round"] for e in duel.events("guard_break")] == [2, 3]
