"""Honest verdicts: the smallest effect a study can detect, edits (almost) no decision played, and the cells an
edit touches played on until their sequential tests decide."""

import math

from issoku.evaluation.reports.analysis import analyse
from issoku.evaluation.games.config import StudyConfig
from issoku.evaluation.stats.power import PAIRED_SD, detectable, detectable_text
from issoku.evaluation.reports.report import headlines
from issoku.evaluation.stats.paired import paired_difference
from issoku.evaluation.design.variants import (UNUSED_SHARE, Settling, Shift, StudyComparison, compare, headlines as
                                        variant_headlines, read_headlines)
from issoku.rules.variant import Change

from .test_report import _duel
from .test_variants import VARIANTS


def test_the_minimum_detectable_effect_by_hand():
    # (t(0.975, 399) + t(0.8, 399)) * 0.5 / sqrt(400) = (1.9659 + 0.8426) * 0.025
    assert abs(detectable(400) - 0.0702) < 5e-4
    assert detectable(400, tests=20) > detectable(400) > detectable(1600)  # correction widens it, games narrow it
    assert detectable(1) == math.inf
    assert detectable_text(400, 20, sd=PAIRED_SD).startswith("±13.7 pts (n=400, 80% power at α = 0.05 over 20 effects")


def test_a_balance_report_section_states_the_smallest_effect_it_can_detect():
    lines = headlines(analyse(_duel("a", "b", 10, 20), bootstrap=20), None, ())
    (mde,) = [line for line in lines if "smallest effect this section can detect" in line]
    assert "a policy against the field ±" in mde and "(n=20, 80% power" in mde


def _comparison(changed: int, exercised: float | None) -> StudyComparison:
    move = paired_difference([0.5] * 40, [0.5] * 39 + [1.0])
    return StudyComparison("breath_duel_v0", "loadouts", 40, [Shift("breath_duel_v0", "loadout yari: score", ("yari",),
                                                                    "rate", move)], {"yari": {"yari"}}, "scripted",
                           changed, exercised)


def test_an_edit_whose_content_took_almost_no_decision_is_untested_by_play():
    barely = _comparison(changed=1, exercised=UNUSED_SHARE / 5)
    assert barely.untested and "took 0.10% of the decisions of its 40 paired games" in barely.untested_why()
    change = [Change("breath/data/stances.toml", "spear_wall", "cost", 2, 0)]
    (line,) = variant_headlines([barely], change)
    assert "UNTESTED BY PLAY: the edited content took 0.10%" in line and "barely played" in line
    played = _comparison(changed=1, exercised=0.2)
    assert not played.untested and not _comparison(changed=1, exercised=None).untested  # None: cannot be told
    assert any("smallest move of a side's score it can detect: ±" in line
               for line in variant_headlines([played], change))


def test_settling_text_says_what_more_games_would_settle():
    assert Settling(0, 0, 2000).text() == ""
    text = Settling(2, 640, 2000, (("loadout yari: score", 1200),)).text()
    assert text.startswith("of the 2 cells the edit touches left undetermined by the schedule, 1 decided after 640")
    assert "loadout yari: score: about 1,200 more twin games" in text
    decided = Settling(0, 0, 2000, decided=(("loadout yari: score", "moved ≥ δ (up), after 170 games"),)).text()
    assert decided == "the cells the edit touches, sequentially: loadout yari: score moved ≥ δ (up), after 170 games"


def test_the_variant_report_plays_on_the_touched_loadouts_until_their_tests_decide(tmp_path):
    """defence_nodachi_parry (nodachi's parry 2 -> 1) on two loadouts at 4 games per pairing: the nodachi's score is
    undetermined by the schedule; settling plays only the nodachi's games, within the budget, and says so."""
    study = StudyConfig.model_validate({
        "env": "breath_duel_v0", "policies": ["ma_heuristic"], "mirrors": True, "games_per_pair": 4,
        "loadout_grid": {"seat_key": "fighters", "labels": ["nodachi", "uchigatana", "yari"],
                         "templates": {"nodachi": "ronin", "uchigatana": "kenshi", "yari": "ashigaru"}}})
    report = compare([("loadouts", study)], VARIANTS / "defence_nodachi_parry", tmp_path / "m.sqlite",
                     tmp_path / "out", workers=0, progress=False, settle_budget=600)
    lines = read_headlines(report)
    (settled,) = [line for line in lines if "the edit touches left undetermined by the schedule" in line]
    assert "(settling budget 600)" in settled
    played = int(settled.split(" decided after ")[1].split(" more games")[0].replace(",", ""))
    assert 0 < played <= 600
    text = report.read_text()
    assert "The edited content took " in text and "of the variant games' decisions" in text
    again = compare([("loadouts", study)], VARIANTS / "defence_nodachi_parry", tmp_path / "m.sqlite",
                    tmp_path / "again", workers=0, progress=False, settle_budget=600)
    assert read_headlines(again) == lines  # the settling budget counts scheduled games: a rerun takes the same path
