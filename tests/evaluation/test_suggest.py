"""The verified edit that ends a loadout headline (searched over its own content, checked on fresh seeds)."""

from dataclasses import replace
from pathlib import Path

from issoku.evaluation.games.studies import default_studies
from issoku.evaluation.games.config import load_study
from issoku.evaluation.stats.paired import PairedDifference
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.design.levers import Lever
from issoku.evaluation.design.suggest import (FINALISTS, ComboEdit, Suggester, Suggestion, balancing_edit,
                                              closest_edits, edits_store, first_mover_clause, in_scope)
from issoku.rules.variant import NumericField


def _move(base: float, variant: float, low: float, high: float) -> PairedDifference:
    return PairedDifference(base, variant, variant - base, low, high, 0.01, 0.01, 600)


def test_the_clause_is_a_verified_edit_or_says_none_was_found():
    edit = "encounters/data/weapons.toml: ono: damage 0k4 → 0k3"
    verified = Suggestion("ono", 12, 1400, 1500, edit, _move(0.82, 0.56, -0.31, -0.21), 0.51, 0.61, toward=-1,
                          reached=True)
    assert verified.verified and not verified.overshoots
    assert verified.text().startswith(f"try `{edit}`: ono 82% → 56% [51%, 61%] on 600 fresh games (the screened "
                                      "edit closest to even, within ±5 pts of even on a second screen; 12 edits")
    closest = replace(verified, reached=False)
    assert "games (none came within ±5 pts of even on a second screen: the closest; 12 edits" in closest.text()
    inside = replace(verified, low=0.46, high=0.54)
    assert inside.text().startswith(f"try `{edit}`: ono 82% → 56% [46%, 54%] on 600 fresh games, within ±5 pts of "
                                    "even (the screened edit")
    short = replace(verified, low=0.58, high=0.66)
    assert ", still short of ±5 pts of even (" in short.text()
    past = Suggestion("ono", 12, 1400, 1500, edit, _move(0.82, 0.30, -0.57, -0.47), 0.25, 0.35, toward=-1)
    assert past.verified and past.overshoots
    assert past.text().startswith(f"try `{edit}` with care: ono 82% → 30% [25%, 35%] on 600 fresh games, past even "
                                  "(it overshoots")
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


def test_a_dominant_loadouts_search_finds_an_edit_verified_on_fresh_seeds_and_a_rerun_plays_nothing(tmp_path,
                                                                                                      monkeypatch):
    """The edit verified is the second screen's pick among the first screen's finalists, on other seeds."""
    screens = []
    screen = Suggester._screen

    def spy(self, tournament, todo, levers, figure, keep_inert=False):
        screens.append((tournament.base_seed, [str(lever.change) for lever in levers]))
        return screen(self, tournament, todo, levers, figure, keep_inert)

    monkeypatch.setattr(Suggester, "_screen", spy)
    studies = [load_study(path) for path in default_studies()]
    db = edits_store(tmp_path / "matches.sqlite")
    assert db.name == "matches.edits.sqlite"
    with MatchStore(db) as store:
        found = Suggester(studies, store, tmp_path, budget=1500).search("encounter_duel_v0", "ono", [], toward=-1)
        played = store.count()
    assert found.verified and found.spent <= 1500 and found.fresh is not None
    (first_seed, screened), (second_seed, finalists) = screens
    assert first_seed != second_seed and 1 <= len(finalists) <= FINALISTS and set(finalists) <= set(screened)
    assert found.change in finalists
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


def _lever(name: str) -> Lever:
    return Lever(name, Path(name), NumericField("f.toml", (name,), 1))


def test_the_search_verifies_the_edit_the_screen_puts_closest_to_even_the_smaller_move_on_a_tie():
    """From the headline's 82 %: a step of −30 points lands at 52 %, one of −45 at 37 % (past even), one of −10 at
    72 %: the 52 % one is verified, within the band; two that end as close to even: the smaller move."""
    big, right, small = _lever("big"), _lever("right"), _lever("small")
    moves = [(_move(0.80, 0.35, -0.5, -0.4), big), (_move(0.80, 0.50, -0.35, -0.25), right),
             (_move(0.80, 0.70, -0.15, -0.05), small)]
    assert balancing_edit(moves, 0.82, 0.05) == (right, True)
    twins = [(_move(0.80, 0.44, -0.41, -0.31), big), (_move(0.80, 0.52, -0.33, -0.23), right)]  # 46 % and 54 %
    assert balancing_edit(twins, 0.82, 0.05) == (right, True)  # as close to even: the smaller move, not past even
    assert balancing_edit([moves[0], moves[2]], 0.82, 0.05) == (big, False)  # 37 % is closer to even than 72 %
    far = (_move(0.80, 0.25, -0.6, -0.5), big)  # 27 %: past even, farther than 72 %
    assert balancing_edit([far, moves[2]], 0.82, 0.05) == (small, False)
    assert balancing_edit([moves[2]], None, 0.05) == (small, False)  # no headline score: from the screen's own 80 %


def test_the_finalists_are_the_screens_closest_to_even_the_smaller_move_first():
    near, nearer, far = _lever("near"), _lever("nearer"), _lever("far")
    moves = [(_move(0.80, 0.60, -0.25, -0.15), near), (_move(0.80, 0.20, -0.65, -0.55), far),
             (_move(0.80, 0.47, -0.38, -0.28), nearer)]  # from 82 %: 62 %, 22 %, 49 %
    assert [lever for _, lever in closest_edits(moves, 0.82, 2)] == [nearer, near]
    assert [lever for _, lever in closest_edits(moves, 0.82, 5)] == [nearer, near, far]


def test_the_first_mover_says_no_data_number_is_in_its_scope():
    assert first_mover_clause(1500, []) == ("no edit found within a 1,500-game budget (no number of its data is in "
                                            "scope: the edge is settled by the initiative rules it rests on, a rules "
                                            "choice, not a data field)")


def test_a_restriction_headline_searches_its_actions_content_with_the_batterys_own_policy(tmp_path):
    """The battery's policy (the shipped learned agent) restricted as the battery restricted it, against itself, on
    each edit of the restricted technique's numbers; a restriction whose actions carry no data number says so."""
    from issoku.evaluation.reports.findings import Finding

    studies = [load_study(path) for path in default_studies()]
    with MatchStore(tmp_path / "edits.sqlite") as store:
        suggester = Suggester(studies, store, tmp_path, budget=400)
        found = suggester.restriction("breath_duel_v0", "learned", ("attack:uchigatana.thrust",),
                                      ["technique:uchigatana.thrust"], 1, 0.45)
        assert found.fresh is not None and 0 < found.spent <= 400 and found.candidates >= 1
        assert found.change.startswith("breath/data/weapons.toml: uchigatana / thrust: ")
        assert found.label == "learned -attack:uchigatana.thrust" and found.agents == "learned or imported agents"
        played = store.count()
        leans = Finding("breath_duel_v0", "learned without **yield**", 0.245, 0.15, 0.32, "learned or imported",
                        about=("actions", "yield"), players=("learned",))
        assert suggester.clause(leans, ["yield"]) == (
            "no edit found within a 400-game budget (no number of `yield` is in the files its env reads: the rules it "
            "rests on set it)")
        first = Finding("breath_duel_v0", "first mover's score", 0.09, 0.04, 0.14, "scripted", about=("first",))
        assert suggester.clause(first, []) == first_mover_clause(400, [])
        assert store.count() == played
