"""scripts/random_play_outcomes.py: the random-play draw rates docs/envs.md quotes, one row per registered env."""

import subprocess
import sys
from pathlib import Path

from issoku.envs.registry import env_ids

ROOT = Path(__file__).resolve().parents[2]


def test_the_script_writes_a_row_per_env_and_refuses_a_bad_count():
    result = subprocess.run([sys.executable, "scripts/random_play_outcomes.py", "--fights", "2", "--out", "-"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == env_ids()
    assert all(row.split(" | ")[1] == "2" for row in rows)
    assert result.stdout.startswith("Written by `python scripts/random_play_outcomes.py --fights 2`")
    assert subprocess.run([sys.executable, "scripts/random_play_outcomes.py", "--fights", "0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60).returncode == 2


def test_the_docs_quote_the_measured_file():
    text = (ROOT / "docs" / "results" / "random_play_outcomes.md").read_text()
    assert "| `encounter_duel_v0` | 1000 |" in text and "random_play_outcomes.md" in (ROOT / "docs" / "envs.md").read_text()
