"""Tsubazeriai: push-out, slip-away, empty-hand moves, and the pushed side's guard (MA-025..029)."""

import pytest

from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.ma.ladder import Ladder, Rung
from issoku.rules.ma.tsubazeriai import (
    EMPTY_HAND_COST,
    PUSH_OUT_COST,
    SLIP_AWAY_COST,
    empty_hand_lands,
    push_out,
    slip_away,
)


@pytest.mark.rule("MA-026", "MA-029", "MA-033")
def test_ma_026_push_out_opens_one_rung_and_the_pushed_side_loses_guard(guards, log):
    ladder = Ladder(Rung.TSUBAZERIAI)
    outcome = push_out(ScriptedDice([6, 6, 4, 5]), log, ladder, actor=0, physique=(2, 3), guards=guards, round_no=1)
    assert (outcome.winner, outcome.rung, outcome.counterattack) == (0, Rung.CLOSE, False)
    assert guards[1].value == guards[1].maximum - 1 and guards[0].value == guards[0].maximum
    assert [(e.rule, e.kind, e.actor) for e in log] == [("MA-026", "push_out", 0), ("MA-033", "guard_loss", 1)]
    assert log[0].data["totals"] == (14, 12)


@pytest.mark.rule("MA-026", "MA-G08")
def test_losing_your_own_push_out_leaves_the_lock_and_costs_you_guard(guards, log):
    ladder = Ladder(Rung.TSUBAZERIAI)
    outcome = push_out(ScriptedDice([1, 1, 9, 9]), log, ladder, 0, (2, 2), guards, 1)
    assert (outcome.winner, ladder.rung) == (1, Rung.TSUBAZERIAI)
    assert guards[0].value == guards[0].maximum - 1


@pytest.mark.rule("MA-027", "MA-G06")
def test_ma_027_slip_away_returns_to_issoku_itto_with_a_counterattack(guards, log):
    ladder = Ladder(Rung.TSUBAZERIAI)
    outcome = slip_away(ScriptedDice([8, 8, 8, 7]), log, ladder, 1, (3, 3), guards, 1)
    assert (outcome.winner, outcome.rung, outcome.counterattack) == (1, Rung.ISSOKU_ITTO, True)
    assert guards[0].value == guards[0].maximum - 1


@pytest.mark.rule("MA-G02")
def test_tied_tsubazeriai_contest_changes_nothing(guards, log):
    ladder = Ladder(Rung.TSUBAZERIAI)
    outcome = slip_away(ScriptedDice([4, 4, 4, 4]), log, ladder, 1, (3, 3), guards, 1)
    assert (outcome.winner, outcome.rung, outcome.counterattack) == (None, Rung.TSUBAZERIAI, False)
    assert all(g.value == g.maximum for g in guards)


@pytest.mark.rule("MA-025")
def test_ma_025_break_contests_need_tsubazeriai(guards, log):
    with pytest.raises(ValueError, match="needs tsubazeriai"):
        push_out(ScriptedDice([1, 1, 1, 1]), log, Ladder(Rung.CLOSE), 0, (2, 2), guards, 1)


@pytest.mark.rule("MA-028", "MA-033", "MA-G07", "MA-G08")
def test_ma_028_empty_hand_move_no_wounds_guard_minus_2(guards, log):
    assert empty_hand_lands("headbutt", guards[1], log, actor=0, round_no=1) is False
    assert guards[1].value == guards[1].maximum - 2
    assert [(e.rule, e.kind, e.actor) for e in log] == [("MA-028", "empty_hand", 0), ("MA-033", "guard_loss", 1)]
    with pytest.raises(ValueError):
        empty_hand_lands("kick", guards[1], log, 0, 1)


@pytest.mark.rule("MA-G04")
def test_ma_g04_costs():
    assert (PUSH_OUT_COST, SLIP_AWAY_COST, EMPTY_HAND_COST) == (2, 2, 1)
