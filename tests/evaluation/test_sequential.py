"""The sequential tests: the GSPRT on known cases, its invariants, the pairing of games and the sequential run."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.agents.policy import RandomLegal
from issoku.evaluation.stats.pairings import by_policy
from issoku.evaluation.reports.report import sequential_headline, sequential_section, sequential_verdicts
from issoku.evaluation.stats.sequential import (BALANCED, IMBALANCED, UNDETERMINED, SequentialTest, by_seat_label,
                                          cell_pairs, gsprt, llr)
from issoku.evaluation.games.sequential_play import game_cells, numbered, run_sequential
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, MatchSpec, PolicySpec, Tournament, run_tournament, schedule

from .factories import make_record
from .toy_env import Perfect, take_away_env

PAIR_OUTCOMES = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])


def coin_pairs(p: float, pairs: int, seed: int = 0) -> list[float]:
    """Pairs of two independent games each won with probability ``p``: the first side's mean pair score."""
    rng = np.random.default_rng(seed)
    return list(((rng.random(pairs) < p).astype(float) + (rng.random(pairs) < p)) / 2)


def test_a_strongly_biased_coin_is_called_imbalanced_within_a_few_pairs():
    found = gsprt(coin_pairs(0.9, 500))
    assert (found.verdict, found.direction) == (IMBALANCED, 1) and found.pairs <= 30
    against = gsprt([1 - x for x in coin_pairs(0.9, 500)])
    assert (against.verdict, against.direction) == (IMBALANCED, -1)


def test_a_fair_coin_with_a_wide_delta_is_called_balanced():
    found = gsprt(coin_pairs(0.5, 2000), SequentialTest(delta=0.25))
    assert found.verdict == BALANCED and found.direction == 0 and found.pairs < 100


def test_too_few_pairs_leave_a_cell_undetermined_and_every_pair_used():
    found = gsprt(coin_pairs(0.55, 10))
    assert found.verdict == UNDETERMINED and found.pairs == found.available == 10


def test_all_even_pairs_need_evidence_before_a_balanced_verdict():
    """Every pair a ½ (each side wins with its seat): the pseudo-pairs keep a few pairs from deciding."""
    assert gsprt([0.5] * 5).verdict == UNDETERMINED
    found = gsprt([0.5] * 500)
    assert found.verdict == BALANCED and 10 < found.pairs < 100


def test_the_error_rates_hold_roughly_in_simulation():
    """At no effect, imbalanced calls stay near α; at an effect of δ, misses stay near β (Wald's bounds)."""
    test = SequentialTest(delta=0.1)
    even = [gsprt(coin_pairs(0.5, 3000, seed), test).verdict for seed in range(150)]
    shifted = [gsprt(coin_pairs(0.6, 3000, seed), test).verdict for seed in range(150)]
    assert even.count(IMBALANCED) / len(even) <= 0.1
    assert shifted.count(BALANCED) / len(shifted) <= 0.1


def test_the_expected_games_follow_walds_formula():
    test = SequentialTest(delta=0.05, alpha=0.05, beta=0.05)
    low, high = test.bounds()
    assert low == pytest.approx(math.log(0.05 / 0.975)) and high == pytest.approx(math.log(0.95 / 0.025))
    at_delta, at_zero, worst = test.expected_pairs(0.125)
    assert at_delta == pytest.approx((0.95 * high + 0.05 * low) * 2 * 0.125 / 0.05 ** 2)
    assert worst == pytest.approx(-low * high * 0.125 / 0.05 ** 2)
    assert at_zero < at_delta < worst
    assert f"{2 * math.ceil(at_delta)} games" in test.describe()
    assert test.expected_pairs(0.125)[0] == pytest.approx(4 * SequentialTest(delta=0.1).expected_pairs(0.125)[0])


@pytest.mark.parametrize("design", [dict(delta=0.0), dict(delta=0.6), dict(alpha=0.0), dict(beta=1.0)])
def test_a_bad_design_is_refused(design):
    with pytest.raises(ValueError, match="sequential test"):
        SequentialTest(**design)


@settings(max_examples=200, deadline=None)
@given(st.lists(PAIR_OUTCOMES, max_size=120), st.sampled_from([0.05, 0.1, 0.25]))
def test_a_cell_is_never_imbalanced_both_ways_and_its_verdict_agrees_with_its_llrs(outcomes, delta):
    test = SequentialTest(delta=delta)
    found = gsprt(outcomes, test)
    low, high = test.bounds()
    assert found.verdict in (IMBALANCED, BALANCED, UNDETERMINED)
    assert found.llr_up + found.llr_down <= 0.0
    assert not (found.llr_up >= high and found.llr_down >= high)
    if found.verdict == IMBALANCED:
        assert found.direction == (1 if found.llr_up >= high else -1)
    else:
        assert found.direction == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(PAIR_OUTCOMES, max_size=120), st.lists(PAIR_OUTCOMES, max_size=40))
def test_a_decided_cell_stays_decided_and_mirrors_swap_its_direction(outcomes, more):
    found = gsprt(outcomes)
    if found.decided:
        later = gsprt(outcomes + more)
        assert (later.verdict, later.direction, later.pairs) == (found.verdict, found.direction, found.pairs)
        assert gsprt(outcomes[:found.pairs]).verdict == found.verdict
    mirrored = gsprt([1.0 - x for x in outcomes])
    assert (mirrored.verdict, mirrored.direction, mirrored.pairs) == (found.verdict, -found.direction, found.pairs)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 300), st.sampled_from([0.05, 0.1, 0.2]))
