"""The kernel's chance API: every face through DrawDice.draw, counted and enumerated exactly."""

from fractions import Fraction

import pytest

from issoku.envs import breath_duel_v0
from issoku.rules.kernel.chance import CountingDice, PrefixDice, NeedFace, enumerate_chance
from issoku.rules.kernel.dice import Dice, ScriptedDice, prob_check


def test_counting_dice_count_the_2d10_the_seeded_dice_serve_from_their_block():
    counting = CountingDice(3)
    faces = counting.roll(2) + (counting.d10(),) + counting.check(0, 10).dice + counting.roll(2, sides=6)
    assert counting.drawn == 7
    seeded = Dice(3)
    assert faces == seeded.roll(2) + (seeded.d10(),) + seeded.check(0, 10).dice + seeded.roll(2, sides=6)


def test_a_clone_of_counting_dice_draws_and_counts_on_from_the_same_point():
    counting = CountingDice(5)
    counting.roll(3)
    copy = counting.clone()
    assert copy.roll(4) == counting.roll(4) and copy.drawn == counting.drawn == 7


def test_prefix_dice_ask_for_the_die_they_lack():
    dice = PrefixDice([4])
    assert dice.d10() == 4
    with pytest.raises(NeedFace) as need:
        dice.die(6)
    assert need.value.sides == 6


def test_enumeration_of_a_check_gives_its_exact_probability():
    outcomes = enumerate_chance(lambda dice: dice.check(3, 15).success, max_dice=2)
    assert len(outcomes) == 100
    assert sum(p for p, success in outcomes if success) == prob_check(3, 15)


def test_enumeration_mixes_die_sizes_and_stops_past_its_limit():
    outcomes = enumerate_chance(lambda dice: dice.die(6) + dice.d10(), max_dice=2)
    assert len(outcomes) == 60 and sum(p for p, _ in outcomes) == 1
    assert sum(p * total for p, total in outcomes) == Fraction(9)
    assert enumerate_chance(lambda dice: dice.roll(3), max_dice=2) is None


def test_scripted_dice_serve_2d10_face_by_face():
    dice = ScriptedDice([3, 9, 10])
    assert dice.roll(2) == (3, 9) and dice.d10() == 10
    with pytest.raises(IndexError):
        dice.d10()


def test_a_fight_counts_every_die_it_rolls_through_set_dice():
    state = breath_duel_v0.env().unwrapped.ruleset.new_initial_state(11)
    counting = CountingDice(11)
    state.set_dice(counting)
    while not state.is_terminal() and counting.drawn < 40:
        state.apply(state.legal_actions()[-1])
    rolled = sum(len(event.data.get("dice", ())) for event in state.events if isinstance(event.data.get("dice"), tuple))
    assert counting.drawn > 0 and counting.drawn >= rolled
