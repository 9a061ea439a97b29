"""scripts/setup.sh, the README's first command, driven against a stub venv: the steps it prints, the pip calls
it makes and in which order (CPU torch pinned first, then issoku under the constraint), its overrides and its
refusals. Nothing is installed: the stub ``.venv/bin/python`` records its arguments."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUB = """#!/usr/bin/env bash
echo "$*" >> "$STUB_LOG"
case "$*" in
  --version) echo "Python 3.11.7" ;;
  "-c import torch") exit "${STUB_TORCH_MISSING:-0}" ;;
esac
"""


@pytest.fixture
def checkout(tmp_path):
    """A copy of scripts/ beside a stub .venv whose python and issoku only record their calls."""
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "issoku"):
        (bin_dir / name).write_text(STUB)
        (bin_dir / name).chmod(0o755)
    return tmp_path


def setup(checkout: Path, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    log = checkout / "calls.log"
    log.write_text("")
    result = subprocess.run(["bash", str(checkout / "scripts" / "setup.sh")], capture_output=True, text=True,
                            env={**os.environ, "STUB_LOG": str(log), **env}, timeout=60)
    return result, log.read_text().splitlines()


def pip_installs(calls: list[str]) -> list[str]:
    return [call.split(" install ", 1)[1] for call in calls if call.startswith("-m pip install")]


def test_setup_reuses_the_venv_installs_cpu_torch_first_then_issoku_and_says_each_step(checkout):
    result, calls = setup(checkout)
    assert result.returncode == 0, result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("setup step")]
    assert [line.split(" (")[0] for line in steps] == [f"setup step {n}/4" for n in range(1, 5)]
    assert "reusing .venv (Python 3.11.7)" in result.stdout and "setup: done in" in result.stdout
    torch, issoku = pip_installs(calls)
    assert torch.endswith("--progress-bar on torch==2.13.0")  # the download shows its progress
    assert issoku.endswith("-c scripts/constraints.txt -e .[dev,clients,ray]") and " -q " in f" {issoku} "
    assert "torch==2.13.0" in (checkout / "scripts" / "constraints.txt").read_text()


def test_setup_overrides_the_torch_step(checkout):
    result, calls = setup(checkout, ISSOKU_TORCH_INDEX="https://download.pytorch.org/whl/cpu")
    assert pip_installs(calls)[0].endswith("torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu")
    result, calls = setup(checkout, ISSOKU_TORCH="skip")
    assert result.returncode == 0 and len(pip_installs(calls)) == 1 and "torch: skipped" in result.stdout
    result, calls = setup(checkout, ISSOKU_TORCH="skip", STUB_TORCH_MISSING="1")
    assert result.returncode == 2 and "has no torch" in result.stderr and pip_installs(calls) == []


def test_setup_refuses_a_python_older_than_3_11_by_name(checkout):
    shutil.rmtree(checkout / ".venv")
    old = checkout / "python3.9"
    old.write_text("#!/usr/bin/env bash\ncase \"$*\" in --version) echo 'Python 3.9.2';; *) exit 1;; esac\n")
    old.chmod(0o755)
    result, _ = setup(checkout, ISSOKU_PYTHON=str(old))
    assert result.returncode == 2 and "Python 3.9.2; issoku needs Python 3.11+ (set ISSOKU_PYTHON)" in result.stderr
    assert not (checkout / ".venv").exists()
