"""RLlib's example runs in its own virtualenv (RLlib pins gymnasium 1.2.2; issoku's has a newer one):
``scripts/rllib_venv.sh`` builds ``.venv-rllib`` once (cached), then the script trains one PPO iteration
with RLlib's action-masking module, after ten of RLlib's env pre-checks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.xdist_group("rllib_venv")  # one worker runs both: the first builds .venv-rllib, the second reuses it
@pytest.mark.parametrize("env_id", ["breath_duel_v0", "breath_skirmish_v0"])
def test_rllib_pettingzoo_env_trains_ppo_with_action_masking(env_id):
    build = subprocess.run(["bash", "scripts/rllib_venv.sh"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    python = ROOT / ".venv-rllib" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    run = subprocess.run([str(python), "examples/rllib_ppo.py", "--env", env_id, "--iterations", "1", "--batch", "128"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "iteration 1: PPO total loss" in run.stdout
