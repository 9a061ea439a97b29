"""``balance-report --variant``: paired comparison of two rules versions on the same seeds."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.games.studies import study_from_options
from issoku.evaluation.games.config import build_tournament
from issoku.evaluation.stats.paired import holm, paired_difference
from issoku.evaluation.design.variants import NOT_READ, UNCHANGED, compare, read_headlines, versions

from .toy_env import toy_tournament

REPO = Path(__file__).resolve().parents[2]
VARIANTS = REPO / "tests" / "data" / "variants"
STUDIES = REPO / "evaluation" / "studies"


def test_paired_difference_and_holm_by_hand():
    same = paired_difference([1, 0, 1, 0], [1, 0, 1, 0])
    assert same.delta == 0 and same.p == 1 and not same.significant
    shifted = paired_difference([0] * 10, [1] * 10)
    assert shifted.delta == 1 and shifted.p == 0 and shifted.significant
    noisy = paired_difference([0, 0, 0, 0], [1, 0, 1, 0])
    assert 0 < noisy.p < 1 and noisy.low < 0.5 < noisy.high
    corrected = holm([noisy, shifted, same])
    # Holm: the smallest p times 3, the next times 2 (never below the one before), the largest times 1.
    assert corrected[1].p_adjusted == 0
    assert corrected[0].p_adjusted == pytest.approx(min(1, 2 * noisy.p))
    assert corrected[2].p_adjusted == 1


@pytest.mark.parametrize("variant, field, loadout", [
    ("armour_tempo_medium", "medium: rating 4 → 8", "spearman"),
    ("tempo_spear_counter_ap", "spear / ap_by_action: counter_attack (absent) → 1", "spearman"),
])
def test_a_planted_exploit_is_headlined_with_its_field_and_loadout(tmp_path, variant, field, loadout):
    study = study_from_options(STUDIES / "4_tempo_duel_v0_loadouts.toml", games_per_pair=20)
    report = compare([("loadouts", study)], VARIANTS / variant, tmp_path / "m.sqlite", tmp_path / "out",
                     workers=0, progress=False)
    first = read_headlines(report)[0]
    assert f"loadout {loadout}: score" in first and field in first, first
    assert first.startswith("tempo_duel_v0 (loadouts): IMBALANCED move, severe: ") and "(scripted agents)." in first
    text = report.read_text()
    assert text.index("## What changed") < text.index("## Headlines")
    assert (tmp_path / "out" / "variant_figures.csv").exists()
    assert first.split(": score")[0] in (tmp_path / "out" / "report.html").read_text()  # the same report as HTML


def test_the_versions_stay_apart_in_the_store_and_the_base_is_reused(tmp_path):
    study = study_from_options(STUDIES / "4_tempo_duel_v0_loadouts.toml", games_per_pair=2)
    compare([("loadouts", study)], VARIANTS / "armour_tempo_medium", tmp_path / "m.sqlite", tmp_path / "a",
            workers=0, progress=False)
    from issoku.evaluation.games.store import MatchStore

    with MatchStore(tmp_path / "m.sqlite") as store:
        fingerprints = {(r.loadout, r.rules_fingerprint) for r in store.records()}
        assert store.count() == 2 * 40 and len(fingerprints) == 2 * 20
    # against another variant as base: the first variant's games are reused, only the new one plays
    compare([("loadouts", study)], VARIANTS / "tempo_spear_counter_ap", tmp_path / "m.sqlite", tmp_path / "b",
            base=VARIANTS / "armour_tempo_medium", workers=0, progress=False)
    text = (tmp_path / "b" / "report.md").read_text()
    assert "tempo/data/armour.toml: medium: rating 8 → 4" in text
    assert "spear / ap_by_action: counter_attack (absent) → 1" in text
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert store.count() == 3 * 40


def test_the_default_studies_compare_and_say_which_were_not_played_and_why(tmp_path):
    # A tempo variant leaves the breath and encounter rules as shipped: their studies are not played, and said so.
    result = CliRunner().invoke(app, ["balance-report", "--variant", str(VARIANTS / "armour_tempo_medium"), "-n", "2",
                                      "-j", "0", "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / "report.md").read_text()
    assert "## tempo_duel_v0: 4_tempo_duel_v0_loadouts" in text
    assert "encounter_duel_v0: 5_encounter_duel_v0_policies (the variant leaves its rules unchanged)" in text
    assert "breath_duel_v0: 2_breath_duel_v0_loadouts (the variant leaves its rules unchanged)" in text
    assert "## encounter_duel_v0" not in text and "## breath_duel_v0" not in text


def test_an_env_factory_without_a_variant_keyword_is_not_compared_and_an_untouched_one_is_unchanged():
    assert versions(toy_tournament(), "take_away", None, VARIANTS / "armour_tempo_medium") == NOT_READ
    breath = study_from_options(STUDIES / "2_breath_duel_v0_loadouts.toml", games_per_pair=2)
    assert versions(build_tournament(breath), "breath_duel_v0", None, VARIANTS / "armour_tempo_medium") == UNCHANGED
    pair = versions(build_tournament(breath), "breath_duel_v0", None, VARIANTS / "defence_nodachi_parry")
    assert not isinstance(pair, str) and [t.loadouts[0].kwargs.get("variant") for t in pair] == [
        None, str(VARIANTS / "defence_nodachi_parry")]


def test_a_bad_variant_is_one_line_exit_2_and_nothing_is_played(tmp_path):
    bad = tmp_path / "bad" / "tempo" / "data"
    bad.mkdir(parents=True)
    (bad / "armour.toml").write_text("[armour.none]\nrating = 0\nencumbrance = 0\nweight = 2\n")
    result = CliRunner().invoke(app, ["balance-report", "--variant", str(tmp_path / "bad"),
                                      "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "armour.toml: armour.none.weight: Extra inputs" in lines[0], result.output
    assert not (tmp_path / "m.sqlite").exists()


@pytest.mark.parametrize("file, old, new, problem", [
    ("armour.toml", "[armour.heavy]\nbonus = 10", "[armour.heavy]\nbonus = 10\nweight = 2",
     "armour.toml: armour.heavy.weight: Extra inputs"),
    ("archetypes.toml", 'weapon = "ono"', 'weapon = "tetsubo"',
     "archetypes.toml: archetypes.ono_brute.weapon: unknown weapon 'tetsubo'"),
])
def test_a_bad_encounter_variant_is_one_line_exit_2_and_nothing_is_played(tmp_path, file, old, new, problem):
    bad = tmp_path / "bad" / "encounters" / "data"
    bad.mkdir(parents=True)
    text = (REPO / "rules" / "encounters" / "data" / file).read_text()
    assert old in text
    (bad / file).write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(app, ["balance-report", "--variant", str(tmp_path / "bad"),
                                      "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and problem in lines[0], result.output
    assert not (tmp_path / "m.sqlite").exists()


def test_a_planted_encounter_armour_edit_is_headlined_with_its_field_and_the_loadout_that_wears_it(tmp_path):
    # heavy armour's bonus 10 → 25: only the ono's ono_brute wears it (its seat_content: ono_brute, ono, heavy)
    study = study_from_options(STUDIES / "6_encounter_duel_v0_loadouts.toml", games_per_pair=4)
    report = compare([("loadouts", study)], VARIANTS / "encounter_armour_heavy_bonus", tmp_path / "m.sqlite",
                     tmp_path / "out", workers=0, progress=False)
    first = read_headlines(report)[0]
    assert first.startswith("encounter_duel_v0 (loadouts): ") and "loadout ono: score" in first, first
    assert "after encounters/data/armour.toml: heavy: bonus 10 → 25 (scripted agents)." in first, first
    assert "+" in first.split("loadout ono: score")[1].split("pts")[0]  # the ono's score rose


def _report(tmp: Path, hashseed: str, *args: str) -> str:
    for name in ("m.sqlite", "m.sqlite-wal", "m.sqlite-shm"):
        (tmp / name).unlink(missing_ok=True)
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    subprocess.run([sys.executable, "-m", "issoku", "balance-report", *args, "--db", str(tmp / "m.sqlite"),
                    "--out", str(tmp / "out"), "-j", "0", "--bootstrap", "20"], check=True, env=env, cwd=REPO,
                   capture_output=True)
    return "\n".join(line for line in (tmp / "out" / "report.md").read_text().splitlines()
                     if not line.startswith("Written "))


def test_reports_are_byte_identical_under_different_hash_seeds(tmp_path):
    study = tmp_path / "study.toml"
    study.write_text((STUDIES / "3_tempo_duel_v0_policies.toml").read_text()
                     .replace("games = 100", "games = 2").replace("games_per_pair = 100", "games_per_pair = 4"))
    plain = [_report(tmp_path, seed, "--study", str(study)) for seed in ("1", "2")]
    assert plain[0] == plain[1] and "### Restricted play" in plain[0]
    variant = [_report(tmp_path, seed, "--study", str(study), "--variant", str(VARIANTS / "armour_tempo_medium"))
               for seed in ("3", "4")]
    assert variant[0] == variant[1] and "## What changed" in variant[0]


def test_a_team_label_owns_the_content_of_every_fighter_on_its_team():
    # a team fight's tournament seat is a team: "blades" is the fencer and the knight, never the other team's archer
    from issoku.evaluation.games.config import build_tournament, load_study
    from issoku.evaluation.design.variants import seat_content

    study = load_study(STUDIES / "teams" / "tempo_skirmish_v0_2v2.toml").model_copy(update={"games_per_pair": 2})
    content = seat_content(build_tournament(study))
    assert content["blades"] == {"blades", "fencer", "longsword", "light", "knight", "arming_sword", "heavy"}
    assert content["shooters"] == {"shooters", "archer", "bow", "light", "crossbowman", "crossbow", "medium"}


def test_an_edit_no_agent_plays_is_untested_by_play_never_balanced(tmp_path):
    """The Ma heuristic never declares a costed stance: under stance_spear_wall_guard its games are twins of the
    base's, so the study is no evidence, and the report says so instead of "moved < δ"."""
    from issoku.evaluation.games.config import StudyConfig

    study = StudyConfig.model_validate({
        "env": "breath_duel_v0", "policies": ["ma_heuristic"], "mirrors": True, "games_per_pair": 4,
        "loadout_grid": {"seat_key": "fighters", "labels": ["yari", "uchigatana"],
                         "templates": {"yari": "ashigaru", "uchigatana": "kenshi"}}})
    report = compare([("loadouts", study)], VARIANTS / "stance_spear_wall_guard", tmp_path / "m.sqlite",
                     tmp_path / "out", workers=0, progress=False)
    assert read_headlines(report) == [
        "breath_duel_v0 (loadouts): UNTESTED BY PLAY: the edit changed no decision of its 8 paired games (scripted "
        "agents never played what it touches), so they are no evidence of balance or imbalance."]
    text = report.read_text()
    assert "| moved < δ" not in text and "| untested by play |" in text
    assert "untested by play" in (tmp_path / "out" / "variant_figures.csv").read_text()


def test_a_variant_names_the_learned_agents_that_play_rules_they_were_not_trained_on(tmp_path):
    """As the plain report does for shipped data edited in place: the checkpoint plays, and the report says so."""
    study = study_from_options(env="tempo_duel_v0", games_per_pair=2,
                               policies=["random", "learned=shipped:tempo_duel_v0"])
    report = compare([("policies", study)], VARIANTS / "armour_tempo_medium", tmp_path / "m.sqlite", tmp_path / "out",
                     workers=0, progress=False)
    (line,) = [line for line in read_headlines(report) if "not trained on" in line]
    assert line.startswith("tempo_duel_v0: learned (") and "tempo_duel_v0.zip" in line
    assert line.endswith("plays rules it was not trained on: the variant's (its figures measure it off its training).")
