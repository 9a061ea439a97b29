import numpy as np
import pytest

from issoku.evaluation.stats.metagame import dominated_strategies, name_mixture, nash_equilibrium, payoff_matrix

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)


def test_rock_paper_scissors_is_uniform_with_value_zero_and_nothing_dominated():
    eq = nash_equilibrium(RPS)
    np.testing.assert_allclose(eq.mixture, [1 / 3] * 3, atol=1e-9)
    assert eq.value == pytest.approx(0.0, abs=1e-9) and eq.support == (0, 1, 2)
    assert dominated_strategies(RPS) == []


def test_weighted_rps_equilibrium_is_the_hand_solved_quarter_half_quarter():
    # Rock beats scissors by 2; solving (A x)_i = 0 by hand gives x = (1/4, 1/2, 1/4).
    payoff = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], dtype=float)
    np.testing.assert_allclose(nash_equilibrium(payoff).mixture, [0.25, 0.5, 0.25], atol=1e-9)


def test_a_strategy_losing_to_everything_is_dominated_and_left_out_of_the_equilibrium():
    payoff = np.zeros((4, 4))
    payoff[:3, :3] = RPS
    payoff[3, :3], payoff[:3, 3] = -1.0, 1.0
    eq = nash_equilibrium(payoff)
    assert eq.support == (0, 1, 2) and eq.mixture[3] == pytest.approx(0.0, abs=1e-9)
    found = dominated_strategies(payoff)
    assert [d.dominated for d in found] == [3]
    assert found[0].margin == pytest.approx(1.0)


def test_dominance_by_a_mixture_that_no_pure_strategy_achieves():
    payoff = np.array([[3.0, 0.0], [0.0, 3.0], [1.0, 1.0]])
    (found,) = dominated_strategies(payoff)
    assert found.dominated == 2 and found.margin == pytest.approx(0.5)
    assert found.by == pytest.approx({0: 0.5, 1: 0.5})


def test_payoff_matrix_from_scores_is_antisymmetric_and_refuses_unplayed_pairs():
    scores = np.array([[0, 3, 1], [1, 0, 2], [3, 2, 0]], dtype=float)
    games = np.array([[0, 4, 4], [4, 0, 4], [4, 4, 0]], dtype=float)
    payoff = payoff_matrix(scores, games)
    np.testing.assert_allclose(payoff, -payoff.T)
    assert payoff[0, 1] == pytest.approx(0.5)
    games[0, 2] = games[2, 0] = 0
    with pytest.raises(ValueError, match="unplayed"):
        nash_equilibrium(payoff_matrix(scores, games))


def test_name_mixture_lists_the_support_heaviest_first():
    assert name_mixture(np.array([0.25, 0.5, 0.25, 0.0]), ["r", "p", "s", "d"]) == {"p": 0.5, "r": 0.25, "s": 0.25}
