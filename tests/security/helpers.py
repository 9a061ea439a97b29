"""Shared pieces of the security battery: the CLI in a fresh interpreter, and a payload module that leaves a marker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def payload_module(folder: Path, name: str = "trust_payload") -> Path:
    """Write ``<folder>/<name>.py``, a module whose import creates ``<folder>/<name>.ran`` (and then fails): the marker
    says code from a file ran. Returns the marker's path."""
    marker = folder / f"{name}.ran"
    (folder / f"{name}.py").write_text(f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n"
                                       "def Payload(seed=None):\n    raise SystemExit('payload ran')\n")
    return marker


def issoku(*args: str, cwd: Path = ROOT, pythonpath: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m issoku <args>`` in a fresh interpreter (``pythonpath`` first on its path), output captured."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(pythonpath or ""), os.environ.get("PYTHONPATH", "")]))}
    return subprocess.run([sys.executable, "-m", "issoku", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def one_line_refusal(result: subprocess.CompletedProcess, *pieces: str) -> str:
    """The refusal's one line, after checking exit 2, no traceback, and each piece in it."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    for piece in pieces:
        assert piece in lines[0], lines[0]
    return lines[0]
