"""Terrain stages (MA-049..053, MA-G21) and sparring points (MA-048, MA-G14)."""

import pytest

from issoku.rules.kernel.dice import Dice, ScriptedDice
from issoku.rules.ma.ladder import DuelKind, Ladder, Rung
from issoku.rules.ma.sparring import SparringScore
from issoku.rules.ma.terrain import StageSetup, announce, setup_stage


@pytest.mark.rule("MA-050", "MA-G21", "MA-A06")
def test_ma_050_sandbar_hurts_only_the_initiator(content, log):
    setup = setup_stage(content.stage("sandbar"), None, ScriptedDice([]))
    assert setup.contest_bonus(seat=0, initiator=0, first_contest=False) == -1
    assert setup.contest_bonus(seat=1, initiator=0, first_contest=False) == 0
    assert setup.side is None


@pytest.mark.rule("MA-051")
def test_ma_051_narrow_path_start(content, log):
    setup = setup_stage(content.stage("narrow_path"), None, ScriptedDice([]))
    assert not setup.far_range_usable
    assert Ladder.start(DuelKind.HATASHIAI, setup.far_range_usable).rung is Rung.ISSOKU_ITTO


@pytest.mark.rule("MA-052")
def test_ma_t06_high_ground_plus_1_on_the_first_contest_only(content, log):
    setup = setup_stage(content.stage("high_ground"), 1, ScriptedDice([]))
    assert setup.contest_bonus(seat=1, initiator=0, first_contest=True) == 1
    assert setup.contest_bonus(seat=1, initiator=0, first_contest=False) == 0
    assert setup.contest_bonus(seat=0, initiator=0, first_contest=True) == 0


@pytest.mark.rule("MA-053", "MA-G21")
def test_ma_053_backlight_side_drawn_from_the_seed_takes_minus_1_on_every_check(content, log):
    setup = setup_stage(content.stage("backlight"), None, ScriptedDice([7]))
    assert setup.side == 1
    assert (setup.check_modifier(0), setup.check_modifier(1)) == (0, -1)
    sides = {setup_stage(content.stage("backlight"), None, Dice(seed)).side for seed in range(20)}
    assert sides == {0, 1}
    announce(setup, log)
    announce(StageSetup(), log)
    assert len(log) == 1 and log[0].rule == "MA-053" and log[0].data == {"stage": "backlight"} and log[0].actor == 1


@pytest.mark.rule("MA-049")
def test_ma_049_a_bare_duel_has_no_terrain_effect():
    bare = StageSetup()
    assert bare.far_range_usable and bare.check_modifier(0) == 0
    assert bare.contest_bonus(0, 0, True) == 0


@pytest.mark.rule("MA-048", "MA-G14")
def test_ma_048_sparring_first_to_3_points_a_critical_counts_2(log):
    score = SparringScore()
    score.strike(0, critical=False, log=log)
    score.strike(1, critical=True, log=log)
    assert score.winner() is None
    score.strike(1, critical=False, log=log)
    assert score.points == [1, 3] and score.winner() == 1
    assert [(e.rule, e.data["points"]) for e in log] == [("MA-048", 1), ("MA-048", 2), ("MA-048", 1)]
