"""breath_skirmish_v0 goes through the tournament and the report unchanged: a record's seat is a side."""

from issoku.evaluation.commands import balance_report
from issoku.evaluation.config import StudyConfig
from issoku.evaluation.store import MatchStore


def test_a_2v2_skirmish_tournament_records_sides_and_reports(tmp_path):
    study = StudyConfig(env="breath_skirmish_v0", policies=("random", "breath_aggressive"), games_per_pair=4,
                        composition_kind="breath", composition_end=("end_breath", "stand"),
                        loadouts=({"name": "2v2", "kwargs": {"sides": [["kenshi", "ashigaru"], ["ronin", "shinobi"]],
                                                              "round_limit": 8}},))
    runs, report = balance_report([study], tmp_path / "m.sqlite", tmp_path / "out", workers=0, bootstrap=20,
                                  progress=False)
    assert runs[0].tournament.played == 4
    with MatchStore(tmp_path / "m.sqlite") as store:
        records = list(store.records())
    assert all(r.agents == ("side_0_fighter_1+side_0_fighter_2", "side_1_fighter_1+side_1_fighter_2")
               for r in records)
    assert {r.policies for r in records} == {("random", "breath_aggressive"), ("breath_aggressive", "random")}
    assert all(r.actions[0] and r.actions[1] for r in records)
    text = report.read_text()
    assert "## breath_skirmish_v0" in text and "### Ratings of policies" in text
