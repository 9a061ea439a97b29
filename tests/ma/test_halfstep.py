"""The half-step, its contest, and the step-in cut (MA-011..016, MA-044 initiative, MA-G01/G02/G05/G16)."""

import pytest

from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.ma.halfstep import (
    HALF_STEP_COST,
    RESIST_COST,
    can_resist,
    contest_half_step,
    distance_initiative,
    half_step_allowed,
    step_in_edge,
    take_half_step,
)
from issoku.rules.ma.ladder import CLOSER, OPENER, Ladder, Rung
from issoku.rules.ma.locations import LOCATION_COST, Injuries, Location

CANON_WALK = 2  # BR-067
F0, F1 = (("finesse", 0),), (("finesse", 1),)


@pytest.mark.rule("MA-011", "MA-044")
def test_ma_t01_half_step_costs_1_and_2_with_a_leg_wound(log):
    injuries = Injuries()
    assert HALF_STEP_COST + injuries.half_step_extra() == 1 < CANON_WALK
    injuries.take_hit(Location.LEG, ScriptedDice([]), log, 0, 2)
    assert HALF_STEP_COST + injuries.half_step_extra() == 2


@pytest.mark.rule("MA-011", "MA-039")
def test_ma_011_half_step_moves_one_rung_and_opening_to_far_severs(guards, log):
    ladder = Ladder(Rung.ISSOKU_ITTO)
    assert take_half_step(ladder, 0, OPENER, guards[0], log, round_no=1) is Rung.FAR
    assert [(e.rule, e.kind) for e in log] == [("MA-011", "half_step"), ("MA-039", "guard_recovery")]


@pytest.mark.rule("MA-G01")
def test_ma_g01_resisting_costs_1_and_is_impossible_at_0_energy():
    assert RESIST_COST == 1
    assert can_resist(1) and not can_resist(0)


@pytest.mark.rule("MA-012")
def test_ma_012_higher_energy_holds_distance_initiative():
    assert distance_initiative((9, 7), (False, False)) == 0
    assert distance_initiative((3, 7), (False, False)) == 1


@pytest.mark.rule("MA-044", "MA-G16")
def test_ma_044_leg_wound_loses_distance_initiative_whatever_the_energy():
    assert distance_initiative((9, 2), (True, False)) == 1
    assert distance_initiative((9, 2), (True, True)) == 0


@pytest.mark.rule("MA-013", "MA-D05", "MA-G23")
def test_ma_d05_resisting_side_wins_17_vs_18_and_holds_the_ma(guards, log):
    """Finesse 2 + Footwork 3 + dice 12 = 17 vs 1 + 2 + 15 = 18: the resister sets the ma (it stays)."""
    ladder = Ladder(Rung.ISSOKU_ITTO)
    outcome = contest_half_step(ScriptedDice([5, 7, 7, 8]), log, ladder, mover=0, direction=CLOSER,
                                modifiers=((('finesse', 2), ('footwork', 3)), (('finesse', 1), ('footwork', 2))), energy=(9, 8), leg_wounded=(False, False),
                                guards=guards, round_no=1)
    assert (outcome.moved, outcome.winner, outcome.rung) == (False, 1, Rung.ISSOKU_ITTO)
    event = log[0]
    assert (event.rule, event.kind, event.data["totals"], event.data["winner"]) == \
        ("MA-013", "half_step_contest", (17, 18), 1)
    assert event.data["parts"] == ((("finesse", 2), ("footwork", 3)), (("finesse", 1), ("footwork", 2)))


@pytest.mark.rule("MA-013", "MA-010", "MA-G23")
def test_ma_013_the_winning_mover_sets_the_ma(guards, log):
    ladder = Ladder(Rung.NEAR)
    outcome = contest_half_step(ScriptedDice([9, 9, 2, 2]), log, ladder, 1, OPENER, (F0, F0), (6, 8),
                                (False, False), guards, 1)
    assert (outcome.moved, outcome.winner, ladder.rung) == (True, 1, Rung.ISSOKU_ITTO)
    assert [(e.rule, e.kind) for e in log] == [("MA-013", "half_step_contest"), ("MA-013", "half_step")]


