"""scripts/shipped_figures.py: the shipped agents' figures that docs/training.md points to."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_script_measures_every_shipped_agent_and_stamps_the_table():
    result = subprocess.run([sys.executable, "scripts/shipped_figures.py", "--duels", "2", "--out", "-"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Written by `python scripts/shipped_figures.py --duels 2` on ")
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == ["breath_duel_v0", "encounter_duel_v0", "tempo_duel_v0"]
    assert all(row.endswith(" of 2 |") for row in rows)


def test_the_written_file_is_the_one_the_docs_point_to():
    text = (ROOT / "docs" / "results" / "shipped_agents.md").read_text()
    assert text.startswith("Written by `python scripts/shipped_figures.py` on ") and "| `tempo_duel_v0` |" in text
    assert "results/shipped_agents.md" in (ROOT / "docs" / "training.md").read_text()
