"""scripts/setup.sh, the README's first command, driven against a stub venv: the steps it prints, the pip calls
it makes and in which order (CPU torch pinned first, then issoku under the constraint), the torch build it chooses
from what pip's index would serve, its progress lines, its overrides and its refusals. Nothing is installed: the
stub ``.venv/bin/python`` records its arguments, answers pip's dry run with the report a test gives it, and runs
``scripts/torch_build.py`` with the real interpreter."""

import json
import os
import sys
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUB = f"""#!/usr/bin/env bash
echo "$*" >> "$STUB_LOG"
case "$*" in
  --version) echo "Python 3.11.7" ;;
  "-c import torch") exit "${{STUB_TORCH_MISSING:-0}}" ;;
  *--dry-run*) printf '%s' "${{STUB_TORCH_REPORT-$STUB_NOTHING_TO_INSTALL}}" ;;
  scripts/torch_build.py) exec {sys.executable} "$@" ;;
  *" install "*) sleep "${{STUB_PIP_SECONDS:-0}}"; echo "Requirement already satisfied: numpy"; echo "Successfully installed x" ;;
esac
"""
CUDA_WHEEL = {"metadata": {"name": "torch", "version": "2.13.0",
                           "requires_dist": ["filelock", "nvidia-cublas-cu12==12.8.4.1; platform_system == 'Linux'"]}}
CPU_WHEEL = {"metadata": {"name": "torch", "version": "2.13.0+cpu", "requires_dist": ["filelock", "sympy"]}}


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
                            env={**os.environ, "STUB_LOG": str(log), "STUB_NOTHING_TO_INSTALL": report(), **env}, timeout=60)
    return result, log.read_text().splitlines()


def pip_installs(calls: list[str]) -> list[str]:
    """The real installs (pip's dry run only asks)."""
    return [call.split(" install ", 1)[1] for call in calls if call.startswith("-m pip install") and "--dry-run" not in call]


def report(*wheels: dict) -> str:
    return json.dumps({"version": "1", "install": list(wheels)})


def test_setup_reuses_the_venv_installs_cpu_torch_first_then_issoku_and_says_each_step(checkout):
    result, calls = setup(checkout)
    assert result.returncode == 0, result.stderr
    steps = [line for line in result.stdout.splitlines() if line.startswith("setup step")]
    assert [line.split(" (")[0] for line in steps] == [f"setup step {n}/4" for n in range(1, 5)]
    assert "reusing .venv (Python 3.11.7)" in result.stdout and "setup: done in" in result.stdout
    torch, issoku = pip_installs(calls)
    assert torch.endswith("--progress-bar on torch==2.13.0")  # the download shows its progress
    assert issoku.endswith("--progress-bar on -c scripts/constraints.txt -e .[dev,clients,ray]")  # and so does this one
    assert "Requirement already satisfied" not in result.stdout and "Successfully installed x" in result.stdout
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


@pytest.mark.parametrize("served, index", [
    (report(CUDA_WHEEL), ["--index-url", "https://download.pytorch.org/whl/cpu"]),  # the public index on Linux
    (report({"metadata": {"name": "torch", "version": "2.13.0+cu128", "requires_dist": []}}),
     ["--index-url", "https://download.pytorch.org/whl/cpu"]),
    (report(CPU_WHEEL), []),                                    # macOS, Windows, a CPU mirror: pip's own index
    (report(), []),                                             # a torch that fits is installed already
    ("", []),                                                   # pip could not say: its index, and the override named
    ("<html>", []),
])
def test_setup_takes_the_cpu_build_where_pips_index_would_serve_cuda(checkout, served, index):
    result, calls = setup(checkout, STUB_TORCH_REPORT=served)
    assert result.returncode == 0, result.stderr
    dry_run = [call for call in calls if "--dry-run" in call]
    assert len(dry_run) == 1 and dry_run[0].endswith("--no-deps --disable-pip-version-check --report - torch==2.13.0")
    torch = pip_installs(calls)[0].split()
    assert torch[torch.index("torch==2.13.0") + 1:] == index
    route = next(line for line in result.stdout.splitlines() if line.startswith("  torch: "))
    assert ("serves a CUDA build" in route) == bool(index) and ("ISSOKU_TORCH_INDEX" in route) == (served in ("", "<html>"))


def test_torch_build_reads_pips_report():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from torch_build import build_of
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert build_of(json.loads(report(CUDA_WHEEL))) == "cuda"
    assert build_of(json.loads(report(CPU_WHEEL))) == "cpu"
    assert build_of(json.loads(report({"metadata": {"name": "numpy", "version": "2.0"}}))) == "installed"
    assert build_of([]) == build_of({"install": "x"}) == "unknown"  # not a report


def test_setup_prints_a_line_while_a_long_install_works(checkout):
    result, _ = setup(checkout, STUB_PIP_SECONDS="3", ISSOKU_HEARTBEAT="1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for number in (2, 3):  # torch, then issoku: each install beats while it works, with the seconds so far
        start = next(i for i, line in enumerate(lines) if line.startswith(f"setup step {number}/4 (at "))
        beats = [line for line in lines[start:start + 12] if line.startswith("  ... still installing (at ")]
        assert len(beats) >= 2, result.stdout
    seconds = [int(line.split("(at ")[1].split("s)")[0]) for line in lines if line.startswith("setup step")]
    assert seconds == sorted(seconds) and seconds[-1] >= 6
