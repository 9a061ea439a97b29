from fractions import Fraction

import pytest

from issoku.envs.breath_duel_v0 import env as breath_env
from issoku.evaluation.design.combos import ComboCell, ComboJob, ComboTable, combo_job, compositions
from issoku.rules.breath.content import load_catalog


def cells_by_key(cells):
    return {(cell.rung, cell.composition, cell.aim): cell for cell in cells}


def test_a_single_cut_is_exact_and_matches_the_hand_count_of_the_100_dice_pairs():
    # Core breath fight (no ma): kenshi (+3 finesse, +3 swordsmanship) cuts a kenshi of Defense 11 (BR-G01):
    # 2d10 + 6 >= 11 hits on 94 of the 100 pairs; doubles are Criticals of 2 Wounds (BR-G05), 8 of them hit.
    hits = [(a, b) for a in range(1, 11) for b in range(1, 11) if a + b + 6 >= 11]
    expected = Fraction(sum(2 if a == b else 1 for a, b in hits), 100)
    assert expected == Fraction(102, 100)
    cells = cells_by_key(combo_job(ComboJob(breath_env, {"ma": False}, "uchigatana", samples=5, exact_dice=2)))
    assert not any(cell.aim for cell in cells.values())  # no hit locations without the ma
    cut = cells[("any", ("uchigatana.horizontal_cut",), "")]
    assert cut.exact and cut.wounds == pytest.approx(float(expected)) and cut.energy == 2 and cut.guard == 0


def test_monte_carlo_agrees_with_the_exact_cells_and_out_of_reach_rungs_have_no_cell():
    exact = cells_by_key(combo_job(ComboJob(breath_env, {}, "yari", samples=1, exact_dice=3)))
    sampled = cells_by_key(combo_job(ComboJob(breath_env, {}, "yari", samples=300, exact_dice=0, seed=7)))
    assert exact.keys() == sampled.keys()
    assert {rung for rung, _, _ in exact} == {"far", "issoku_itto", "near"}  # a yari cannot strike closer in
    assert exact[("near", ("yari.thrust",), "attack_a:face")].energy == exact[("near", ("yari.thrust",), "")].energy + 1
    singles = [key for key in exact if len(key[1]) == 1 and exact[key].exact]
    assert len(singles) >= 6 and not any(sampled[key].exact for key in singles)
    for key in singles:
        assert abs(exact[key].wounds - sampled[key].wounds) <= 4 * sampled[key].wounds_se + 0.02


def test_compositions_fit_the_breath_limit_and_the_most_efficient_is_most_suspicious():
    yari = load_catalog().weapons["yari"]
    assert compositions(yari, 4) == [("yari.thrust",), ("yari.sweep",), ("yari.thrust", "yari.thrust")]

    def cell(name: str, wounds: float, energy: int) -> ComboCell:
        return ComboCell("w", "near", (f"w.{name}",), wounds, 0.0, energy, True, 0)

    table = ComboTable((cell("a", 1.0, 2), cell("b", 1.0, 1), cell("c", 0.5, 1), cell("a", 0.5, 2)))
    ranked = table.suspicious()
    assert [c.composition for c, _ in ranked] == [("w.b",), ("w.a",), ("w.c",)]
    assert ranked[0][1] == pytest.approx(2.0)  # twice the median composition's Wounds per Energy
    assert [c.composition for c, _ in table.suspicious(per_weapon=1)] == [("w.b",)]


def test_a_combo_table_kept_in_the_store_is_reused_and_reported_without_playing(tmp_path):
    from issoku.evaluation.design.combos import COMBO_TABLE
    from issoku.evaluation.reports.report import write_report
    from issoku.evaluation.games.store import MatchStore

    from .factories import make_record

    table = ComboTable((ComboCell("yari", "near", ("yari.thrust",), 0.9, 0.9, 2.0, True, 0),
                        ComboCell("yari", "far", ("yari.sweep",), 1.8, 1.0, 3.0, False, 50, 0.1)))
    assert ComboTable.from_json(table.to_json()) == table
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert([make_record(("a", "b"), (1.0, -1.0), seed=s, env_id="toy_v0") for s in range(4)])
        store.put_artifact("k1", "toy_v0", COMBO_TABLE, table.to_json())
        store.put_artifact("k1", "toy_v0", COMBO_TABLE, "ignored: the key is taken")
        assert ComboTable.from_json(store.artifact("k1")) == table and store.artifact("k2") is None
        text = write_report(store, tmp_path / "out", bootstrap=10, progress=False).read_text()
    assert "### Suspicious combos" in text and "| 1 | yari: sweep | far |" in text
    assert (tmp_path / "out" / "toy_v0_combos.csv").read_text().count("\n") == 3


def test_combo_usage_counts_seats_whose_breaths_played_the_attacks_in_any_order():
    from issoku.evaluation.design.combos import combo_usage
    from issoku.evaluation.stats.metrics import CompositionSpec

    from .factories import make_record

    breath = ("attack:yari.sweep", "stance:x", "attack:yari.thrust", "end_breath", "take_hit")
    kinds = ("breath", "breath", "breath", "breath", "defend")
    records = [make_record(("p", "q"), (1.0, -1.0), seed=s, actions=(breath, ("attack:yari.thrust", "end_breath")),
                           kinds=(kinds, ("breath", "breath"))) for s in range(3)]
    usage, seats = combo_usage(records, CompositionSpec("breath", ("end_breath",)))
    assert seats == 6
    assert usage[("yari.sweep", "yari.thrust")].n == 3 and usage[("yari.sweep", "yari.thrust")].value == 1.0
    assert usage[("yari.thrust",)].n == 3 and usage[("yari.thrust",)].value == 0.0
