"""The combo table over every maneuver: breaths of replayed games, what they bought, where the Energy went."""

from __future__ import annotations

import math
from collections import Counter
from types import SimpleNamespace

import pytest

from issoku.evaluation.design.combo_play import (Breath, _breaths, category, category_play, composition_play,
                                          policy_economy, replay_breaths)
from issoku.evaluation.games.config import StudyConfig, build_tournament
from issoku.evaluation.reports.report import played_combo_section
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import run_tournament

from .factories import make_record


def frame(agent, action, *events, kind="breath"):
    return SimpleNamespace(agent=agent, action=action, decision_kind=kind, events=tuple(events))


def test_a_breath_is_every_maneuver_from_its_start_to_its_end_with_what_it_bought():
    """Seat 0 declares a stance, reserves a parry, attacks (2 Wounds) and ends with 4 Energy left; on seat 1's breath
    its reserve blocks once; seat 1 improvises a parry (paid out of its breath) and attacks for nothing."""
    record = make_record(("p", "q"), (1.0, -1.0))
    frames = [
        frame(None, None, {"kind": "breath_start", "actor": 0}),
        frame("player_0", "stance:guard_stance", {"kind": "energy_spent", "actor": 0, "what": "stance guard_stance",
                                                  "cost": 1}),
        frame("player_0", "reserve:uchigatana.parry", {"kind": "energy_spent", "actor": 0,
                                                       "what": "reserve uchigatana.parry", "cost": 1}),
        frame("player_0", "attack:uchigatana.thrust",
              {"kind": "energy_spent", "actor": 0, "what": "uchigatana.thrust", "cost": 2}),
        frame("player_1", "take_hit", {"kind": "hit", "actor": 0, "target": 1, "wounds": 2}, kind="defend"),
        frame("player_0", "end_breath", {"kind": "breath_end", "actor": 0, "energy": 4, "why": "ended"},
              {"kind": "breath_start", "actor": 1}),
        frame("player_1", "attack:nodachi.cut", {"kind": "energy_spent", "actor": 1, "what": "nodachi.cut", "cost": 2}),
        frame("player_0", "use_reserved:uchigatana.parry", {"kind": "defense_roll", "actor": 0, "blocked": True},
              kind="defend"),
        frame("player_0", "improvise:uchigatana.parry", {"kind": "energy_spent", "actor": 0,
                                                         "what": "improvise uchigatana.parry", "cost": 3}, kind="defend"),
        frame("player_1", "stand", {"kind": "breath_end", "actor": 1, "energy": 0, "why": "limit"}),
    ]
    energy: Counter[str] = Counter()
    first, second = _breaths(frames, record, energy)
    assert first.composition == ("attack:uchigatana.thrust", "reserve:uchigatana.parry", "stance:guard_stance")
    assert (first.spent, first.wounds, first.blocks, first.left, first.chosen) == (4, 2, 1, 4, True)
    assert (second.policy, second.composition, second.spent, second.chosen) == ("q", ("attack:nodachi.cut",), 2, False)
    assert energy == {"stance": 1, "reserve": 1, "attack": 4, "improvise": 3}
    kinds = {c.category: c for c in category_play([first, second], energy)}
    assert kinds["attack"].energy_share == pytest.approx(4 / 9) and kinds["attack"].breaths == 2
    assert kinds["stance"].with_it == pytest.approx(0.5) and kinds["stance"].without_it == 0.0
    p, q = policy_economy([first, second])
    assert (p.energy_per_wound, p.chosen_share, p.left_when_chosen) == (2.0, 1.0, 4.0)
    assert q.energy_per_wound == math.inf and math.isnan(q.left_when_chosen)


def test_categories_name_the_kind_of_maneuver():
    assert [category(n) for n in ("half_step:close", "reserve uchigatana.parry", "nodachi.cut", "kata:kiai",
                                  "attack:yari.thrust", "release_stance")] == [
        "half_step", "reserve", "attack", "kata", "attack", "release_stance"]


def test_compositions_are_multisets_most_played_first():
    breaths = [Breath("p", ["attack:a.x", "half_step:close", "end_breath"], spent=3, wounds=1),
               Breath("q", ["half_step:close", "attack:a.x"], spent=3, wounds=2), Breath("p", ["kata:kiai"])]
    top, other = composition_play(breaths)
    assert top.composition == ("attack:a.x", "half_step:close") and top.breaths == 2
    assert top.wounds_per_energy == pytest.approx(0.5) and top.players == (("p", 1), ("q", 1))
    assert math.isnan(other.wounds_per_energy)


def test_replayed_breath_duels_price_stances_defences_footwork_and_the_economy(tmp_path):
    study = StudyConfig(env="breath_duel_v0", policies=("ma_heuristic", "random"), games_per_pair=6)
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(build_tournament(study), store, workers=0, progress=False)
        records = list(store.records())
    breaths, energy = replay_breaths(records, games=4)
    assert breaths and sum(energy.values()) >= sum(b.spent for b in breaths) > 0
    played = {category(action) for b in breaths for action in b.composition}
    assert {"half_step", "stance"} <= played  # footwork and stances, not attacks alone
    text = "\n".join(played_combo_section(breaths, energy, 4))
    assert "### Played compositions (every maneuver)" in text and "### Energy economy" in text
    assert "| ma_heuristic |" in text and "Energy per Wound dealt" in text
    assert replay_breaths([make_record(("a", "b"), (1.0, -1.0))]) == ([], {})  # not replayable here: nothing
    assert played_combo_section([], {}, 0) == []
