"""Provenance of the tempo data: seed 003 prints no number, so every value is a project decision, and a
fighter's standout values name the decision that set each (what the balance report prints beside a finding)."""

from pathlib import Path

from issoku.rules.tempo.content import DATA_DIR, load_roster
from issoku.rules.tempo.provenance import FIELD_SOURCES, decision_drivers

KNIGHT = ["Endurance 3 (proposed, TP-G01; Health = 10 + 2 × Endurance, TP-G03)",
          "heavy armour rating 6 (proposed, TP-G02; soaks every Hit, TP-G03)"]


def test_every_tempo_data_file_says_its_numbers_are_decisions_and_which():
    for path in sorted(Path(DATA_DIR).glob("*.toml")):
        header = path.read_text(encoding="utf-8").split("\n[", 1)[0]
        assert "# source: seed 003" in header and "project decision" in header, path.name
    assert set(FIELD_SOURCES.values()) <= {"TP-G01", "TP-G02", "TP-G03", "TP-G04", "TP-G07", "TP-G12", "TP-G15"}


def test_the_knight_is_driven_by_endurance_and_heavy_armour_both_ours():
    roster = load_roster()
    assert decision_drivers(roster, "knight") == KNIGHT
    assert decision_drivers(roster, "spearman") == ["medium armour rating 4 (proposed, TP-G02; soaks every Hit, "
                                                    "TP-G03)", "spear reach 2 (proposed, TP-G07)"]
    assert decision_drivers(roster, "no_such_fighter") == []


def test_an_armour_back_in_the_field_is_no_longer_a_driver(tmp_path):
    edited = tmp_path / "armour.toml"
    edited.write_text((Path(DATA_DIR) / "armour.toml").read_text().replace("rating = 6", "rating = 2"))
    assert decision_drivers(load_roster(files={"armour.toml": edited}), "knight") == KNIGHT[:1]
