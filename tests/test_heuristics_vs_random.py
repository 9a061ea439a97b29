"""scripts/heuristics_vs_random.py: the heuristics' figures against random play that docs/envs.md points to."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_script_writes_a_row_per_measured_agent_and_refuses_a_bad_count():
    result = subprocess.run([sys.executable, "scripts/heuristics_vs_random.py", "--duels", "2", "--out", "-"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Written by `python scripts/heuristics_vs_random.py --duels 2` on ")
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == ["ma_heuristic"] * 2 + ["breath_heuristic"] * 2 + \
        ["encounter_heuristic"] * 2 + ["tempo_focus_fire"] * 3
    assert all(" | 2 | " in row for row in rows)
    assert subprocess.run([sys.executable, "scripts/heuristics_vs_random.py", "--duels", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60).returncode == 2


def test_the_docs_point_to_the_written_file():
    text = (ROOT / "docs" / "results" / "heuristics_vs_random.md").read_text()
    assert text.startswith("Written by `python scripts/heuristics_vs_random.py` on ") and "| `ma_heuristic` |" in text
    assert "results/heuristics_vs_random.md" in (ROOT / "docs" / "envs.md").read_text()
