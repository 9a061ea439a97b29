import numpy as np
import pytest

from issoku.evaluation.design.restricted import (Restricted, battery, is_restricted, restricted_tournament,
                                          restriction_name, restriction_results, split_restriction)
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, PolicySpec, run_tournament

from .factories import make_record
from .toy_env import ACTION_NAMES, Perfect, take_away_env


class TakesThree:
    """Always the biggest legal take (so banning take3 visibly changes its play)."""

    def __init__(self, seed=None) -> None:
        pass

    def __call__(self, observation, action_mask) -> int:
        return int(np.flatnonzero(action_mask)[-1])


def test_names_round_trip_and_mark_restricted_games():
    assert restriction_name("p", ("a",)) == "p -a" and split_restriction("p -a>b") == ("p", ("a", "b"))
    assert split_restriction("ma_heuristic") is None
    assert is_restricted(make_record(("p -a", "p"), (1.0, -1.0)))
    assert not is_restricted(make_record(("p", "q"), (1.0, -1.0)))


def test_a_banned_action_is_never_played_unless_forced_and_a_combo_only_right_after_its_first():
    single = Restricted(TakesThree, (2,))(seed=0)
    assert single(None, np.array([1, 1, 1], dtype=np.int8)) == 1
    assert single(None, np.array([0, 0, 1], dtype=np.int8)) == 2  # the only legal move stays legal
    combo = Restricted(TakesThree, (2, 2))(seed=0)  # never take3 right after take3
    assert [combo(None, np.array([1, 1, 1], dtype=np.int8)) for _ in range(3)] == [2, 1, 2]


def test_the_battery_lists_the_most_used_maneuvers_of_the_kind_without_closers_then_combos():
    actions = (("cut", "cut", "end", "parry"), ("x",))
    kinds = (("breath", "breath", "breath", "defend"), ("breath",))
    records = [make_record(("p", "q"), (1.0, -1.0), seed=s, actions=actions, kinds=kinds) for s in range(3)]
    records.append(make_record(("p", "q"), (1.0, -1.0), seed=9, actions=(("thrust", "cut"), ("x",)),
                               kinds=(("breath", "breath"), ("breath",))))
    names = ("cut", "thrust", "end", "parry", "x")
    found = battery(records, "p", names, maneuvers=5, combos=2, spec=CompositionSpec("breath", ("end",)))
    assert found == [("cut",), ("thrust",), ("thrust", "cut")]


def test_restricted_play_is_a_resumable_tournament_whose_drop_shows_the_load_bearing_action(tmp_path):
    base = PolicySpec("perfect", Perfect)
    tournament = restricted_tournament(base, [("take1",), ("take3",)], ACTION_NAMES, take_away_env,
                                       Loadout("default"), games=20)
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert run_tournament(tournament, store, workers=0, progress=False).played == 40
        assert run_tournament(tournament, store, workers=0, progress=False).played == 0
        results = {r.banned: r for r in restriction_results(store.records())}
    assert set(results) == {("take1",), ("take3",)} and all(r.score.n == 20 for r in results.values())
    assert all(-0.5 <= r.drop <= 0.5 for r in results.values())
    low, high = results[("take1",)].drop_interval
    assert low <= results[("take1",)].drop <= high


def test_restriction_results_score_the_restricted_seat_against_its_own_base():
    records = [make_record(("p -a", "p"), (1.0, -1.0), seed=0), make_record(("p", "p -a"), (1.0, -1.0), seed=1),
               make_record(("p", "p -a"), (0.0, 0.0), seed=2), make_record(("p -a", "q"), (1.0, -1.0), seed=3)]
    (result,) = restriction_results(records)
    assert result.score.n == 3 and result.score.value == pytest.approx(1.5 / 3) and result.drop == pytest.approx(0.0)


def test_battery_ties_go_by_name_not_by_set_order():
    """With ties broken by set iteration, two runs under different PYTHONHASHSEED chose
    different restrictions. Twelve actions each used once tie; the battery must list them by name."""
    names = tuple(f"move_{letter}" for letter in "qwertyuiopas")
    record = make_record(("p", "q"), (1.0, -1.0), actions=(names, ("x",)))
    assert battery([record], "p", names + ("x",), maneuvers=12, combos=3) == (
        [(name,) for name in sorted(names)] + sorted(zip(names, names[1:]))[:3])


def test_the_battery_covers_every_decision_kind_and_says_what_it_left_out():
    """Restricted play covered only the study's main kind; replies of every other kind join it, and the
    report names the kinds and loadouts no restriction touched."""
    from issoku.evaluation.design.restricted import battery_coverage

    actions = (("cut", "thrust", "end", "parry", "take", "resist"), ("x",))
    kinds = (("breath", "breath", "breath", "defend", "defend", "resist"), ("breath",))
    records = [make_record(("p", "q"), (1.0, -1.0), seed=s, actions=actions, kinds=kinds, loadout=lo)
               for s, lo in enumerate(("one", "two"))]
    names = ("cut", "thrust", "end", "parry", "take", "resist", "x")
    spec = CompositionSpec("breath", ("end",))
    assert battery(records, "p", names, maneuvers=1, combos=0, spec=spec) == [("cut",)]
    found = battery(records, "p", names, maneuvers=1, combos=0, spec=spec, replies=1)
    assert found == [("cut",), ("parry",), ("resist",)]  # one per other kind, ties by name
    restricted = [make_record(("p -cut", "p"), (1.0, -1.0), seed=9, loadout="one"),
                  make_record(("p", "p -parry"), (1.0, -1.0), seed=10, loadout="one")]
    (line,) = battery_coverage(records, restricted)
    assert "masked out 2 of the 6 actions" in line
    assert "decision kinds covered: `breath`, `defend`; not covered: `resist`" in line
    assert "Loadouts covered: one; not covered: 1 where it played but no restriction did" in line and "): two." in line
