"""The static checks run with the tests: ruff (pyflakes) and mypy over the ``issoku`` package.

mypy follows ``issoku.rules...`` imports because ``src/issoku/<layer>`` are links to the design card's top-level
folders (``rules/``, ``envs/``, ...); the configuration lives in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``).
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("rules", "common", "envs", "agents", "training", "evaluation")


@pytest.mark.parametrize("layer", LAYERS)
def test_src_issoku_names_each_layer_folder(layer):
    link = ROOT / "src" / "issoku" / layer
    assert link.is_symlink(), f"src/issoku/{layer} should be a link to the top-level {layer}/ folder"
    assert link.resolve() == (ROOT / layer).resolve()


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_reports_nothing():
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_resolves_every_issoku_import_and_reports_nothing():
    result = _run("mypy")  # packages, mypy_path and the per-module settings come from pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Cannot find implementation" not in result.stdout
