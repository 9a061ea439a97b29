"""A ladder's check on its own ratings: rungs rated on all their games with the references held, each adjacent
pair predicted from a fit without its games, intransitivity counted (pure functions over constructed games)."""

import numpy as np
import pytest

from issoku.evaluation.strength.ladder_check import held_out_checks, intransitivity, joint_ratings, warnings
from issoku.evaluation.stats.pairings import Games

REFERENCES = {"R0": 0.0, "R1": 200.0}
NAMES = ("R0", "R1", "X", "Y")


def games(*rows: tuple[str, str, int, int]) -> Games:
    """``(a, b, wins of a, games)`` rows as decisive games, ``a`` in the first seat of half of them."""
    first, second, score = [], [], []
    for a, b, wins, n in rows:
        for g in range(n):
            seat_a_first = g % 2 == 0
            first.append(NAMES.index(a if seat_a_first else b))
            second.append(NAMES.index(b if seat_a_first else a))
            won = 1.0 if g < wins else 0.0
            score.append(won if seat_a_first else 1.0 - won)
    return Games(NAMES, np.array(first), np.array(second), np.array(score))


# X plays like a +100 player and Y like a +200 one against both references (64/36 and 76/50 of 100 games).
AGAINST_REFERENCES = (("X", "R0", 64, 100), ("X", "R1", 36, 100), ("Y", "R0", 76, 100), ("Y", "R1", 50, 100))


def test_consistent_games_agree_and_show_no_intransitivity():
    played = games(*AGAINST_REFERENCES, ("Y", "X", 64, 100))  # Y scores what a 100-point gap predicts
    (check,) = held_out_checks(played, [("Y", "X")], REFERENCES)
    assert check.predicted == pytest.approx(0.64, abs=0.01) and check.measured.value == 0.64 and check.agrees
    ratings = joint_ratings(played, REFERENCES, bootstrap=0)
    assert ratings.elo[0] == 0.0 and ratings.elo[1] == 200.0  # the references keep their suite ratings
    assert ratings.elo[2] == pytest.approx(100, abs=5) and ratings.elo[3] == pytest.approx(200, abs=5)
    measure = intransitivity(played, ratings)
    assert measure.cyclic == 0 and measure.triples == 2 and measure.residual < 1.0  # R0-X-Y and R1-X-Y met
    assert measure.outliers == ()
    assert warnings([check], measure) == []


def test_a_rung_that_loses_to_the_one_below_disagrees_and_its_cycle_is_counted():
    # Y still beats R1 (60 of 100), R1 beats X, but X beats Y 80 of 100: a cycle no rating orders
    played = games(("X", "R0", 64, 100), ("X", "R1", 36, 100), ("Y", "R0", 76, 100), ("Y", "R1", 60, 100),
                   ("Y", "X", 20, 100))
    (check,) = held_out_checks(played, [("Y", "X")], REFERENCES)
    assert check.predicted > 0.6 and check.measured.value == 0.2 and not check.agrees
    assert check.as_dict()["agrees"] is False and check.as_dict()["games"] == 100
    measure = intransitivity(played, joint_ratings(played, REFERENCES, bootstrap=0))
    assert (measure.cyclic, measure.triples) == (1, 2) and measure.residual > 2.0
    assert measure.cycles == (("R1", "X", "Y"),)  # R1 beat X, X beat Y, Y beat R1
    found = warnings([check], measure, {"X": "rung 1", "Y": "rung 2"})
    assert found[0].startswith("rung 2 vs rung 1: rated to score") and "does not predict" in found[0]
    assert "(R1 beat rung 1 beat rung 2 beat R1)" in found[1] and "residual" in found[-1]
    # X beat Y 80 %, and Y, pulled down by those games, beat R1 more often than its rating says
    assert [(a, b) for a, b, _, _ in measure.outliers] == [("Y", "R1"), ("Y", "X")]
    assert found[3].startswith("rung 2 vs rung 1: scored 20.0%, their ratings expect") and len(found) == 5
