"""The benchmark command runs end to end and writes its JSON (a smoke test: nothing here is timed)."""

import json

from benchmarks.__main__ import main
from benchmarks.env_speed import ISSOKU_ENVS


def test_benchmark_command_runs_and_writes_every_section(tmp_path, capsys):
    path = tmp_path / "bench.json"
    main(["--quick", "--steps", "30", "--decisions", "30", "--wrapper-steps", "8", "--instances", "2",
          "--json", str(path)])
    results = json.loads(path.read_text())
    sections = {(row["section"], row["label"]) for row in results["rows"]}
    assert {("aec", label) for label in ISSOKU_ENVS} <= sections
    assert {("aec", "connect_four_v3"), ("aec", "tictactoe_v3"), ("ppo", "breath_duel_v0"),
            ("ppo", "connect_four_v3"), ("engine", "tempo_duel")} <= sections
    assert all(row["best_per_cpu_s"] > 0 for row in results["rows"])
    assert set(results["memory_bytes"]) == set(ISSOKU_ENVS) | {"connect_four_v3", "tictactoe_v3"}
    assert any(t["target"].startswith("breath_duel_v0 AEC") for t in results["targets"])
    assert any(t["target"].startswith("encounter_duel_v0 AEC") for t in results["targets"])
    assert ("engine", "encounter_duel") in sections and ("engine_observe", "encounter_duel") in sections
    assert "| breath_duel_v0 |" in capsys.readouterr().out
