"""Write a benchmark run's figures to docs/results/benchmarks.md, with when and on what machine it ran.

docs/benchmarks.md says how to run the benchmark and read its rows; the figures of a run live in one results file,
written from the run's JSON, never by hand. After a run,

    python -m benchmarks                                  # writes runs/benchmarks.json
    python scripts/benchmark_results.py runs/benchmarks.json

writes the file: a head line (the command; when it finished, the JSON file's time in UTC; the wall time; the machine
and its load average before and after), the run's tables as the benchmark prints them (``benchmarks.__main__.table``)
and each target's MET / MISS line. ``--out`` writes elsewhere. Run it from the repository root.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "results" / "benchmarks.md"


def loads(averages: list[float]) -> str:
    """``3.5/3.9/2.9``: the load averages, one decimal each."""
    return "/".join(f"{value:.1f}" for value in averages)


def head(results: dict[str, Any], written: dt.datetime) -> str:
    """The line that says what ran, when and where: the command, its time, its wall time and the machine."""
    machine, after = results["machine_before"], results["machine_after"]
    built = f"; build: {results['build']['name']}" if "build" in results else ""
    load = (f"; load average (1, 5, 15 min) {loads(machine['load_average'])} before, "
            f"{loads(after['load_average'])} after") if machine.get("load_average") else ""
    return (f"Written by `python scripts/benchmark_results.py` from `{results['command'].strip()}`, finished "
            f"{written:%Y-%m-%d %H:%M} UTC ({results['seconds']:.0f} s wall); {machine['cpus']} CPUs, "
            f"{machine['platform']}, Python {machine['python']}, numpy {machine['numpy']}{built}{load}.")


def target_lines(results: dict[str, Any]) -> list[str]:
    """Each target as the benchmark prints it: MET or MISS, the figure and the goal."""
    return [f"{'MET ' if t['met'] else 'MISS'}  {t['target']}: {t['value']:,.2f} "
            f"({'<=' if t['at_most'] else '>='} {t['goal']:,})" for t in results["targets"]]


def render(results: dict[str, Any], written: dt.datetime) -> str:
    """The results file: the head line, the run's tables, the targets."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.__main__ import Row, table
    from benchmarks.timing import Timing

    rows = [Row(row["section"], row["label"], row["unit"], [Timing(**timing) for timing in row["timings"]])
            for row in results["rows"]]
    instances = results["budget"]["instances"]
    lines = ["# Benchmark results", "", head(results, written), "",
             "Rates are per CPU second of the benchmark's process (the best of the interleaved rounds); how to read "
             "them: [docs/benchmarks.md](../benchmarks.md).", "",
             table(rows, results["memory_bytes"], instances).strip("\n"), "", "Targets:", "", "```text",
             *target_lines(results), "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, nargs="?", default=ROOT / "runs" / "benchmarks.json",
                        help="the JSON file python -m benchmarks wrote (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: %(default)s)")
    args = parser.parse_args(argv)
    if not args.run.is_file():
        print(f"benchmark_results: {args.run}: no such file (run python -m benchmarks first)", file=sys.stderr)
        return 2
    results = json.loads(args.run.read_text(encoding="utf-8"))
    written = dt.datetime.fromtimestamp(args.run.stat().st_mtime, dt.timezone.utc)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(results, written), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
