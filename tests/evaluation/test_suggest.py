"""The verified edit that ends a loadout headline (searched over its own content, checked on fresh seeds)."""

from issoku.evaluation.games.studies import default_studies
from issoku.evaluation.games.config import load_study
from issoku.evaluation.stats.paired import PairedDifference
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.design.suggest import ComboEdit, Suggester, Suggestion, edits_store, in_scope
from issoku.rules.variant import NumericField


def _move(base: float, variant: float, low: float, high: float) -> PairedDifference:
    return PairedDifference(base, variant, variant - base, low, high, 0.01, 0.01, 600)


def test_the_clause_is_a_verified_edit_or_says_none_was_found():
    edit = "encounters/data/weapons.toml: ono: damage 0k4 → 0k3"
    verified = Suggestion("ono", 12, 1400, 1500, edit, _move(0.82, 0.56, -0.31, -0.21), 0.51, 0.61, toward=-1)
    assert verified.verified
    assert verified.text().startswith(f"try `{edit}`: ono 82% → 56% [51%, 61%] on 600 fresh games (12 edits")
    wrong_way = Suggestion("ono", 12, 1400, 1500, edit, _move(0.82, 0.90, 0.03, 0.13), 0.85, 0.94, toward=-1)
    unsure = Suggestion("ono", 12, 1400, 1500, edit, _move(0.82, 0.79, -0.08, 0.02), 0.74, 0.83, toward=-1)
    for clause in (wrong_way.text(), unsure.text()):
        assert clause.startswith("no edit verified within a 1,500-game budget (best screened: `encounters/")
    assert Suggestion("ono", 0, 0, 1500, why="no number in scope").text() == \
        "no edit found within a 1,500-game budget (no number in scope)"


def test_the_scope_is_the_headlines_data_first_then_the_loadouts_own_numbers():
    strike = NumericField("breath/data/weapons.toml", ("weapon", 9, "technique", 0, "cost"), 1)
    shove = NumericField("breath/data/weapons.toml", ("weapon", 9, "technique", 1, "cost"), 1)
    finesse = NumericField("breath/data/archetypes.toml", ("archetypes", "wildman", "finesse"), 2)
    other = NumericField("breath/data/archetypes.toml", ("archetypes", "kenshi", "finesse"), 3)
    names = {strike: "breath/data/weapons.toml: unarmed / strike: cost",
             shove: "breath/data/weapons.toml: unarmed / shove: cost",
             finesse: "breath/data/archetypes.toml: wildman: finesse", other: "breath/data/archetypes.toml: kenshi: finesse"}
    owns = {strike, shove, finesse}.__contains__
    assert in_scope([finesse, other, shove, strike], names, ["technique:unarmed.strike"], owns) == \
        [strike, finesse, shove]


def test_a_dominant_loadouts_search_finds_an_edit_verified_on_fresh_seeds_and_a_rerun_plays_nothing(tmp_path):
    studies = [load_study(path) for path in default_studies()]
    db = edits_store(tmp_path / "matches.sqlite")
    assert db.name == "matches.edits.sqlite"
    with MatchStore(db) as store:
        found = Suggester(studies, store, tmp_path, budget=1500).search("encounter_duel_v0", "ono", [], toward=-1)
        played = store.count()
    assert found.verified and found.spent <= 1500 and found.fresh is not None
    assert found.fresh.variant < found.fresh.base and found.fresh.n >= 300  # fresh games, the ono brought down
    assert any(owned in found.change for owned in ("ono_brute", "ono:", "heavy")), found.change  # its own content
    with MatchStore(db) as store:
        again = Suggester(studies, store, tmp_path, budget=1500).search("encounter_duel_v0", "ono", [], toward=-1)
        assert store.count() == played  # cached: the rerun plays nothing
    assert again.text() == found.text()


def test_a_combo_clause_is_a_verified_weakening_or_says_none_was_found():
    edit = "breath/data/weapons.toml: kodachi / flurry_cut: cost 1 → 2"
    done = ComboEdit("kodachi: flurry_cut", 2, edit, (1.99, 1.95, 2.03), (1.00, 0.97, 1.02))
    assert done.verified and done.text() == (f"try `{edit}`: 1.99× → 1.00× the median [0.97, 1.02] (2 edits of its "
                                             "techniques computed on a fresh seed)")
    overlapping = ComboEdit("kodachi: flurry_cut", 2, edit, (1.99, 1.80, 2.20), (1.90, 1.70, 2.10))
    assert not overlapping.verified and overlapping.text().startswith("no edit verified (best: `breath/")
    assert ComboEdit("kodachi: flurry_cut", 0, why="nothing").text() == "no edit found (nothing)"


def test_the_most_suspicious_combo_is_weakened_by_its_own_techniques_numbers(tmp_path):
    from issoku.evaluation.reports.commands import study_combo_table

    studies = [load_study(path) for path in default_studies()]
    study = next(s for s in studies if s.combo_table)
    with MatchStore(tmp_path / "m.sqlite") as store:
        table = study_combo_table(study, store, 0, False)
        cell, ratio = table.suspicious()[0]
        found = Suggester(studies, store, tmp_path, combo_tables={study.env: table}).combo(
            study.env, tuple(sorted(cell.composition)), [])
    assert found.candidates >= 1 and found.change.startswith("breath/data/weapons.toml: " + cell.weapon)
    assert found.verified and found.after[0] < found.before[0]