@pytest.mark.rule("MA-014")
def test_ma_014_tied_energy_is_settled_by_the_roll(guards, log):
    ladder = Ladder(Rung.ISSOKU_ITTO)
    outcome = contest_half_step(ScriptedDice([10, 10, 1, 1]), log, ladder, 0, CLOSER, (F0, F0), (6, 6),
                                (False, False), guards, 1)
    assert outcome.moved and log[0].rule == "MA-014"


@pytest.mark.rule("MA-G16", "MA-044")
def test_ma_g16_leg_wound_loses_an_energy_tie_without_a_roll(guards, log):
    ladder = Ladder(Rung.ISSOKU_ITTO)
    outcome = contest_half_step(ScriptedDice([]), log, ladder, 0, CLOSER, (9, 0), (6, 6), (True, False),
                                guards, 1)
    assert (outcome.moved, outcome.winner) == (False, 1)
    assert log[0].data == {"rolled": False, "winner": 1, "reason": "leg_wound"}


@pytest.mark.rule("MA-G02")
def test_ma_g02_a_tie_holds_the_ma_and_counts_for_no_streak(guards, log):
    ladder = Ladder(Rung.ISSOKU_ITTO)
    outcome = contest_half_step(ScriptedDice([5, 5, 5, 5]), log, ladder, 0, CLOSER, (F1, F1), (7, 5),
                                (False, False), guards, 1)
    assert (outcome.moved, outcome.winner, ladder.rung) == (False, None, Rung.ISSOKU_ITTO)
    assert guards[0].loss_streak == guards[1].loss_streak == 0
    assert log[1].rule == "MA-G02"


@pytest.mark.rule("MA-036", "MA-G11")
def test_ma_036_second_consecutive_lost_contest_shaves_guard(guards, log):
    ladder = Ladder(Rung.ISSOKU_ITTO)
    lose = [1, 1, 10, 10]
    for _ in range(2):
        contest_half_step(ScriptedDice(lose), log, ladder, 0, CLOSER, (F0, F0), (7, 5), (False, False), guards, 1)
    assert guards[0].value == guards[0].maximum - 1
    assert [e.rule for e in log if e.kind == "guard_loss"] == ["MA-036"]
    contest_half_step(ScriptedDice([10, 10, 1, 1]), log, ladder, 0, CLOSER, (F0, F0), (7, 5), (False, False),
                      guards, 1)
    assert guards[0].loss_streak == 0 and guards[1].loss_streak == 1


@pytest.mark.rule("MA-025", "MA-G04")
def test_plain_half_step_never_leaves_tsubazeriai():
    assert not half_step_allowed(Ladder(Rung.TSUBAZERIAI), OPENER)
    assert not half_step_allowed(Ladder(Rung.TSUBAZERIAI), CLOSER)
    assert half_step_allowed(Ladder(Rung.CLOSE), CLOSER)


@pytest.mark.rule("MA-016", "MA-G05")
def test_ma_016_step_in_edge_only_from_issoku_itto_and_only_when_enabled():
    assert step_in_edge(Rung.ISSOKU_ITTO, enabled=True) == 1
    assert step_in_edge(Rung.FAR, enabled=True) == 0
    assert step_in_edge(Rung.ISSOKU_ITTO, enabled=False) == 0


@pytest.mark.rule("MA-016", "MA-041")
def test_ma_t02_step_in_cut_costs_within_one_breath():
    """Half-step 1 + uchigatana horizontal cut 2 = 3; + location 1 = 4; + reserved parry 1 = 5; + half-step = 6."""
    horizontal_cut, reserved_parry, breath_limit = 2, 1, 5  # BR-012's costs, BR-008's limit
    step_in = HALF_STEP_COST + horizontal_cut
    assert step_in == 3
    assert step_in + LOCATION_COST == 4
    assert step_in + LOCATION_COST + reserved_parry == 5 <= breath_limit
    assert step_in + LOCATION_COST + reserved_parry + HALF_STEP_COST == 6 > breath_limit
