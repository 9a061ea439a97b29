import math

import numpy as np
import pytest

from issoku.evaluation.stats.pairings import Games, by_label, games_between
from issoku.evaluation.stats.ratings import elo_scale, expected_score, fit_bradley_terry, rate

from .factories import make_record

# Hand-computed: strengths p = (4, 2, 1) give expected scores A-B 8:4 of 12, A-C 8:2 of 10, B-C 4:2 of 6.
# Those counts satisfy the likelihood equations exactly, so the fit must return p itself:
# Elo 400·log10(p) centred on the mean = (+120.41, 0, -120.41).
HAND_ELO = np.array([400 * math.log10(2), 0.0, -400 * math.log10(2)])


def hand_games(order_seed: int | None = None) -> Games:
    rows = ([(0, 1, 1.0)] * 7 + [(0, 1, 0.5)] * 2 + [(0, 1, 0.0)] * 3      # A-B: 7 wins, 2 draws, 3 losses
            + [(0, 2, 1.0)] * 8 + [(2, 0, 1.0)] * 2                          # A-C: 8-2, C listed first twice
            + [(1, 2, 1.0)] * 3 + [(1, 2, 0.5)] * 2 + [(2, 1, 1.0)] * 1)    # B-C: 3 wins, 2 draws, 1 loss
    if order_seed is not None:
        np.random.default_rng(order_seed).shuffle(rows)
    table = np.array(rows)
    return Games(("A", "B", "C"), table[:, 0].astype(int), table[:, 1].astype(int), table[:, 2])


def test_fit_matches_the_hand_computed_matrix():
    scores, games = hand_games().matrices()
    assert scores[0, 1] == 8 and scores[1, 0] == 4 and games[0, 2] == 10 and scores[1, 2] == 4
    elo = elo_scale(fit_bradley_terry(scores, games, prior=0.0))
    np.testing.assert_allclose(elo, HAND_ELO, atol=1e-6)


def test_two_players_three_of_four_is_400_log10_3_apart():
    games = Games(("x", "y"), np.array([0, 0, 0, 0]), np.array([1, 1, 1, 1]), np.array([1.0, 1.0, 1.0, 0.0]))
    elo = elo_scale(fit_bradley_terry(*games.matrices(), prior=0.0), anchor=1, offset=1000.0)
    np.testing.assert_allclose(elo, [1000 + 400 * math.log10(3), 1000.0], atol=1e-6)
    assert expected_score(elo[0], elo[1]) == pytest.approx(0.75)


def test_the_fit_ignores_game_order_and_who_is_listed_first():
    reference = rate(hand_games(), bootstrap=0, prior=0.0).elo
    for seed in range(3):
        np.testing.assert_allclose(rate(hand_games(seed), bootstrap=0, prior=0.0).elo, reference, atol=1e-8)


def test_players_held_at_fixed_ratings_keep_them_and_the_others_fit_around_them():
    """A and C held at their hand-computed ratings shifted by +500: B lands at its own shifted rating, exactly,
    and the one-parameter fixed-scale fit a benchmark uses (A and C its references) agrees with it."""
    from issoku.evaluation.strength.reference_suite import fixed_scale_elo

    held = {"A": HAND_ELO[0] + 500, "C": HAND_ELO[2] + 500}
    ratings = rate(hand_games(), bootstrap=50, prior=0.0, fixed=held)
    np.testing.assert_allclose(ratings.elo, HAND_ELO + 500, atol=1e-6)
    assert ratings.low[0] == ratings.high[0] == held["A"] and ratings.low[1] < ratings.elo[1] < ratings.high[1]
    games = hand_games()
    b_rows = (games.first == 1) | (games.second == 1)
    other = np.where(games.first[b_rows] == 1, games.second[b_rows], games.first[b_rows])
    score = np.where(games.first[b_rows] == 1, games.score[b_rows], 1 - games.score[b_rows])
    opponents = np.array([held["A"] if index == 0 else held["C"] for index in other])
    assert fixed_scale_elo(opponents, score, prior=0.0) == pytest.approx(ratings.elo[1], abs=1e-6)
    with pytest.raises(ValueError, match="not both"):
        rate(hand_games(), fixed=held, anchor="A")


def test_the_prior_keeps_an_unbeaten_player_finite_and_its_absence_is_refused():
    games = Games(("x", "y"), np.array([0, 0]), np.array([1, 1]), np.array([1.0, 1.0]))
    elo = rate(games, bootstrap=0, prior=1.0).elo
    assert np.all(np.isfinite(elo)) and elo[0] > elo[1]
    with pytest.raises(ValueError, match="scored nothing"):
        fit_bradley_terry(*games.matrices(), prior=0.0)


def test_bootstrap_intervals_are_seeded_contain_the_fit_and_narrow_with_more_games():
    small = hand_games()
    large = Games(small.names, np.tile(small.first, 9), np.tile(small.second, 9), np.tile(small.score, 9))
    a = rate(small, bootstrap=300, seed=3)
    b = rate(small, bootstrap=300, seed=3)
    np.testing.assert_array_equal(a.low, b.low)
    assert np.all(a.low <= a.elo) and np.all(a.elo <= a.high)
    wide = rate(large, bootstrap=300, seed=3)
    assert np.all(wide.high - wide.low < a.high - a.low)
    assert a.ranked() == [0, 1, 2]


def test_games_from_records_skip_mirrors_and_follow_the_seats():
    records = [make_record(("a", "b"), (1.0, -1.0), seed=1), make_record(("b", "a"), (1.0, -1.0), seed=2),
               make_record(("a", "a"), (1.0, -1.0), seed=3), make_record(("b", "a"), (0.0, 0.0), seed=4)]
    games = games_between(records)
    assert games.names == ("a", "b") and len(games) == 3
    scores, played = games.matrices()
    np.testing.assert_array_equal(scores, [[0, 1.5], [1.5, 0]])
    np.testing.assert_array_equal(played, [[0, 3], [3, 0]])


def test_games_by_label_compare_loadouts_and_skip_mirrored_or_unlabelled_seats():
    records = [make_record(("p", "p"), (1.0, -1.0), seed=1, labels=("katana", "yari")),
               make_record(("p", "p"), (1.0, -1.0), seed=2, labels=("yari", "katana")),
               make_record(("p", "p"), (1.0, -1.0), seed=3, labels=("yari", "yari")),
               make_record(("p", "p"), (1.0, -1.0), seed=4)]
    games = games_between(records, by_label)
    assert games.names == ("katana", "yari") and len(games) == 2
    np.testing.assert_array_equal(games.matrices()[0], [[0, 1], [1, 0]])


def test_games_by_label_skip_a_record_built_without_seat_labels():
    """A record made through the API with no ``seat_labels`` at all has no loadout side (it once raised IndexError)."""
    from dataclasses import replace

    from issoku.evaluation.reports.example_games import lopsided_wins

    unlabelled = replace(make_record(("p", "q"), (1.0, -1.0), seed=1, labels=("katana", "yari")), seat_labels=())
    labelled = make_record(("p", "q"), (1.0, -1.0), seed=2, labels=("katana", "yari"))
    assert by_label(unlabelled, 0) == "" and by_label(unlabelled, 1) == ""
    games = games_between([unlabelled, labelled], by_label)
    assert games.names == ("katana", "yari") and len(games) == 1
    assert [example.record for example in lopsided_wins([unlabelled, labelled], by_label, "katana")] == [labelled]
