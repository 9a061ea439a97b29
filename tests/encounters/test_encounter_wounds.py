"""Wound thresholds, penalties, Downing and Killing (EN-041..060, EN-T04..T08, EN-T10)."""

import pytest

from issoku.rules.encounters import wounds as w


def _thresholds(earth, mook=False):
    return [rank.threshold for rank in w.thresholds(earth, mook)]


@pytest.mark.rule("EN-042", "EN-T04", "EN-044", "EN-045", "EN-046", "EN-047", "EN-048", "EN-049", "EN-050", "EN-051")
def test_en_t04_thresholds_at_earth_two():
    assert _thresholds(2) == [11, 15, 19, 23, 27, 31, 35, 39]


@pytest.mark.rule("EN-T05", "EN-T06")
def test_en_t05_t06_thresholds_at_earth_three_and_four():
    assert _thresholds(3) == [16, 22, 28, 34, 40, 46, 52, 58]
    assert _thresholds(4) == [21, 29, 37, 45, 53, 61, 69, 77]


@pytest.mark.rule("EN-T07", "EN-043", "EN-A06")
def test_en_t07_earth_two_with_25_wounds_is_injured():
    ranks = w.thresholds(2)
    assert w.rank(25, ranks).name == "injured" and w.penalty(w.rank(25, ranks)) == -15
    assert w.rank(26, ranks).name == "injured" and w.rank(27, ranks).name == "bloodied"
    assert w.rank(10, ranks).name == "healthy" and w.penalty(w.rank(10, ranks)) == 0
    assert w.penalty(w.rank(31, ranks)) == -40


@pytest.mark.rule("EN-T08", "EN-056", "EN-057", "EN-058", "EN-059", "EN-060", "EN-054", "EN-055")
def test_en_t08_mook_thresholds_and_the_down_then_the_kill():
    ranks = w.thresholds(2, mook=True)
    assert _thresholds(2, mook=True) == [9, 17, 25, 29]
    assert w.rank(10, ranks).name == "hurt"
    assert w.outcome(10, 25, ranks) == "downed" and w.rank(25, ranks).name == "out"
    assert w.outcome(25, 29, ranks) == "killed"


@pytest.mark.rule("EN-T10", "EN-055", "EN-054", "EN-052", "EN-053")
def test_en_t10_healthy_to_dead_in_one_action_is_a_kill_only():
    ranks = w.thresholds(2)
    assert w.outcome(0, 39, ranks) == "killed"
    assert w.outcome(0, 31, ranks) == "downed" and w.outcome(31, 33, ranks) is None
    assert w.outcome(0, 35, ranks) == "downed"
    assert w.can_act(w.rank(34, ranks)) and not w.can_act(w.rank(35, ranks)) and not w.can_act(w.rank(39, ranks))
