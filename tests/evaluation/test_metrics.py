import math

import numpy as np
import pytest

from issoku.evaluation.stats.metrics import (CompositionSpec, compositions, decisiveness, entropy_bits, first_mover_advantage,
                                       frequent_compositions, frequent_sequences,
                                       matchup_matrix, seat_advantage, strategy_diversity, wilson)
from issoku.evaluation.stats.pairings import games_between

from .factories import make_record


def test_wilson_matches_the_textbook_value():
    # 8 of 10 at 95 %: Wilson gives (0.4902, 0.9433) (Newcombe 1998 table, z = 1.96).
    cell = wilson(8, 10)
    assert cell.value == 0.8
    assert (cell.low, cell.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0) and math.isnan(wilson(0, 0).value)
    assert wilson(0, 5).low == 0.0 and wilson(5, 5).high == pytest.approx(1.0)


def test_matchup_matrix_rates_and_flags_a_side_that_beats_everyone():
    records = ([make_record(("strong", "weak"), (1.0, -1.0), seed=s) for s in range(30)]
               + [make_record(("mid", "strong"), (-1.0, 1.0), seed=s) for s in range(30)]
               + [make_record(("mid", "weak"), (1.0, -1.0), seed=s) for s in range(10)]
               + [make_record(("weak", "mid"), (1.0, -1.0), seed=s) for s in range(10)])
    matrix = matchup_matrix(games_between(records))
    assert matrix.names == ("mid", "strong", "weak")
    assert matrix.rate[1, 2] == 1.0 and matrix.rate[2, 1] == 0.0 and matrix.rate[0, 2] == 0.5
    assert np.isnan(matrix.rate[0, 0]) and matrix.low[1, 0] > 0.5
    assert matrix.dominant() == [1]


def test_first_mover_and_seat_advantage_count_draws_as_half():
    records = [make_record(("a", "b"), (1.0, -1.0), seed=1, first_seat=0),
               make_record(("a", "b"), (-1.0, 1.0), seed=2, first_seat=1),
               make_record(("a", "b"), (0.0, 0.0), seed=3, first_seat=1),
               make_record(("a", "b"), (-1.0, 1.0), seed=4, first_seat=0)]
    assert first_mover_advantage(records).value == pytest.approx((1 + 1 + 0.5 + 0) / 4)
    assert seat_advantage(records, 0).value == pytest.approx((1 + 0 + 0.5 + 0) / 4)


def test_decisiveness_counts_draws_timeouts_and_lengths():
    records = [make_record(("a", "b"), (1.0, -1.0), seed=1, actions=(("x", "y"), ("z",))),
               make_record(("a", "b"), (0.0, 0.0), seed=2, truncated=True, actions=(("x",) * 5, ("z",) * 5)),
               make_record(("a", "b"), (0.0, 0.0), seed=3, actions=(("x",), ("z",)))]
    result = decisiveness(records)
    assert result.games == 3 and result.draws.successes == 2 and result.timeouts.successes == 1
    assert result.mean_length == pytest.approx(5.0) and result.median_length == 3


def test_entropy_of_known_distributions():
    assert entropy_bits([5, 5]) == pytest.approx(1.0)
    assert entropy_bits([1, 1, 1, 1]) == pytest.approx(2.0)
    assert entropy_bits([7]) == 0.0 and entropy_bits([]) == 0.0


def test_diversity_separates_a_one_line_policy_from_a_varied_one():
    records = [make_record(("fixed", "varied"), (1.0, -1.0), seed=s,
                           actions=(("cut", "cut"), ("cut", "thrust") if s % 2 else ("parry", "cut")))
               for s in range(8)]
    fixed, varied = strategy_diversity(records)
    assert (fixed.policy, fixed.distinct_sequences, fixed.sequence_entropy) == ("fixed", 1, 0.0)
    assert varied.sequence_entropy == pytest.approx(1.0) and varied.distinct_actions == 3
    assert varied.action_entropy == pytest.approx(entropy_bits([4, 8, 4]))


def test_frequent_sequences_report_the_score_when_a_combo_is_used():
    records = [make_record(("p", "q"), (1.0, -1.0) if s < 3 else (-1.0, 1.0), seed=s,
                           actions=(("feint", "cut") if s < 3 else ("cut", "cut"), ("wait",)))
               for s in range(4)]
    uses = {(u.policy, u.sequence): u for u in frequent_sequences(records, n=2)}
    combo = uses[("p", ("feint", "cut"))]
    assert combo.used_in == 3 and combo.share == 0.75
    assert combo.score_when_used.value == 1.0 and combo.score_overall == 0.75
    assert uses[("p", ("cut", "cut"))].score_when_used.value == 0.0
    assert not any(u.policy == "q" for u in uses.values())  # one-action sequences hold no pair


