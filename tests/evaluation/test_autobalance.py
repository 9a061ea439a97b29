"""``issoku autobalance`` and the levers of the planted exploits."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.design.autobalance import (EDITS, LOCAL, Figures, Search, Targets, Trial, autobalance, elo, expected, gain,
                                          load_targets, missing_loadouts, plateau)
from issoku.evaluation.games.config import build_tournament
from issoku.evaluation.design.edits import EditedField, edited_fields
from issoku.evaluation.design.levers import Lever, field_rank, loadouts_study, run_levers
from issoku.evaluation.design.locality import ownership
from issoku.evaluation.stats.metrics import balanced_first_mover
from issoku.evaluation.stats.paired import PairedDifference
from issoku.evaluation.design.variants import Shift
from issoku.common.outcomes import wilson
from issoku.rules.kernel.content import DataError
from issoku.rules.variant import (Change, NumericField, Variant, data_diff, numeric_fields, shipped_files,
                                  write_override, write_overrides)

PLANTED = Path(__file__).resolve().parents[1] / "data" / "variants"
ARMOUR = "tempo/data/armour.toml"


@pytest.mark.parametrize(("name", "file", "value"), [("attack_ninjato_cut", "breath/data/weapons.toml", 5),
                                                     ("tempo_spear_counter_ap", "tempo/data/weapons.toml", 1)])
def test_a_planted_field_the_shipped_file_leaves_out_is_a_lever_at_its_schema_value(tmp_path, name, file, value):
    planted = data_diff(Variant(), Variant(PLANTED / name))
    assert len(planted) == 1 and str(planted[0]).count("(absent)") == 1
    absent = [f for f in numeric_fields(file, defaults=True) if f.absent]
    assert not any(f.absent for f in numeric_fields(file))  # only with defaults
    found = [f for f in absent if str(data_diff(Variant(), write_override(tmp_path / f"{len(f.address)}", f, value)
                                                )[0]) == str(planted[0])]
    assert len(found) == 1
    # the schema's value: a technique's check_bonus 0; an action left out of ap_by_action costs the weapon's ap 4
    assert found[0].value == (0 if name == "attack_ninjato_cut" else 4)


def test_a_lever_of_a_variant_is_that_variant_with_one_edit(tmp_path):
    base = Variant(PLANTED / "tempo_spear_counter_ap")
    rating = next(f for f in numeric_fields(ARMOUR, base) if f.address == ("armour", "medium", "rating"))
    lever = write_override(tmp_path / "lever", rating, 5, base)
    assert set(lever.files) == {ARMOUR, "tempo/data/weapons.toml"}  # the base's own edit comes along
    assert [str(c) for c in data_diff(base, lever)] == [f"{ARMOUR}: medium: rating 4 → 5"]
    counter = next(f for f in numeric_fields("tempo/data/weapons.toml", base)
                   if f.address[-2:] == ("ap_by_action", "counter_attack"))
    assert counter.value == 1 and not counter.absent  # the variant sets it: an ordinary number of the variant


def test_levers_of_the_exploited_armour_rank_the_planted_field_first(tmp_path):
    # levers of the exploited rules (medium rating 8) at the mistype's scale (±4): the planted field leads
    study = loadouts_study("tempo_duel_v0")
    ranked, _ = run_levers(study, 2000, tmp_path / "l", tmp_path / "l.sqlite", step=4, files=[ARMOUR],
                           variant=PLANTED / "armour_tempo_medium")
    assert field_rank(ranked, ARMOUR, "medium", "rating") == 1
    assert ranked[0].name == f"{ARMOUR}: medium: rating 8 → 4"


def lever_moving(**deltas):
    number = NumericField(ARMOUR, ("armour", "medium", "rating"), 8)
    shifts = [Shift("tempo_duel_v0", f"loadout {name}: score", (name,), "rate",
                    PairedDifference(0.5, 0.5 + delta, delta, delta - 0.1, delta + 0.1, 1.0, 1.0, 80))
              for name, delta in deltas.items()]
    return Lever(Change(ARMOUR, "medium", "rating", 8, 7), Path("unused"), number, shifts=shifts)


def trial_scoring(**scores):
    figures = Figures({name: wilson(round(score * 100), 100) for name, score in scores.items()},
                      balanced_first_mover([]), 100)
    return Trial((), None, figures, {f"loadout {name}": (0.45, 0.55) for name in scores})


def test_the_biggest_miss_comes_first_and_gain_is_the_excess_a_move_removes():
    current = trial_scoring(knight=0.40, spearman=0.70, fencer=0.50)
    assert missing_loadouts(current) == ["spearman", "knight"]  # 15 points over, 5 under; the fencer is in
    assert gain(current, lever_moving(spearman=-0.15)) == pytest.approx(0.15)  # into the band: all of it
    assert gain(current, lever_moving(spearman=-0.35)) == pytest.approx(0.15 - 0.10)  # 10 past the far edge
    assert gain(current, lever_moving(spearman=+0.05)) == pytest.approx(-0.05)  # the wrong way
    assert gain(current, lever_moving(fencer=0.3)) == 0  # figures in their band are left out


def test_a_step_that_moves_no_targeted_figure_is_a_plateau():
    assert plateau(lever_moving(spearman=0.0, knight=0.0))
    assert not plateau(lever_moving(spearman=0.0, knight=0.01))
    assert not plateau(lever_moving())  # not played: no evidence either way


class ScriptedSearch(Search):
    """A search whose trials score the spearman as scripted (no game played)."""

    def __init__(self, tmp_path, scores):
        super().__init__(loadouts_study("tempo_duel_v0"), Variant(), tmp_path, None, 20, 0)
        self.scores = list(scores)

    def measure(self, edits, folder, phase="search", stage=""):
        trial = trial_scoring(spearman=self.scores.pop(0))
        return Trial(edits, folder, trial.figures, trial.bands, phase, stage)


@pytest.mark.parametrize(("scores", "values"), [
    ((0.65, 0.60, 0.62, 0.61), [7, 6, 5, 4]),  # halves the miss, then two steps that do not beat it: stop
    ((0.65, 0.67, 0.58, 0.50), [7, 6, 5, 4]),  # one noisy step does not stop a field that helps; met at 4
])
def test_a_field_is_walked_on_past_one_step_that_does_not_help(tmp_path, scores, values):
    search = ScriptedSearch(tmp_path, scores)
    lever = lever_moving(spearman=-0.05)  # medium rating 8 → 7
    walked = list(search.steps(trial_scoring(spearman=0.70), lever, lambda line: None, 10**9, LOCAL))
    assert [trial.edits[-1][1] for trial in walked] == values
    assert all(trial.stage == LOCAL for trial in walked)


def test_elo_and_expected_score_are_inverse():
    assert expected(0) == 0.5 and abs(elo(expected(75)) - 75) < 1e-9 and elo(1.0) == pytest.approx(1000)


def owned_addresses(env, labels, variant=None):
    owned = ownership(build_tournament(loadouts_study(env)).loadouts, labels, Variant(variant), shipped_files())
    return {(n.file, n.address) for f in shipped_files() for n in numeric_fields(f, Variant(variant)) if owned.owns(n)}


def test_a_loadout_owns_its_sheet_and_what_the_sheet_names_not_what_those_name():
    spearman = owned_addresses("tempo_duel_v0", ["spearman"])
    assert (ARMOUR, ("armour", "medium", "rating")) in spearman  # the armour the sheet names
    assert ("tempo/data/weapons.toml", ("weapons", "spear", "ap")) in spearman  # its weapon
    assert ("tempo/data/fighters.toml", ("fighters", "spearman", "melee")) in spearman  # the sheet itself
    assert not any(address[1] in ("light", "longsword", "fencer") for _, address in spearman)
    assert not any(file.startswith("breath/") for file, _ in spearman)  # same names in another ruleset
    nodachi = owned_addresses("breath_duel_v0", ["nodachi"])  # the ronin's sheet, breath arrays by index
    files = {file for file, _ in nodachi}
    assert {"breath/data/archetypes.toml", "breath/data/weapons.toml", "breath/data/stances.toml"} <= files
    weapons = {address[1] for file, address in nodachi if file == "breath/data/weapons.toml"}
    assert len(weapons) == 1  # the nodachi alone: its guard stance's whitelist names three more, not followed
    assert "breath/data/maneuvers.toml" not in files  # the common table: no sheet names it


def test_autobalance_on_the_exploited_armour_patches_the_planted_field_first_and_is_deterministic(tmp_path):
    study = loadouts_study("tempo_duel_v0")
    targets = Targets(reference_elo_within=50)
    runs = []
    for name in ("a", "b"):
        outcome = autobalance(study, targets, tmp_path / name, tmp_path / f"{name}.sqlite", 6000,
                              variant=PLANTED / "armour_tempo_medium", games=20, verify_games=20, files=[ARMOUR],
                              screen_games=4)
        runs.append(outcome)
    first = runs[0]
    assert first.changes and (first.changes[0].file, first.changes[0].item, first.changes[0].field) == (
        ARMOUR, "medium", "rating")
    assert first.changes[0].after < 8  # back towards the shipped 4
    # the edits stage came first: the variant's one edited field, walked back toward its shipped 4, no screen
    # (one field), and no local or wide stage was needed
    assert first.best.stage == EDITS and all(trial.stage == EDITS for trial in first.trials if trial.phase == "search")
    assert first.stages == [first.stages[0]] and first.stages[0].startswith("round 1, edits: ")
    assert "armour.medium.rating (shipped 4)" in first.stages[0]
    assert not (tmp_path / "a" / "levers").exists()
    report = (tmp_path / "a" / "autobalance.md").read_text()
    assert "Found by the edits stage (reverting part of your edit" in report and "Edits stage first" in report
    assert ",edits," in (tmp_path / "a" / "autobalance.csv").read_text()
    assert first.base.distance > 0 and first.verified.phase == "verify"
    assert first.spent <= 6000
    for produced in ("autobalance.csv", "patch/tempo/data/armour.toml"):
        assert (tmp_path / "a" / produced).read_bytes() == (tmp_path / "b" / produced).read_bytes(), produced
    assert "## The patch (What changed)" in (tmp_path / "a" / "autobalance.md").read_text()


def test_targets_already_met_need_no_patch(tmp_path):
    study = loadouts_study("tempo_duel_v0")
    outcome = autobalance(study, Targets(loadout_elo_within=1000), tmp_path / "o", tmp_path / "o.sqlite", 2000,
                          games=4, verify_games=4, files=[ARMOUR])
    assert outcome.patch is None and outcome.changes == [] and outcome.verified.misses() == []
    assert not (tmp_path / "o" / "patch").exists()


@pytest.mark.parametrize(("text", "field"), [
    ("loadout_elo_within = 75\nfirst_movr = [0.45, 0.55]\n", "first_movr"),
    ("first_mover = [0.6, 0.4]\n", "first_mover"),
    ("loadout_elo_within = -5\n", "loadout_elo_within"),
    ("loadouts = ['fencer']\n", "(top level)"),
    ("reference_elo_within = 50\nreference = 'no/such/folder'\n", "reference"),
    ("loadout_elo_within = 75\nloadouts = ['samurai']\n", "loadouts"),
    ("loadout_elo_within = [75\n", "(syntax)"),
])
def test_a_bad_targets_file_is_one_line_naming_file_and_field_exit_2(tmp_path, text, field):
    path = tmp_path / "targets.toml"
    path.write_text(text)
    result = CliRunner().invoke(app, ["autobalance", "--env", "tempo_duel_v0", "--target", str(path),
                                      "--out", str(tmp_path / "out"), "--budget", "100000"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("autobalance: ") and str(path) in lines[0], lines
    assert field in lines[0], lines[0]
    assert not (tmp_path / "out").exists()


def test_load_targets_refuses_a_file_that_sets_no_target(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text("reference = 'shipped'\n")
    with pytest.raises(DataError, match="no target set"):
        load_targets(path)


def test_bad_options_are_one_line_exit_2(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text("loadout_elo_within = 75\n")
    for args in (["--env", "nope"], ["--env", "tempo_duel_v0", "--budget", "10"],
                 ["--env", "encounter_duel_v0", "--budget", "10"], ["--env", "tempo_duel_v0", "--file", "nope.toml"],
                 ["--env", "tempo_duel_v0", "--variant", str(tmp_path / "missing")],
                 ["--env", "tempo_duel_v0", "--screen-games", "0"], ["--env", "tempo_duel_v0", "--screen-games", "3"]):
        result = CliRunner().invoke(app, ["autobalance", "--target", str(path), *args, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("autobalance: "), result.output
        assert "--screen-games" in result.output or "--screen-games" not in args, result.output
    assert not (tmp_path / "o").exists()


def test_the_edited_fields_of_the_planted_exploits_are_the_planted_fields_with_their_shipped_values():
    found = {name: edited_fields(Variant(PLANTED / name)) for name in ("armour_tempo_medium", "attack_ninjato_cut",
                                                                       "tempo_spear_counter_ap")}
    assert found["armour_tempo_medium"] == [EditedField(ARMOUR, ("armour", "medium", "rating"), 4)]
    # absent from the shipped file: compared at the schema's value (a technique's check_bonus 0; the weapon's ap)
    assert [(f.address[-1], f.shipped) for f in found["attack_ninjato_cut"]] == [("check_bonus", 0)]
    assert [(f.address[-1], f.shipped) for f in found["tempo_spear_counter_ap"]] == [("counter_attack", 4)]
    assert edited_fields(Variant(PLANTED / "armour_tempo_medium"), Variant(PLANTED / "armour_tempo_medium")) == []


def test_an_edited_field_is_walked_back_to_its_shipped_value_without_patience(tmp_path):
    # the spear's counter_attack 1 (the shipped price: the spear's ap 4): 2, 3, 4 although no step helps
    search = ScriptedSearch(tmp_path, (0.70, 0.72, 0.75))
    planted = PLANTED / "tempo_spear_counter_ap"
    current = trial_scoring(spearman=0.70)
    current = Trial((), planted, current.figures, current.bands)
    (edited,) = edited_fields(Variant(planted))
    walked = list(search.revert(current, edited, lambda line: None, 10**9))
    assert [trial.edits[-1][1] for trial in walked] == [2, 3, 4] and all(t.stage == EDITS for t in walked)


def test_an_edit_whose_undoing_misses_the_target_goes_on_to_the_local_stage(tmp_path):
    # the variant edits the knight's heavy armour (two fields); the brawler (light armour) misses its target
    # under the shipped rules too, so walking the edits back cannot meet it: the brawler's content comes next
    heavy = {f.address[-1]: f for f in numeric_fields(ARMOUR) if f.address[:2] == ("armour", "heavy")}
    variant = write_overrides(tmp_path / "variant", [(heavy["encumbrance"], 4), (heavy["rating"], 7)]).root
    outcome = autobalance(loadouts_study("tempo_duel_v0"), Targets(loadout_elo_within=100, loadouts=("brawler",)),
                          tmp_path / "o", tmp_path / "o.sqlite", 4000, variant=variant, games=4, verify_games=4,
                          max_fields=1, files=[ARMOUR], screen_games=2)
    assert outcome.stages[0].startswith("round 1, edits: ") and outcome.stages[1].startswith("round 1, local: ")
    assert "4 levers screened at 2 games per pairing" in outcome.stages[0]  # two fields: screened, then walked
    assert (tmp_path / "o" / "levers" / "0-0-edits" / "levers.csv").exists()
    reverted = {trial.edits[-1][0].address[-1]: trial for trial in outcome.trials if trial.stage == EDITS}
    assert {name: trial.edits[-1][1] for name, trial in reverted.items()} == {"encumbrance": 3, "rating": 6}
    assert all(trial.distance > 0 for trial in reverted.values())
    assert "brawler" in outcome.stages[1] and outcome.best.stage != EDITS
    assert "light: rating" in (tmp_path / "o" / "levers" / "0-1-local" / "levers.csv").read_text()


def test_without_a_variant_there_is_no_edits_stage_and_the_report_says_so(tmp_path):
    outcome = autobalance(loadouts_study("tempo_duel_v0"), Targets(loadout_elo_within=1000), tmp_path / "o",
                          tmp_path / "o.sqlite", 2000, games=4, verify_games=4, files=[ARMOUR])
    assert outcome.edits_note.startswith("No edits stage: no --variant,")
    assert outcome.edits_note in (tmp_path / "o" / "autobalance.md").read_text()


@pytest.mark.parametrize("study", ["2_breath_duel_v0_loadouts.toml", "4_tempo_duel_v0_loadouts.toml",
                                   "6_encounter_duel_v0_loadouts.toml", "teams/tempo_skirmish_v0_2v2.toml"])
def test_locality_and_the_rulesets_seat_content_name_the_same_items_where_both_apply(study):
    # two readings of what a loadout owns (locality from the data, autobalance's; seat_content from the ruleset,
    # levers' and the variant report's) must not drift apart where both see the same thing (docs/balance.md,
    # "Two readings of what a loadout owns": casters are where they differ). Locality reads only the files of the
    # env's ruleset (data_files): the encounter kenshi and archer share their names with a breath and a tempo sheet.
    from issoku.evaluation.games.config import load_study
    from issoku.evaluation.design.variants import data_files, seat_content

    tournament = build_tournament(load_study(Path(__file__).resolve().parents[2] / "evaluation" / "studies" / study))
    content = seat_content(tournament)
    for label in content:
        owned = ownership(tournament.loadouts, [label], Variant(), data_files(tournament))
        assert {item.name for item in owned.reached} | {label} == content[label], label
        assert len(content[label]) > 1, label  # the ruleset's hook, not the label alone
