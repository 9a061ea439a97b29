"""XkY pools (EN-G01..G04) on scripted faces."""

import pytest

from issoku.rules.encounters.dice import Pool, contest_winner, raised_tn, roll_pool, skill_pool, trait_pool
from issoku.rules.kernel.dice import Dice, ScriptedDice


@pytest.mark.rule("EN-G01")
def test_en_g01_roll_x_keep_y_highest_and_tens_explode():
    result = roll_pool(ScriptedDice([10, 4, 3, 9, 2]), Pool(4, 2, 1))
    assert result.dice == (14, 9, 3, 2) and result.total == 14 + 9 + 1
    chained = roll_pool(ScriptedDice([10, 10, 5]), Pool(1, 1))
    assert chained.total == 25


@pytest.mark.rule("EN-G01", "EN-040")
def test_en_040_a_pool_that_cannot_explode_keeps_its_tens():
    result = roll_pool(ScriptedDice([10, 4]), Pool(2, 1, explode=False))
    assert result.total == 10


@pytest.mark.rule("EN-G01")
def test_en_g01_keep_more_than_rolled_keeps_all_and_negative_pools_roll_nothing():
    assert roll_pool(ScriptedDice([3, 4]), Pool(2, 5)).total == 7
    assert roll_pool(ScriptedDice([]), Pool(-2, 0, 4)).total == 4


@pytest.mark.rule("EN-G01")
def test_en_g01_ten_dice_rule_is_a_toggle():
    assert Pool(14, 3).normalised() == Pool(10, 5)                 # 4 extra rolled -> 2 kept
    assert Pool(14, 9).normalised() == Pool(10, 10, 2)             # 9 + 2 = 11 kept -> 10 kept +2
    assert Pool(14, 3).normalised(ten_dice_rule=False) == Pool(14, 3)
    assert len(roll_pool(Dice(0), Pool(14, 3), ten_dice_rule=False).dice) == 14


@pytest.mark.rule("EN-G02", "EN-T01", "EN-002")
def test_en_t01_insight_two_reflexes_three_rolls_5k3():
    assert skill_pool(2, 3) == Pool(5, 3)
    assert trait_pool(3) == Pool(3, 3)


@pytest.mark.rule("EN-G03")
def test_en_g03_each_raise_adds_five_to_the_tn():
    assert raised_tn(20, 0) == 20 and raised_tn(20, 3) == 35


@pytest.mark.rule("EN-G04")
def test_en_g04_contest_tie_goes_to_the_defender():
    assert contest_winner(20, 19) == 0 and contest_winner(20, 20) == 1 and contest_winner(3, 9) == 1


def test_pools_add_and_print_like_the_text():
    assert str(Pool(6, 2) + Pool(2, 1, 6)) == "8k3+6"
    assert not (Pool(1, 1) + Pool(1, 1, explode=False)).explode
