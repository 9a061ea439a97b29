"""The coverage report's sorting of IDs (the pytest run that feeds it is exercised by running it)."""

from tests.coverage_report import classify, render
from tests.rule_reference import load_reference


def test_an_id_counts_as_exercised_only_through_a_passing_test_that_drove_a_fight():
    report = classify([
        (frozenset({"BR-025"}), True, True),    # a fight, passing
        (frozenset({"BR-001"}), True, False),   # a helper, passing
        (frozenset({"BR-002"}), False, True),   # a fight, failing
        (frozenset({"BR-037"}), True, True),    # listed as not yet
        (frozenset({"BR-999"}), True, True),    # no such ID
    ])["BR"]
    assert "BR-025" in report["exercised"]
    assert "BR-001" in report["helper-only"] and "BR-002" in report["helper-only"]
    assert report["named_not_yet"] == ["BR-037"] and report["unknown"] == ["BR-999"]
    assert "BR-003" in report["missing"] and "BR-069" in report["not yet"]
    table = render({"BR": report})
    total = sum(entry.system == "BR" for entry in load_reference().values())
    assert table.splitlines()[2].startswith(f"| BR | {total} | 1 | 2 | ")
    assert "BR named_not_yet: BR-037" in table


def test_promote_marks_engine_only_the_driven_ids_of_the_named_system(tmp_path, monkeypatch):
    import tests.coverage_report as report

    sample = tmp_path / "en.md"
    sample.write_text("| ID | Rule | Source | Status | Code | Tests |\n"
                      "| EN-001 | a rule | seed 001 | not yet |  |  |\n| EN-002 | another | seed 001 | not yet |  |  |\n")
    monkeypatch.setattr(report, "reference_files", lambda: [sample])
    promoted = report.promote([(frozenset({"EN-001"}), True, True), (frozenset({"EN-002"}), True, False)], {"EN"})
    assert promoted == ["EN-001"]
    assert "| EN-001 | a rule | seed 001 | engine |" in sample.read_text()
    assert "| EN-002 | another | seed 001 | not yet |" in sample.read_text()
