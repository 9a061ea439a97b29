"""Values out of line with their peers, dice pools as levers, and levers only from the files an env reads."""

import pytest

from issoku.evaluation.games.config import build_tournament
from issoku.evaluation.design.levers import loadouts_study, make_levers, read_files, run_levers
from issoku.evaluation.design.peers import out_of_line, peers_lines, peers_section, robust_z
from issoku.rules.variant import Variant, numeric_fields, shipped_files, write_override

WEAPONS = "breath/data/weapons.toml"
ENCOUNTER_WEAPONS = "encounters/data/weapons.toml"


def test_the_robust_z_of_a_wild_value_is_large_and_the_usual_ones_stay_near_zero():
    scores = robust_z([2, 2, 2, 3, 2, 1, 2, 22])
    assert scores[-1] > 5 and all(abs(z) < 0.5 for z in scores[:-1])  # MAD 0 here: the mean-deviation fallback
    assert robust_z([2, 2, 2, 2, 2]) == [0.0] * 5  # a group all equal: nothing is out of line


def test_a_planted_mistype_ranks_first_in_the_peers_table_without_a_diff(tmp_path):
    parry = next(f for f in numeric_fields(WEAPONS) if f.address == ("weapon", 1, "technique", 2, "cost"))
    typo = write_override(tmp_path / "typo", parry, 22)  # the nodachi's parry: 2 typed as 22
    files = [f for f in shipped_files() if f.split("/")[0] in ("breath", "ma", "spells")]
    ranked = out_of_line(files, typo)
    assert ranked[0].number.address == parry.address and ranked[0].name == f"{WEAPONS}: nodachi / parry: cost"
    assert ranked[0].median == 2 and ranked[0].peers > 20
    assert peers_lines(ranked, 1)[0].startswith(f"{WEAPONS}: nodachi / parry: cost 22 (its ")
    assert any("nodachi / parry: cost 22" in line for line in peers_section(ranked))
    assert all(o.number.address != parry.address or o.z < 2 for o in out_of_line(files))  # shipped: in line


def test_a_dice_pool_is_two_levers_written_back_into_the_pool_string(tmp_path):
    """EN-G01: a damage characteristic XkY rolls X dice and keeps Y; each half is a number a designer nudges."""
    pools = [f for f in numeric_fields(ENCOUNTER_WEAPONS) if f.pool_part]
    ono = {f.pool_part: f for f in pools if f.address[:2] == ("weapons", "ono")}
    assert (ono["rolled"].value, ono["kept"].value) == (0, 4)
    levers = make_levers(tmp_path / "levers", 1, [ENCOUNTER_WEAPONS], keep=lambda n: n.address[:2] == ("weapons", "ono"))
    names = sorted(lever.name for lever in levers)
    assert names == [f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → -1k4", f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → 0k3",
                     f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → 0k5", f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → 1k4"]
    status = {lever.name: lever.status for lever in levers}
    assert status[f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → -1k4"].startswith("invalid")  # the pool rules refuse it
    assert status[f"{ENCOUNTER_WEAPONS}: ono: damage 0k4 → 0k3"] == "played"
    Variant(next(lever.folder for lever in levers if lever.name.endswith("0k3"))).validate()


def test_levers_come_only_from_the_data_files_the_env_reads(tmp_path):
    breath = build_tournament(loadouts_study("breath_duel_v0"))
    read = read_files(breath)
    assert read and all(f.split("/")[0] in ("breath", "ma", "spells") for f in read)
    assert not read_files(breath, ["tempo/data/armour.toml", ENCOUNTER_WEAPONS])
    with pytest.raises(ValueError, match="changes the rules of breath_duel_v0: it reads only"):
        run_levers(loadouts_study("breath_duel_v0"), 10, tmp_path / "out", tmp_path / "db.sqlite",
                   files=["tempo/data/armour.toml"])
    assert not (tmp_path / "out" / "variants").exists()  # refused before a folder is written
