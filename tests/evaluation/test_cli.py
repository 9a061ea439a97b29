import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.games.config import build_tournament, load_study
from issoku.evaluation.games.store import MatchStore
from issoku.rules.kernel.content import DataError

from .factories import make_record


def test_report_only_from_an_existing_store(tmp_path):
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert([make_record(("a", "b"), (1.0, -1.0) if s % 4 else (-1.0, 1.0), seed=s) for s in range(16)])
    result = CliRunner().invoke(app, ["balance-report", "--no-play", "--db", str(tmp_path / "m.sqlite"),
                                      "--out", str(tmp_path / "out"), "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    assert "report:" in result.output and f"html: {tmp_path / 'out' / 'report.html'}" in result.output
    assert "### Ratings of policies" in (tmp_path / "out" / "report.md").read_text()
    assert "<h3 id=\"ratings-of-policies\">Ratings of policies</h3>" in (tmp_path / "out" / "report.html").read_text()


def test_a_sequential_report_says_first_what_a_delta_needs_and_stops_decided_cells(tmp_path):
    result = CliRunner().invoke(app, ["balance-report", "--env", "tempo_duel_v0", "-p", "random", "-p",
                                      "tempo_heuristic", "--games", "40", "--sequential", "--delta", "0.25", "-j", "0",
                                      "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out"),
                                      "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    assert "a cell expects about" in result.output.split("game/s]")[0]  # said before any game (a progress bar)
    assert "left unplayed (their cells decided)" in result.output
    assert "sequential tests (GSPRT on seat-swapped pairs, δ = ±25 pts" in result.output
    assert "| random – tempo_heuristic | imbalanced (favours tempo_heuristic) |" in (
        tmp_path / "out" / "report.md").read_text()


def test_a_study_file_is_validated_with_file_and_field_in_the_error(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text('env = "breath_duel_v0"\npolicies = ["random", "b=breath_heuristic"]\ngames_per_pair = 4\n'
                    '[[loadouts]]\nname = "k-y"\nseat_labels = ["k", "y"]\nkwargs = { fighters = ["k", "y"] }\n')
    study = load_study(good)
    assert study.loadouts[0].kwargs == {"fighters": ["k", "y"]} and study.games_per_pair == 4
    bad = tmp_path / "bad.toml"
    bad.write_text('env = "x_v0"\npolicies = ["a", "a"]\ngames_per_pair = 0\n')
    with pytest.raises(DataError, match="bad.toml"):
        load_study(bad)


def test_a_loadout_grid_plays_every_ordered_pairing_with_labels_filled_in(tmp_path):
    from issoku.evaluation.games.config import StudyConfig

    study = StudyConfig.model_validate({
        "env": "x_v0", "policies": ["a"], "mirrors": True,
        "loadout_grid": {"seat_key": "fighters", "labels": ["katana", "yari", "tanto"],
                         "seat_template": {"archetype": "kenshi", "weapon": "{label}", "tags": ["{label}-user"]},
                         "kwargs": {"round_limit": 5}}})
    loadouts = study.all_loadouts()
    assert [lo.name for lo in loadouts][:2] == ["katana-vs-yari", "katana-vs-tanto"] and len(loadouts) == 6
    assert loadouts[0].seat_labels == ("katana", "yari")
    assert loadouts[0].kwargs == {"round_limit": 5, "fighters": [
        {"archetype": "kenshi", "weapon": "katana", "tags": ["katana-user"]},
        {"archetype": "kenshi", "weapon": "yari", "tags": ["yari-user"]}]}
    assert [lo.name for lo in StudyConfig(env="x", policies=("a",)).all_loadouts()] == ["default"]
    wielded = StudyConfig.model_validate({"env": "x_v0", "policies": ["a"], "loadout_grid": {
        "seat_key": "fighters", "labels": ["yari", "tanto"], "seat_template": {"archetype": "kenshi", "weapon": "{label}"},
        "templates": {"yari": "ashigaru"}}}).all_loadouts()
    assert wielded[0].kwargs == {"fighters": ["ashigaru", {"archetype": "kenshi", "weapon": "tanto"}]}
    with pytest.raises(ValueError, match="not in the grid"):
        StudyConfig.model_validate({"env": "x_v0", "policies": ["a"], "loadout_grid": {
            "seat_key": "fighters", "labels": ["yari", "tanto"], "templates": {"bow": "archer"}}})


def test_the_default_report_runs_the_shipped_studies_on_the_three_duels():
    from issoku.evaluation.games.studies import default_studies

    studies = [load_study(path) for path in default_studies()]
    assert [s.env for s in studies] == ["breath_duel_v0", "breath_duel_v0", "tempo_duel_v0", "tempo_duel_v0",
                                        "encounter_duel_v0", "encounter_duel_v0", "breath_duel_v0", "breath_duel_v0"]
    assert studies[7].policies == ("mcts_small",) and studies[7].loadout_grid.labels == studies[1].loadout_grid.labels
    assert any(s.combo_table for s in studies) and sum(bool(s.restricted_play) for s in studies) == 3
    loadouts = [lo for s in studies for lo in s.all_loadouts() if lo.seat_labels]
    assert {"ninjato", "unarmed", "katana", "ono"} <= {label for lo in loadouts for label in lo.seat_labels}
    assert {f"encounter_{stance}" for stance in ("air", "earth", "fire", "void", "water")} <= set(studies[4].policies)
    assert all(s.composition() is not None for s in studies)


def test_a_progress_bar_says_which_env_policies_and_loadouts_it_plays():
    from issoku.evaluation.games.studies import default_studies
    from issoku.evaluation.games.tournament import progress_label

    labels = [progress_label([build_tournament(load_study(path))]) for path in default_studies()]
    assert labels[0] == "breath_duel_v0: 7 policies" and labels[1] == "breath_duel_v0: ma_heuristic, 30 loadouts"
    assert labels[7] == "breath_duel_v0: mcts_small, 30 loadouts" and all(len(label) <= 48 for label in labels)