def test_verdicts_are_monotone_in_the_evidence(pairs, delta):
    """More won pairs among the same number (spread evenly) never move a verdict towards the other side."""
    def spread(wins: int) -> list[float]:
        return [float((i + 1) * wins // pairs - i * wins // pairs) for i in range(pairs)]

    test = SequentialTest(delta=delta)
    directions = [gsprt(spread(wins), test).direction for wins in range(pairs + 1)]
    assert directions == sorted(directions)


def test_the_llr_is_the_gsprt_normal_approximation():
    assert llr(100, 0.6, 0.1, 0.5, 0.55) == pytest.approx(100 * 0.05 * (1.2 - 1.05) / 0.2)
    assert llr(0, 0.6, 0.1, 0.5, 0.55) == 0.0


def test_pairs_are_the_two_seat_orders_of_one_seed_in_seed_order():
    records = [make_record(("a", "b"), (1.0, -1.0), seed=1), make_record(("b", "a"), (-1.0, 1.0), seed=1),
               make_record(("a", "b"), (-1.0, 1.0), seed=0), make_record(("b", "a"), (1.0, -1.0), seed=0),
               make_record(("b", "a"), (1.0, -1.0), seed=2),  # no twin
               make_record(("a", "a"), (1.0, -1.0), seed=3)]  # a mirror: no cell
    [cell] = cell_pairs(records, by_policy)
    assert (cell.first, cell.second, cell.outcomes, cell.unpaired) == ("a", "b", (0.0, 1.0), 1)


def test_a_loadout_grids_twins_are_its_two_loadouts_on_one_seed():
    records = [make_record(("p", "p"), (1.0, -1.0), seed=0, labels=("katana", "yari"), loadout="katana-vs-yari"),
               make_record(("p", "p"), (1.0, -1.0), seed=0, labels=("yari", "katana"), loadout="yari-vs-katana")]
    [cell] = cell_pairs(records, by_seat_label)
    assert (cell.first, cell.second, cell.outcomes) == ("katana", "yari", (0.5,))
    assert cell_pairs(records, by_policy) == []


def test_the_report_section_and_headline_give_each_cells_verdict():
    records = []
    for seed in range(60):
        records += [make_record(("a", "b"), (1.0, -1.0), seed=seed), make_record(("b", "a"), (-1.0, 1.0), seed=seed)]
    test = SequentialTest()
    verdicts = sequential_verdicts(records, test)
    assert [what for what, _ in verdicts] == ["policy"]
    text = "\n".join(sequential_section(verdicts, test))
    assert "| a – b | imbalanced (favours a) |" in text and "expects about" in text
    [line] = sequential_headline("toy_v0", verdicts, test)
    assert "policy cells 1 imbalanced (a – b (favours a)), 0 balanced within ±δ, 0 undetermined" in line
    assert sequential_section([], test) == [] and sequential_headline("toy_v0", [], test) == []


def toy_tournament(games: int) -> Tournament:
    return Tournament(take_away_env, (PolicySpec("perfect", Perfect), PolicySpec("random", RandomLegal)),
                      games_per_pair=games)


def test_a_sequential_run_plays_a_prefix_of_the_schedule_and_stops_when_decided(tmp_path):
    tournament = toy_tournament(200)
    with MatchStore(tmp_path / "m.sqlite") as store:
        run = run_sequential(tournament, store, SequentialTest(delta=0.25), workers=0, batch_size=8, progress=False)
        stored = store.keys()
    full = schedule(tournament)
    assert run.played + run.skipped == len(full) and 0 < run.played < len(full) and run.played % 8 == 0
    prefix = {spec.key for game, _, spec in numbered(full) if game < run.played}
    assert stored == prefix  # the same games, keys and seeds a plain run plays first
    with MatchStore(tmp_path / "m.sqlite") as store:
        again = run_sequential(tournament, store, SequentialTest(delta=0.25), workers=0, batch_size=8, progress=False)
        assert (again.played, again.already_stored) == (0, run.played)
        rest = run_tournament(tournament, store, workers=0, progress=False)
        assert rest.played == run.skipped


def test_a_game_belongs_to_its_policy_cell_and_its_label_cell():
    spec = MatchSpec("k", 0, ("a", "b"))
    assert game_cells(Loadout("x"), spec) == {(0, "a", "b")}
    assert game_cells(Loadout("x", seat_labels=("yari", "katana")), MatchSpec("k", 0, ("p", "p"))) == {
        (1, "katana", "yari")}
    assert game_cells(Loadout("x"), MatchSpec("k", 0, ("p", "p"))) == set()


def test_a_variant_cell_tests_each_rates_per_game_differences():
    """The variant turns every loss of ``a`` into a win: its score moved by ≥ δ; the draw rate did not move."""
    from issoku.evaluation.design.variants import paired_shifts

    base, variant = [], []
    for seed in range(100):
        won = seed % 2 == 0
        base.append(make_record(("a", "b"), (1.0, -1.0) if won else (-1.0, 1.0), seed=seed))
        variant.append(make_record(("a", "b"), (1.0, -1.0), seed=seed))
    shifts = {shift.figure: shift for shift in paired_shifts("toy_v0", base, variant)}
    moved = shifts["policy a: score"].sequential
    assert (moved.verdict, moved.direction) == (IMBALANCED, 1) and moved.pairs < 100
    assert shifts["draw rate"].sequential.verdict == BALANCED
    assert shifts["mean length"].sequential is None
