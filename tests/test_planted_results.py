"""scripts/planted_results.py: what the variant report says about each planted exploit, the file docs/balance.md
points to. The rows are formatted from fake headlines here; the real reports are the script's run."""

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
SPEC = importlib.util.spec_from_file_location("planted_results", ROOT / "scripts" / "planted_results.py")
planted = sys.modules.setdefault("planted_results", importlib.util.module_from_spec(SPEC))
SPEC.loader.exec_module(planted)

STUDY = "breath_duel_v0 (2_breath_duel_v0_loadouts): "
NAMED = [STUDY + "UNDETERMINED move, moderate: loadout nodachi: score 34.0% → 45.0% (+11.0 pts [+3.1, +18.9]), "
                 "Holm p=0.00048 — after breath/data/weapons.toml: nodachi / parry: cost 2 → 1 (scripted agents).",
         STUDY + "UNDETERMINED move, moderate: loadout staff: score 32.4% → 26.4% (-6.0 pts [-9.9, -2.1]), Holm p=7.1e-05.",
         STUDY + "smallest move of a side's score it can detect: ±14.0 pts (n=400, 80% power at α = 0.05 over 25 effects).",
         STUDY + "the cells the edit touches, sequentially: loadout nodachi: score moved ≥ δ (up), after 229 games."]
NODACHI = planted.Plant("defence_nodachi_parry", planted.BREATH, "nodachi")


def test_a_named_plant_quotes_its_move_its_sequential_verdict_and_the_detectable_move_verbatim():
    line = planted.row(NODACHI, "breath/data/weapons.toml: nodachi / parry: cost 2 → 1", NAMED, 9.4)
    cells = [cell.strip() for cell in line.strip("|").split(" | ")]
    assert cells[0] == "`defence_nodachi_parry` (2)" and cells[2] == "loadout nodachi up" and cells[-1] == "9 s"
    quotes = cells[3].split("<br>")
    assert quotes == [f"“{NAMED[0][len(STUDY):]}”", f"“{NAMED[2][len(STUDY):]}”", f"“{NAMED[3][len(STUDY):]}”"]
    assert cells[4] == "named by the paired test and the sequential test"


def test_a_plant_the_report_misses_is_a_row_that_says_so():
    missed = [STUDY + "no figure moved significantly over 1200 paired games.", NAMED[2]]
    line = planted.row(NODACHI, "an edit", missed, 30)
    assert "“no figure moved significantly over 1200 paired games.”" in line and "**NOT named**" in line
    down = [NAMED[0].replace("(+11.0", "(-11.0")]
    assert planted.verdict(down, "nodachi") == "**NOT named**", "a move down is not the planted move up"
    only_sequential = [NAMED[3]]
    assert planted.verdict(only_sequential, "nodachi") == "named by the sequential test"


def test_a_learned_only_plant_should_read_untested_by_play():
    untested = [STUDY + "UNTESTED BY PLAY: every variant game was played exactly as its base twin (scripted agents "
                        "never played what it touches), so they are no evidence of balance or imbalance."]
    plant = planted.Plant("learned_only_tanto_parry", planted.BREATH, None)
    assert "| nothing by scripted play: untested by play | “UNTESTED BY PLAY" in planted.row(plant, "e", untested, 8)
    assert planted.verdict(untested, None) == "says untested by play"
    assert planted.verdict(NAMED, None) == "**NOT flagged untested**"


def test_every_plant_is_a_variant_folder_and_every_variant_is_a_plant():
    assert sorted({p.name for p in planted.PLANTS}) == sorted(p.name for p in planted.VARIANTS.iterdir() if p.is_dir())
    assert len(set(planted.PLANTS)) == len(planted.PLANTS), "a plant twice in the same study is one row"
    assert planted.edit_text(NODACHI) == "breath/data/weapons.toml: nodachi / parry: cost 2 → 1"


def test_a_bad_worker_count_is_one_line_before_any_report():
    done = subprocess.run([sys.executable, "scripts/planted_results.py", "--workers", "-1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--workers must be at least 0" in done.stderr


def test_the_docs_point_to_the_written_file():
    text = (ROOT / "docs" / "results" / "planted_battery.md").read_text(encoding="utf-8")
    assert text.startswith("Written by `python scripts/planted_results.py")
    assert all(f"| `{plant.name}` (" in text for plant in planted.PLANTS)
    assert "results/planted_battery.md" in (ROOT / "docs" / "balance.md").read_text(encoding="utf-8")


def test_a_plant_only_search_plays_has_a_row_in_the_search_study_at_its_games():
    rows = [plant for plant in planted.PLANTS if plant.name == "stance_spear_wall_guard"]
    assert [plant.study for plant in rows] == [planted.BREATH, planted.SEARCH]
    search = rows[1]
    assert search.games == 8 and (planted.STUDIES / search.study).is_file()
    line = planted.row(search, "breath/data/stances.toml: spear_wall: defense_bonus (absent) → 5", NAMED, 300)
    assert line.startswith("| `stance_spear_wall_guard` (8) |") and "search plays it; `-n 8`" in line