BREATH = CompositionSpec(kind="breath", closing=("end_breath",))


def test_compositions_are_runs_of_one_kind_closed_by_a_closing_action():
    actions = ("cut", "thrust", "end_breath", "parry", "cut", "end_breath", "cut")
    kinds = ("breath", "breath", "breath", "defend", "breath", "breath", "breath")
    assert compositions(actions, kinds, BREATH) == [("cut", "thrust", "end_breath"), ("cut", "end_breath"), ("cut",)]
    # a decision of another kind also closes a composition
    assert compositions(("cut", "parry", "cut"), ("breath", "defend", "breath"), BREATH) == [("cut",), ("cut",)]


def test_frequent_compositions_and_their_entropy():
    records = [make_record(("p", "q"), (1.0, -1.0) if s < 2 else (0.0, 0.0), seed=s,
                           actions=(("cut", "end_breath", "cut", "cut", "end_breath"), ("end_breath",)),
                           kinds=(("breath",) * 5, ("breath",)))
               for s in range(4)]
    uses = frequent_compositions(records, BREATH)
    assert [(u.policy, u.sequence, u.used_in) for u in uses][:2] == [("p", ("cut", "cut", "end_breath"), 4),
                                                                      ("p", ("cut", "end_breath"), 4)]
    assert uses[0].score_when_used.value == pytest.approx(0.75)
    p, q = strategy_diversity(records, BREATH)
    assert (p.distinct_compositions, p.composition_entropy) == (2, pytest.approx(1.0))
    assert (q.distinct_compositions, q.composition_entropy) == (1, 0.0)
    assert strategy_diversity(records)[0].composition_entropy is None


def test_the_first_mover_counts_only_seat_balanced_games():
    """A study that always seats the same fighter first confounds seat and fighter."""
    from issoku.evaluation.stats.metrics import seat_balanced

    swapped = [make_record(("p", "p"), (1.0, -1.0), seed=1, labels=("a", "b")),
               make_record(("p", "p"), (1.0, -1.0), seed=1, labels=("b", "a"))]
    one_way = [make_record(("p", "p"), (1.0, -1.0), seed=2, labels=("a", "c")),
               make_record(("p", "q"), (1.0, -1.0), seed=3)]
    mirror = [make_record(("p", "p"), (1.0, -1.0), seed=4, labels=("c", "c"))]
    assert seat_balanced(swapped + one_way + mirror) == swapped + mirror


def test_the_first_mover_is_balanced_by_move_order_so_a_side_that_wins_the_initiative_lends_it_nothing():
    """A stronger fighter that also moves first more often (an initiative roll with a skill in it) must
    not show up as a first-mover advantage. Here 'strong' wins every game and moves first in 8 of 10: the pooled
    first mover scores 80 %, the balanced estimate ½ (each order weighs alike)."""
    from issoku.evaluation.stats.metrics import balanced_first_mover

    records = [make_record(("strong", "weak"), (1.0, -1.0), seed=s, labels=("x", "y"), first_seat=0 if s < 8 else 1)
               for s in range(10)]
    assert first_mover_advantage(records).value == pytest.approx(0.8)
    balanced = balanced_first_mover(records)
    assert balanced.score.value == pytest.approx(0.5) and balanced.score.n == 10 and balanced.left_out == 0
    assert balanced.score.low < 0.5 < balanced.score.high
    low, high = balanced.interval(0.999)
    assert low < balanced.score.low and high > balanced.score.high


def test_a_pairing_where_one_side_always_moves_first_is_left_out_of_the_first_mover():
    """The default policy study seats the same fighter first in every game of a pairing (breath: seat 0 always
    begins): those games cannot tell moving first from being that side."""
    from issoku.evaluation.stats.metrics import balanced_first_mover

    always = [make_record(("p", "q"), (1.0, -1.0), seed=s, first_seat=0) for s in range(6)]
    assert balanced_first_mover(always).score.n == 0 and balanced_first_mover(always).left_out == 6
    swapped = [make_record(("p", "p"), (-1.0, 1.0) if s % 2 else (1.0, -1.0), seed=s, labels=("a", "b"),
                           first_seat=s % 2) for s in range(8)]  # the first mover wins every game, either side
    found = balanced_first_mover(always + swapped)
    assert found.score.value == pytest.approx(1.0) and found.score.n == 8 and found.left_out == 6
