"""Dice: seeded, reproducible, clonable, with exact distributions beside the sampler."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from issoku.rules.kernel.dice import Dice, ScriptedDice, prob_at_least, prob_check, sum_pmf


def test_same_seed_same_rolls():
    assert Dice(42).roll(50) == Dice(42).roll(50)
    assert Dice(42).roll(50) != Dice(43).roll(50)


def test_generator_or_seed_accepted():
    assert Dice(np.random.default_rng(5)).roll(10) == Dice(5).roll(10)


@given(st.integers(0, 2**32 - 1), st.integers(0, 700))
def test_clone_rolls_what_the_original_would(seed, consumed):
    dice = Dice(seed)
    dice.roll(consumed)
    twin = dice.clone()
    assert twin.roll(600) == dice.roll(600)


@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from([2, 3, 6, 10, 12, 20]), max_size=600))
def test_clone_rolls_what_the_original_would_on_mixed_dice(seed, sizes):
    dice = Dice(seed)
    for sides in sizes:
        assert 1 <= dice.die(sides) <= sides
    twin = dice.clone()
    mixed = [20, 10, 6, 20, 3, 10] * 60
    assert [twin.die(sides) for sides in mixed] == [dice.die(sides) for sides in mixed]


@given(st.integers(0, 2**32 - 1), st.integers(0, 700), st.booleans())
def test_clones_of_clones_roll_alike_whoever_draws_first(seed, consumed, original_first):
    """A clone makes its generator when it first draws (from the state kept at cloning), so neither the
    original's draws nor another clone's move what it rolls."""
    dice = Dice(seed)
    dice.roll(consumed)
    twin = dice.clone()
    grandchild = twin.clone()
    expected = Dice(seed)
    expected.roll(consumed)
    rolls = expected.roll(900)
    if original_first:
        assert dice.roll(900) == rolls
    assert [twin.die(10) for _ in range(900)] == list(rolls)
    assert grandchild.roll(900) == rolls
    if not original_first:
        assert dice.roll(900) == rolls


def test_dice_on_a_given_generator_keep_drawing_from_it_after_a_clone():
    generator = np.random.default_rng(9)
    dice = Dice(generator)
    twin = dice.clone()
    before = generator.bit_generator.state
    dice.roll(2_000)
    assert generator.bit_generator.state != before  # the original draws from the caller's generator, as before
    assert twin.roll(600) == Dice(9).roll(600)


def _whole_block_rolls(seed, sizes):
    """What the dice promise: d10s from blocks of 512 and every other size from blocks of 256, each block
    drawn whole from the seed's generator when its first die is rolled."""
    rng = np.random.default_rng(seed)
    blocks: dict[int, list[int]] = {}
    rolled = []
    for sides in sizes:
        if not blocks.get(sides):
            blocks[sides] = rng.integers(1, sides + 1, size=512 if sides == 10 else 256).tolist()[::-1]
        rolled.append(blocks[sides].pop())
    return rolled


@given(st.integers(0, 2**32 - 1),
       st.lists(st.sampled_from([10, 10, 10, 10, 20, 6, 3]), max_size=1500), st.integers(0, 700))
def test_d10s_drawn_in_chunks_keep_the_whole_block_stream_among_other_dice(seed, sizes, d10s_first):
    dice = Dice(seed)
    first = list(dice.roll(d10s_first))
    assert first + [dice.die(sides) for sides in sizes] == _whole_block_rolls(seed, [10] * d10s_first + sizes)


def test_every_die_size_comes_from_the_seed():
    assert Dice(7).roll(300, 20) == Dice(7).roll(300, 20)
    assert sorted(set(Dice(7).roll(2_000, 6))) == [1, 2, 3, 4, 5, 6]


def test_d10_faces_cover_one_to_ten_uniformly():
    rolls = Dice(0).roll(20_000)
    counts = np.bincount(rolls, minlength=11)[1:]
    assert set(rolls) == set(range(1, 11))
    assert counts.min() > 1_800 and counts.max() < 2_200


def test_check_meets_target_number():
    result = ScriptedDice([4, 6]).check(modifier=2 - 1, target=11)
    assert result.total == 11 and result.success
    assert not ScriptedDice([4, 5]).check(modifier=1, target=11).success


def test_contest_winner_and_tie():
    assert ScriptedDice([5, 7, 6, 6]).contest(5, 3).winner == 0
    assert ScriptedDice([5, 5, 6, 6]).contest(3, 1).winner is None
    assert ScriptedDice([1, 1, 6, 6]).contest(3, 1).winner == 1


def test_exploding_roll_and_keep():
    dice, kept = ScriptedDice([10, 4, 3, 9]).roll_and_keep(3, 2)
    assert dice == (14, 9, 3) and kept == 23
    dice, kept = ScriptedDice([10, 4, 3]).roll_and_keep(3, 1, explode_on=None)
    assert dice == (10, 4, 3) and kept == 10


def test_exact_2d10_distribution():
    pmf = sum_pmf(2, 10)
    assert sum(pmf.values()) == 1
    assert pmf[11] == Fraction(10, 100) and pmf[2] == Fraction(1, 100) and pmf[20] == Fraction(1, 100)
    assert prob_at_least(11) == Fraction(55, 100)
    assert prob_check(modifier=2 - 1, target=11) == prob_at_least(10) == Fraction(64, 100)


def test_scripted_dice_runs_out_loudly():
    dice = ScriptedDice([3])
    dice.d10()
    try:
        dice.d10()
    except IndexError:
        return
    raise AssertionError("ScriptedDice should raise when its faces run out")


def test_scripted_dice_refuse_a_face_the_die_cannot_show():
    dice = ScriptedDice([15, 15])
    assert dice.roll(1, 20) == (15,)
    with pytest.raises(ValueError, match="d10"):
        dice.d10()
