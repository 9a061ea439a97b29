from pathlib import Path

import pytest

from issoku.evaluation.analysis import analyse
from issoku.evaluation.metrics import CompositionSpec
from issoku.evaluation.report import write_report
from issoku.evaluation.store import MatchStore

from .factories import make_record


def loadout_study():
    """One policy in mirror play; the katana side wins 3 of 4 against the yari side from either seat."""
    records = []
    for seed in range(40):
        labels = ("katana", "yari") if seed % 2 == 0 else ("yari", "katana")
        katana_wins = seed % 8 < 6
        katana_seat = labels.index("katana")
        returns = [-1.0, -1.0]
        returns[katana_seat if katana_wins else 1 - katana_seat] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}"))
    return records


def test_analysis_of_a_mirror_loadout_study_rates_loadouts_and_explains_what_it_cannot_do():
    analysis = analyse(loadout_study(), bootstrap=50)
    assert analysis.by_policy is None and any("fewer than two policies" in n for n in analysis.notes)
    loadouts = analysis.by_loadout
    assert loadouts.games.names == ("katana", "yari")
    assert loadouts.matchups.rate[0, 1] == pytest.approx(0.75)
    assert loadouts.matchups.dominant() == [0]
    assert loadouts.equilibrium.support == (0,) and [d.dominated for d in loadouts.dominated] == [1]
    assert loadouts.ratings.elo[0] > loadouts.ratings.elo[1]


def test_analyse_refuses_mixed_envs_and_empty_input():
    with pytest.raises(ValueError, match="one env"):
        analyse([make_record(("a", "b"), (1.0, -1.0)), make_record(("a", "b"), (1.0, -1.0), env_id="x_v0")])
    with pytest.raises(ValueError, match="no matches"):
        analyse([])


def test_an_incomplete_round_robin_still_reports_ratings_without_a_nash(tmp_path):
    records = [make_record(("a", "b"), (1.0, -1.0), seed=s) for s in range(4)] + \
              [make_record(("b", "c"), (1.0, -1.0), seed=s) for s in range(4)]
    analysis = analyse(records, bootstrap=20)
    assert analysis.by_policy.equilibrium is None and any("never met" in n for n in analysis.notes)


def test_the_report_writes_markdown_and_plots_for_every_env(tmp_path):
    policy_games = [make_record(("a", "b"), (1.0, -1.0) if s % 3 else (0.0, 0.0), seed=s, env_id="duel_v0",
                                actions=(("cut", "feint", "end_breath", "parry"), ("parry",)),
                                kinds=(("breath", "breath", "breath", "defend"), ("defend",))) for s in range(12)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(policy_games + loadout_study())
        path = write_report(store, tmp_path / "out", bootstrap=30, progress=False,
                            compositions={"duel_v0": CompositionSpec("breath", ("end_breath",))})
    text = path.read_text()
    for heading in ("## duel_v0", "## toy_v0", "### Ratings of policies", "### Matchups between loadouts",
                    "### Meta-game among loadouts", "### Initiative and decisiveness", "### Strategy diversity",
                    "### Most used action sequences", "cut → feint", "### Most used compositions",
                    "| a | cut → feint → end_breath | 12 (100%) |", "composition entropy"):
        assert heading in text
    assert "**Dominant** (interval above ½ against every opponent): katana." in text
    pngs = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert pngs == ["duel_v0_policies_matchups.png", "duel_v0_policies_ratings.png",
                    "toy_v0_loadouts_matchups.png", "toy_v0_loadouts_ratings.png"]
    for png in pngs:
        assert f"]({png})" in text
        assert (tmp_path / "out" / png).read_bytes()[:4] == b"\x89PNG"


def test_a_breath_loadout_finding_names_the_project_decisions_that_drive_it():
    """Issue 16: "unarmed dominates" comes from Physique 4 (BR-G19/BR-G04) and a 1-Energy strike (BR-G13)."""
    from issoku.evaluation.report import headlines

    records = []
    for seed in range(40):
        labels = ("unarmed", "yari") if seed % 2 == 0 else ("yari", "unarmed")
        returns = [-1.0, -1.0]
        returns[labels.index("unarmed") if seed % 8 < 6 else 1 - labels.index("unarmed")] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}",
                                   env_id="breath_duel_v0"))
    found = [line for line in headlines(analyse(records, bootstrap=20), None, ()) if "loadout" in line]
    assert "strongest loadout **unarmed**" in found[0]
    assert "Driven by Physique 4 (proposed, BR-G19; Wounds = 5 + Physique, BR-G04), unarmed.strike cost 1 " \
           "(proposed, BR-G13), not by the seed text." in found[0]


def test_a_tempo_loadout_finding_names_its_decisions_and_a_variant_names_none():
    """Tempo's numbers are all project decisions (TP-G..); games on other data than the shipped files get no
    drivers (the provenance modules read the shipped data, not the variant's)."""
    from issoku.evaluation.report import headlines

    records = []
    for seed in range(40):
        labels = ("knight", "fencer") if seed % 2 == 0 else ("fencer", "knight")
        returns = [-1.0, -1.0]
        returns[labels.index("knight") if seed % 8 < 6 else 1 - labels.index("knight")] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}",
                                   env_id="tempo_duel_v0"))
    analysis = analyse(records, bootstrap=20)
    found = [line for line in headlines(analysis, None, ()) if "loadout" in line]
    assert "strongest loadout **knight**" in found[0]
    assert "Driven by Endurance 3 (proposed, TP-G01; Health = 10 + 2 × Endurance, TP-G03), heavy armour " \
           "rating 6 (proposed, TP-G02; soaks every Hit, TP-G03), not by the seed text." in found[0]
    pooled = [line for line in headlines(analysis, None, (), data=None) if "loadout" in line]
    assert "Driven by" not in pooled[0]  # versions pooled: no one data to name


def test_a_variant_finding_names_the_variant_values_not_the_shipped_ones():
    from issoku.evaluation.report import _driven_by

    variant = Path(__file__).resolve().parents[1] / "data" / "variants" / "armour_tempo_medium"
    assert "medium armour rating 4 " in _driven_by("tempo_duel_v0", "spearman", {})
    assert "medium armour rating 8 " in _driven_by("tempo_duel_v0", "spearman", {"variant": str(variant)})
    assert _driven_by("tempo_duel_v0", "spearman", {"variant": "/no/such/variant"}) == ""


def test_env_ids_from_a_crafted_store_never_name_files_outside_out(tmp_path):
    crafted = [make_record(("a", "b"), (1.0, -1.0) if s % 2 else (-1.0, 1.0), seed=s, env_id="../../escaped")
               for s in range(6)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(crafted)
        write_report(store, tmp_path / "deep" / "out", bootstrap=10, progress=False)
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file() and p.name != "m.sqlite"}
    assert written and all(p.parts[:2] == ("deep", "out") for p in written), written
    assert any(p.name == "report.html" for p in written)
