"""``python -m benchmarks --instructions``: instructions per step under valgrind's callgrind, a count that a
busy machine cannot blur (the shared development machine's clocks can: docs/benchmarks.md).

Each row runs twice in a child interpreter under ``valgrind --tool=callgrind``: once with its set-up and
warm-up only, once with the same and then the measured play. The difference, over the steps the
second run played, is the row's instructions per step; start-up, imports and set-up cancel out. The
loops are the timed benchmark's own (:func:`benchmarks.env_speed.aec_steps`,
:func:`benchmarks.engine_speed.playouts`) with the same seeds.

Read the counts as A/B figures for our own code (before and after a change). Across envs they are no
time ratio: ``connect_four_v3`` runs mostly numpy's C, which retires several times more instructions
per second than the interpreter does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_UP = 500
"""Steps of untimed warm-up play (memos, first calls) in both runs of a row."""
ROWS: dict[str, tuple[str, ...]] = {
    "aec": ("breath_duel_v0", "connect_four_v3"),
    "engine": ("ma_duel (breath_duel_v0)",),
    "engine_observe": ("ma_duel (breath_duel_v0)",),
}
"""Section -> the rows counted (a subset of the timed ones: each costs two runs under valgrind)."""

CHILD = """
import sys
from benchmarks import engine_speed, env_speed
section, label, steps, warm = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if section == "aec":
    env = env_speed.env_factories()[label]()
    env_speed.aec_steps(env, warm, seed=4000)
    print(env_speed.aec_steps(env, steps, seed=0).count if steps else 0)
else:
    ruleset = engine_speed.rulesets()[label]
    engine_speed.playouts(ruleset, warm, seed=4000, observe=section == "engine_observe")
    print(engine_speed.playouts(ruleset, steps, seed=0, observe=section == "engine_observe").count if steps else 0)
"""
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def available() -> bool:
    """Whether valgrind is on the PATH."""
    return shutil.which("valgrind") is not None


def run_counted(section: str, label: str, steps: int, warm: int = WARM_UP) -> tuple[int, int]:
    """(instructions, steps played) of one child run under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD,
               section, label, str(steps), str(warm)]
    # A fixed hash seed: string hashes (so set orders and dict probes) are the same in every child; counts
    # of the same code still differ by a few percent between runs (objects hashed by address).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, env=env)
    found = COLLECTED.findall(done.stderr)
    if not found:
        raise RuntimeError(f"no callgrind total in the output of {label}: {done.stderr[-500:]}")
    return int(found[-1]), int(done.stdout.split()[-1])


def per_step(section: str, label: str, steps: int) -> dict[str, float]:
    """Instructions per step of one row: (count with play - count without) / steps played."""
    base, _ = run_counted(section, label, 0)
    total, played = run_counted(section, label, steps)
    return {"instructions_per_step": (total - base) / played, "steps": played, "base": base, "total": total}


def measure(sections: set[str], steps: int) -> dict[str, dict[str, dict[str, float]]]:
    """Every counted row of ``sections`` (those of :data:`ROWS`; ``engine`` counts ``engine_observe`` too),
    printed as it is done."""
    found: dict[str, dict[str, dict[str, float]]] = {}
    for section, labels in ROWS.items():
        if section.partition("_")[0] not in sections:
            continue
        for label in labels:
            row = per_step(section, label, steps)
            found.setdefault(section, {})[label] = row
            print(f"  instructions {section:<8} {label:<26} {row['instructions_per_step']:>12,.0f} per step",
                  file=sys.stderr, flush=True)
    return found


def table(found: dict[str, dict[str, dict[str, float]]]) -> str:
    """The counts in Markdown."""
    lines = ["| row (callgrind) | instructions per step | steps counted |", "|---|---:|---:|"]
    for section, rows in found.items():
        for label, row in rows.items():
            lines.append(f"| {section}: {label} | {row['instructions_per_step']:,.0f} | {row['steps']:,.0f} |")
    return "\n".join(lines)
