"""RLlib's example runs in its own virtualenv (RLlib pins gymnasium 1.2.2; issoku's has a newer one):
``scripts/rllib_venv.sh`` builds ``.venv-rllib`` once (cached), then the script trains one PPO iteration per env
with RLlib's action-masking module, after ten of RLlib's env pre-checks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


ENV_IDS = ("breath_duel_v0", "breath_skirmish_v0", "tempo_duel_v0", "tempo_skirmish_v0", "encounter_duel_v0",
           "encounter_skirmish_v0")


def test_rllib_pettingzoo_env_trains_ppo_with_action_masking_on_every_env():
    """One Ray session, every env with its defaults in turn (docs/envs.md's client table)."""
    from issoku.envs.registry import env_ids

    assert sorted(ENV_IDS) == sorted(env_ids())
    build = subprocess.run(["bash", "scripts/rllib_venv.sh"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    python = ROOT / ".venv-rllib" / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    run = subprocess.run([str(python), "examples/rllib_ppo.py", "--env", *ENV_IDS, "--iterations", "1",
                          "--batch", "128"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert [line.split()[0] for line in run.stdout.splitlines() if "iteration 1: PPO total loss" in line] == list(ENV_IDS)
