"""The five-rung ladder, shared by both duelists (MA-002..010, MA-022 starts, MA-051)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.guard import GuardTrack
from issoku.rules.ma.halfstep import contest_half_step, half_step_allowed, take_half_step
from issoku.rules.ma.ladder import CLOSER, OPENER, RUNG_NAMES, DuelKind, Ladder, Rung
from issoku.rules.ma.tsubazeriai import push_out, slip_away


@pytest.mark.rule("MA-002", "MA-003", "MA-004", "MA-005", "MA-006", "MA-007")
def test_ma_002_to_007_five_rungs_far_to_close_one_half_step_apart():
    assert [r.name for r in Rung] == ["FAR", "ISSOKU_ITTO", "NEAR", "CLOSE", "TSUBAZERIAI"]
    assert RUNG_NAMES == ("far", "issoku_itto", "near", "close", "tsubazeriai")
    ladder = Ladder(Rung.FAR)
    visited = [ladder.rung]
    while ladder.can_move(CLOSER):
        visited.append(ladder.move(CLOSER))
    assert visited == list(Rung)


@pytest.mark.rule("MA-008", "MA-009", "MA-G22")
def test_ma_008_009_starting_ma_by_duel_kind():
    """MA-T05: ikkiuchi starts at issoku itto, hatashiai at far range."""
    assert Ladder.start(DuelKind.IKKIUCHI).rung is Rung.ISSOKU_ITTO
    assert Ladder.start(DuelKind.HATASHIAI).rung is Rung.FAR


@pytest.mark.rule("MA-051")
def test_ma_051_narrow_path_removes_far_range_from_start_and_moves():
    """MA-T05: on a narrow path a hatashiai cannot start at far range; it starts at issoku itto."""
    ladder = Ladder.start(DuelKind.HATASHIAI, far_range_usable=False)
    assert ladder.rung is Rung.ISSOKU_ITTO
    assert not ladder.can_move(OPENER)
    assert ladder.move(OPENER) is Rung.ISSOKU_ITTO


@pytest.mark.rule("MA-002")
def test_ma_002_moves_clamp_at_both_ends():
    assert Ladder(Rung.TSUBAZERIAI).move(CLOSER) is Rung.TSUBAZERIAI
    assert Ladder(Rung.FAR).move(OPENER) is Rung.FAR
    assert Ladder(Rung.FAR).set(Rung.TSUBAZERIAI + 3) is Rung.TSUBAZERIAI


@pytest.mark.rule("MA-010")
def test_ma_010_one_half_step_moves_the_ma_of_both_duelists():
    """There is one ladder per duel: either duelist's half-step changes the distance between them."""
    ladder, log = Ladder(Rung.ISSOKU_ITTO), EventLog()
    guards = (GuardTrack(7, 2), GuardTrack(7, 2))
    take_half_step(ladder, 0, CLOSER, guards[0], log, round_no=1)
    take_half_step(ladder, 1, CLOSER, guards[1], log, round_no=1)
    assert ladder.rung is Rung.CLOSE
    take_half_step(ladder, 1, OPENER, guards[1], log, round_no=1)
    assert ladder.rung is Rung.NEAR
    assert [(e.actor, e.data["after"]) for e in log] == [(0, 2), (1, 3), (1, 2)]


@pytest.mark.rule("MA-002", "MA-010")
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    narrow=st.booleans(),
    start=st.sampled_from(list(DuelKind)),
    moves=st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["close", "open", "contest", "push", "slip"])),
                   max_size=40),
)
def test_ladder_never_leaves_its_five_rungs_and_is_shared(seed, narrow, start, moves):
    """Any mix of half-steps, contests, push-outs and slip-aways keeps one shared, usable rung."""
    dice, log = Dice(seed), EventLog(enabled=False)
    ladder = Ladder.start(start, far_range_usable=not narrow)
    guards = (GuardTrack(7, 2), GuardTrack(7, 2))
    seen_by = [ladder, ladder]  # both duelists read the same object: the engine holds exactly one
    for seat, move in moves:
        direction = OPENER if move == "open" else CLOSER
        if move in ("close", "open") and half_step_allowed(ladder, direction):
            take_half_step(ladder, seat, direction, guards[seat], log, 1)
        elif move == "contest" and half_step_allowed(ladder, direction):
            contest_half_step(dice, log, ladder, seat, direction, (3, 3), (5, 4), (False, False), guards, 1)
        elif move in ("push", "slip") and ladder.rung is Rung.TSUBAZERIAI:
            (push_out if move == "push" else slip_away)(dice, log, ladder, seat, (2, 2), guards, 1)
        assert ladder.farthest <= ladder.rung <= Rung.TSUBAZERIAI
        assert narrow is False or ladder.rung is not Rung.FAR
        assert seen_by[0].rung is seen_by[1].rung
        assert all(0 <= g.value <= g.maximum for g in guards)
