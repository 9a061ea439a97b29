"""scripts/benchmark_results.py: a benchmark run's JSON becomes docs/results/benchmarks.md, stamped with the run's
command, time and machine, its tables the benchmark's own and its targets as the benchmark prints them."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script():
    spec = importlib.util.spec_from_file_location("benchmark_results", ROOT / "scripts" / "benchmark_results.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def a_run() -> dict:
    machine = {"platform": "Linux-x86_64", "python": "3.11.7", "cpus": 2, "numpy": "2.1.0", "load_average": [1.0, 1.0, 1.0]}
    return {"command": "python -m benchmarks --sections aec", "budget": {"instances": 64}, "seconds": 42.4,
            "machine_before": machine, "machine_after": {**machine, "load_average": [2.0, 1.5, 1.0]},
            "rows": [{"section": "aec", "label": "breath_duel_v0", "unit": "steps/s",
                      "timings": [{"count": 3000, "wall_s": 0.2, "cpu_s": 0.1}, {"count": 3000, "wall_s": 0.3, "cpu_s": 0.2}]},
                     {"section": "aec", "label": "connect_four_v3", "unit": "steps/s",
                      "timings": [{"count": 1000, "wall_s": 0.1, "cpu_s": 0.1}]}],
            "memory_bytes": {}, "targets": [{"target": "breath_duel_v0 AEC steps/s / connect_four_v3's (best of each)",
                                             "value": 3.0, "goal": 3.0, "at_most": False, "met": True}]}


def test_a_run_is_written_with_its_date_machine_tables_and_targets(tmp_path):
    run = tmp_path / "benchmarks.json"
    run.write_text(json.dumps(a_run()))
    os.utime(run, (1_795_000_000, 1_795_000_000))
    out = tmp_path / "results" / "benchmarks.md"
    assert load_script().main([str(run), "--out", str(out)]) == 0
    text = out.read_text()
    assert re.search(r"from `python -m benchmarks --sections aec`, finished 2026-\d\d-\d\d \d\d:\d\d UTC \(42 s wall\); "
                     r"2 CPUs, Linux-x86_64, Python 3.11.7, numpy 2.1.0; load average \(1, 5, 15 min\) 1.0/1.0/1.0 before, "
                     r"2.0/1.5/1.0 after\.", text)
    assert "| breath_duel_v0 | 30,000 | 15,000 | 3.00 |" in text  # the best sample per CPU s and per wall s
    assert "MET   breath_duel_v0 AEC steps/s / connect_four_v3's (best of each): 3.00 (>= 3.0)" in text


def test_no_run_is_one_line_and_exit_2(tmp_path, capsys):
    assert load_script().main([str(tmp_path / "none.json"), "--out", str(tmp_path / "out.md")]) == 2
    assert "no such file" in capsys.readouterr().err and not (tmp_path / "out.md").exists()


def test_the_shipped_results_file_is_stamped():
    text = (ROOT / "docs" / "results" / "benchmarks.md").read_text()
    assert text.startswith("# Benchmark results\n\nWritten by `python scripts/benchmark_results.py` from `python -m benchmarks")


def test_the_head_line_names_the_build_the_run_measured(tmp_path):
    """A compiled run and a pure-Python one are told apart in the results file, not only in the JSON."""
    run = tmp_path / "benchmarks.json"
    run.write_text(json.dumps({**a_run(), "build": {"name": "mypyc-compiled: 40 issoku modules",
                                                    "compiled_modules": ["issoku.rules.breath.engine"]}}))
    out = tmp_path / "benchmarks.md"
    assert load_script().main([str(run), "--out", str(out)]) == 0
    assert "numpy 2.1.0; build: mypyc-compiled: 40 issoku modules; load average" in out.read_text()
