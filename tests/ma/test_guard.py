"""The guard track: maximum, the shaving table, the break and its window, recovery (MA-030..039)."""

import pytest

from issoku.rules.ma.guard import (
    CRITICAL_ALLOWED,
    EMPTY_HAND_LANDS,
    FEINT_LANDS,
    PUSHED,
    THREATENED,
    GuardTrack,
    hit_shave,
    lull_gain,
    max_guard,
)


@pytest.mark.rule("MA-030", "MA-031", "MA-D01")
def test_ma_d01_max_guard_is_5_plus_higher_of_finesse_and_wits():
    assert max_guard(3, 1) == 8
    assert max_guard(0, 0) == 5
    assert max_guard(1, 4) == 9
    assert max_guard(2, 1, sheet_bonus=2) == 9  # a Master's sheet modifier
    track = GuardTrack.for_duelist(3, 1)
    assert track.value == track.maximum == 8


@pytest.mark.rule("MA-032", "MA-033", "MA-034", "MA-035", "MA-G08", "MA-G09")
@pytest.mark.parametrize("row, rule, amount", [
    (FEINT_LANDS, "MA-032", 1), (PUSHED, "MA-033", 1), (EMPTY_HAND_LANDS, "MA-033", 2),
    (THREATENED, "MA-034", 1), (CRITICAL_ALLOWED, "MA-035", 2),
])
def test_shaving_table_rows(log, row, rule, amount):
    track = GuardTrack(7, 2)
    track.shave(row, log, 0, round_no=1)
    assert track.value == 7 - amount
    assert (log[0].rule, log[0].kind, log[0].data["amount"]) == (rule, "guard_loss", amount)


@pytest.mark.rule("MA-032", "MA-035", "MA-G09")
def test_ma_g09_hits_shave_1_and_criticals_2():
    assert hit_shave(0, False) == FEINT_LANDS and hit_shave(1, False) == FEINT_LANDS
    assert hit_shave(2, False)[2] == 1 and hit_shave(2, False)[0] == "MA-G09"
    assert hit_shave(2, True) == CRITICAL_ALLOWED


@pytest.mark.rule("MA-037", "MA-D02", "MA-G12")
def test_ma_d02_critical_at_guard_2_breaks_then_direct_2_and_one_window(log):
    track = GuardTrack(7, 2)
    track.value = 2
    assert track.shave(CRITICAL_ALLOWED, log, 1, round_no=3) is True
    assert track.value == 0 and track.is_open(3) and track.is_open(4) and not track.is_open(5)
    assert track.direct(4) == 2 and track.direct(5) == 0
    assert track.take_window(log, 1, round_no=4) is True
    assert track.take_window(log, 1, round_no=4) is False  # one window only
    assert [(e.rule, e.kind) for e in log] == [("MA-035", "guard_loss"), ("MA-037", "guard_break"),
                                               ("MA-037", "critical_window")]
    assert log[2].data == {"wounds": 2}


@pytest.mark.rule("MA-037", "MA-G12")
def test_guard_never_below_0_and_no_second_break_while_at_0(log):
    track = GuardTrack(5, 1)
    track.value = 1
    assert track.shave(EMPTY_HAND_LANDS, log, 0, 1) is True
    assert track.shave(FEINT_LANDS, log, 0, 1) is False and track.value == 0
    assert track.take_window(log, 0, round_no=3) is False  # the opening has passed


@pytest.mark.rule("MA-037", "MA-G28")
def test_ma_g28_a_recovered_guard_shaved_to_0_again_breaks_again(log):
    track = GuardTrack(5, 1)
    track.value = 1
    assert track.shave(FEINT_LANDS, log, 0, round_no=1) is True
    assert track.take_window(log, 0, round_no=1) is True
    track.lull(False, log, 0)
    assert track.value == 1 and not track.window
    assert track.shave(FEINT_LANDS, log, 0, round_no=2) is True
    assert track.window and track.open_through_round == 3
    assert [e.data["open_through_round"] for e in log if e.kind == "guard_break"] == [2, 3]


@pytest.mark.rule("MA-038", "MA-D01")
def test_ma_038_lull_recovery_is_higher_attribute_min_1_capped(log):
    assert lull_gain(0, 0) == 1 and lull_gain(2, 3) == 3
    track = GuardTrack.for_duelist(2, 1)
    track.value = 1
    assert track.lull(False, log, 0) == 2 and track.value == 3
    track.value = 6
    assert track.lull(False, log, 0) == 1 and track.value == 7


@pytest.mark.rule("MA-G13")
def test_ma_g13_no_lull_recovery_inside_tsubazeriai(log):
    track = GuardTrack.for_duelist(2, 1)
    track.value = 3
    assert track.lull(True, log, 0) == 0 and track.value == 3
    assert log[0].rule == "MA-G13"


@pytest.mark.rule("MA-039", "MA-G13")
def test_ma_039_severing_gives_1_once_a_round_and_never_above_max(log):
    track = GuardTrack(7, 2)
    track.value = 5
    assert track.sever(log, 0, round_no=1) == 1
    assert track.sever(log, 0, round_no=1) == 0
    assert track.sever(log, 0, round_no=2) == 1 and track.value == 7
    assert track.sever(log, 0, round_no=3) == 0 and track.value == 7


def test_clone_is_independent(log):
    track = GuardTrack(7, 2)
    twin = track.clone()
    twin.shave(PUSHED, log, 0, 1)
    assert (track.value, twin.value) == (7, 6)
