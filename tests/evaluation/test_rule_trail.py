"""Every headline names the rule IDs and data it rests on and the lever the tool would try first."""

from __future__ import annotations

import csv

import pytest

from issoku.evaluation.reports.analysis import analyse
from issoku.evaluation.games.config import LoadoutGrid, StudyConfig, build_tournament
from issoku.evaluation.reports.coverage import build_ruleset
from issoku.evaluation.reports.report import headlines, read_headlines, with_trails, write_report
from issoku.evaluation.reports.findings import Finding
from issoku.evaluation.reports.rule_trail import OPENING, RuleTrails, Trail, fallback_lever, lever_for, most_used, read_levers
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import run_tournament

from .factories import make_record


@pytest.fixture(scope="module")
def breath_games(tmp_path_factory):
    """Twelve seeded Ma and Blade duels, the Ma heuristic against random (it wins almost all), and a grid of two
    loadouts (unarmed and staff, the Ma heuristic on both seats: the unarmed fighter wins most)."""
    path = tmp_path_factory.mktemp("trail") / "m.sqlite"
    study = StudyConfig(env="breath_duel_v0", policies=("ma_heuristic", "random"), games_per_pair=12)
    grid = StudyConfig(env="breath_duel_v0", policies=("ma_heuristic",), mirrors=True, games_per_pair=30,
                       loadout_grid=LoadoutGrid(seat_key="fighters", labels=("unarmed", "staff"),
                                                templates={"unarmed": "wildman", "staff": "mikkyo_monk"}))
    with MatchStore(path) as store:
        run_tournament(build_tournament(study), store, workers=0, progress=False)
        run_tournament(build_tournament(grid), store, workers=0, progress=False)
        records = list(store.records())
    return path, records


def test_an_actions_rule_ids_are_the_events_it_produced_in_replayed_games(breath_games):
    _, records = breath_games
    trails = RuleTrails(records, build_ruleset(records))
    assert "MA-011" in trails.rules_of(["half_step:close"])  # a half-step moves the ma (MA-011)
    assert "BR-004" in trails.rules_of([OPENING])  # the round starts with every Energy at its maximum
    assert trails.rules_of(["no_such_action"]) == ()
    assert trails.data_of(["attack:uchigatana.thrust", "reserve:uchigatana.parry"]) == (
        "technique:uchigatana.thrust", "defence:uchigatana.parry")
    assert trails.data_of(["end_breath", "stance:middle_guard", "attack:yari.thrust"]) == (  # data entries first
        "technique:yari.thrust", "stance:middle_guard", "end_breath")


def test_the_strongest_loadouts_headline_rests_on_rule_ids_data_and_a_lever(breath_games):
    _, records = breath_games
    found = headlines(analyse(records, bootstrap=20), None, (), records=records)
    (line,) = [line for line in found if "strongest loadout **unarmed**" in line]
    trail = line.split("(scripted agents: ma_heuristic).", 1)[1]
    assert trail.startswith(" Rests on ") and "; data: `" in trail
    rules = trail.split(" Rests on ", 1)[1].split(";", 1)[0].split(", ")
    assert rules and all(rule[:3] in ("BR-", "MA-") for rule in rules)
    top = most_used(records, "unarmed", by_label=True)[0]
    assert f"lever to try first: the data of `{RuleTrails(records, build_ruleset(records)).data_of([top])[0]}`" in trail


def test_a_levers_csv_beside_the_report_names_the_lever_of_the_finding(breath_games, tmp_path):
    path, _ = breath_games
    out = tmp_path / "out"
    out.mkdir()
    with (out / "levers.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["rank", "lever", "item", "effect_figure", "first_mover_delta"])
        writer.writerow([1, "breath/data/weapons.toml: nodachi / cut: cost 2 → 3", "nodachi / cut",
                         "loadout nodachi: score", "0.01"])
        writer.writerow([2, "breath/data/archetypes.toml: wildman: physique 4 → 3", "wildman",
                         "loadout unarmed: score", "-0.2"])
    with MatchStore(path) as store:
        report = write_report(store, out, bootstrap=20, progress=False, html=False)
    (line,) = [line for line in read_headlines(report) if "strongest loadout unarmed" in line]
    assert line.endswith("lever to try first: breath/data/archetypes.toml: wildman: physique 4 → 3 (levers.csv rank 2).")


def test_lever_for_prefers_the_findings_figure_then_its_content_and_the_first_movers_biggest_move():
    levers = [{"rank": "1", "lever": "A", "item": "nodachi / cut", "effect_figure": "loadout yari: score",
               "first_mover_delta": "0.01"},
              {"rank": "2", "lever": "B", "item": "uchigatana / thrust", "effect_figure": "loadout katana: score",
               "first_mover_delta": "-0.09"},
              {"rank": "3", "lever": "C", "item": "x", "effect_figure": "", "first_mover_delta": ""}]
    assert lever_for(levers, "loadout katana: score") == "B (levers.csv rank 2)"
    assert lever_for(levers, "policy p: score", ["technique:nodachi.cut"]) == "A (levers.csv rank 1)"
    assert lever_for(levers, first_mover=True) == "B (levers.csv)"
    assert lever_for(levers, "policy p: score", ["stance:middle_guard"]) == ""
    assert fallback_lever(["stance:middle_guard"]).startswith("the data of `stance:middle_guard`")
    assert fallback_lever([]) == ""


def test_an_unreadable_levers_csv_or_unreplayable_games_leave_the_trail_short(tmp_path):
    (tmp_path / "levers.csv").write_bytes(b"\xff\xfe\x00garbage")
    assert read_levers(tmp_path / "levers.csv") == [] and read_levers(tmp_path / "none.csv") == []
    records = [make_record(("a", "b"), (1.0, -1.0), seed=s) for s in range(4)]  # toy_v0: no registered env
    finding = Finding("toy_v0", "x", 0.2, 0.1, 0.3, "scripted", about=("policy", "a"))
    (traced,) = with_trails([finding], records)
    assert traced.trail.rules == () and traced.trail.data == ("a",)
    assert traced.trail.text() == " data: `a`; lever to try first: the data of `a` (rank its fields with `issoku levers`)."
    assert Trail().text() == ""
