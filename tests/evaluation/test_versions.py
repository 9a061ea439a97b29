"""A store never pools rules versions silently."""

from dataclasses import replace

from issoku.evaluation.reports.report import read_headlines, write_report
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.versions import in_place_twins, rules_version, split_versions

from .factories import make_record


def _games(fingerprint: str = "fp", **kwargs):
    games = [make_record(("a", "b"), (1.0, -1.0) if s % 3 else (-1.0, 1.0), seed=s) for s in range(12)]
    return [replace(g, rules_fingerprint=fingerprint, loadout_kwargs={**g.loadout_kwargs, **kwargs},
                    key=g.key + fingerprint + str(sorted(kwargs.items()))) for g in games]


def test_each_rules_version_is_its_own_group_unless_pooled_on_request():
    shipped, variant = _games(), _games("fp2", variant="tests/data/variants/nodachi")
    assert rules_version(shipped[0]) == "" and rules_version(variant[0]) == "variant=nodachi"
    groups = split_versions("toy_v0", shipped + variant)
    assert [(g.label, len(g.records), g.warnings) for g in groups] == [("toy_v0", 12, []),
                                                                     ("toy_v0@variant=nodachi", 12, [])]
    pooled = split_versions("toy_v0", shipped + variant, pool=True)
    assert len(pooled) == 1 and len(pooled[0].records) == 24 and "POOLED on request" in pooled[0].warnings[0]


def test_data_edited_in_place_is_warned_about_in_the_headlines(tmp_path):
    before, after = _games("fp"), _games("fp_edited")
    assert in_place_twins(before + after) == 12 and in_place_twins(before) == 0
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(before + after)
        report = write_report(store, tmp_path / "out", bootstrap=10, progress=False)
    assert any("WARNING 12 scheduled games were stored under more than one rules fingerprint" in line
               for line in read_headlines(report))


def test_the_report_gives_a_variant_its_own_section(tmp_path):
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(_games() + _games("fp2", variant="v/stance"))
        text = write_report(store, tmp_path / "out", bootstrap=10, progress=False).read_text()
    assert "## toy_v0\n" in text and "## toy_v0@variant=stance\n" in text
