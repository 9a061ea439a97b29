"""The benchmark command runs end to end and writes its JSON (a smoke test: nothing here is timed)."""

import json

from benchmarks.__main__ import main
from benchmarks.env_speed import ISSOKU_ENVS


def test_benchmark_command_runs_and_writes_every_timed_section(tmp_path, capsys):
    path = tmp_path / "bench.json"
    main(["--quick", "--steps", "30", "--decisions", "30", "--wrapper-steps", "8", "--instances", "2",
          "--sections", "aec,engine,play,ppo,memory", "--json", str(path)])
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
    printed = capsys.readouterr().out
    assert "| breath_duel_v0 |" in printed
    assert results["build"] == {"name": "pure Python", "compiled_modules": []}  # the test suite's install
    assert printed.startswith("build: pure Python\n")


def test_the_scheduling_section_times_empty_jobs_through_each_backend_and_stops_ray(tmp_path, capsys):
    import sys

    path = tmp_path / "scheduling.json"
    main(["--quick", "--sections", "scheduling", "--jobs", "6", "--json", str(path)])
    labels = {row["label"] for row in json.loads(path.read_text())["rows"] if row["section"] == "scheduling"}
    expected = {"in process", "local pool, 2 workers"} | ({"ray, local 2 CPUs"} if "ray" in sys.modules else set())
    assert labels == expected and "ms per job (wall)" in capsys.readouterr().out
    assert "ray" not in sys.modules or not sys.modules["ray"].is_initialized()


def test_the_play_section_times_a_checkpoint_one_at_a_time_and_batched(tmp_path):
    path = tmp_path / "play.json"
    main(["--quick", "--sections", "play", "--games", "4", "--json", str(path)])
    results = json.loads(path.read_text())
    labels = {row["label"] for row in results["rows"] if row["section"] == "play"}
    assert {"checkpoint vs ma_heuristic, one at a time", "checkpoint vs ma_heuristic, batched",
            "checkpoint vs itself, one at a time", "checkpoint vs itself, batched"} <= labels
    assert any(t["target"].startswith("games/s, checkpoint vs itself, batched / one at a time")
               for t in results["targets"])


def test_instruction_counts_subtract_the_set_up_run(monkeypatch, tmp_path, capsys):
    from benchmarks import instructions

    counts = {0: (1_000_000, 0), 50: (1_000_000 + 52 * 7_000, 52)}  # whole episodes: 52 steps played
    monkeypatch.setattr(instructions, "run_counted", lambda section, label, steps, warm=0: counts[steps])
    monkeypatch.setattr(instructions, "available", lambda: True)
    results = main(["--instructions", "--sections", "aec", "--steps", "50", "--json", str(tmp_path / "i.json")])
    rows = results["instructions"]["aec"]
    assert set(rows) == set(instructions.ROWS["aec"]) and "engine" not in results["instructions"]
    assert all(row["instructions_per_step"] == 7_000 and row["steps"] == 52 for row in rows.values())
    assert "| aec: breath_duel_v0 | 7,000 | 52 |" in capsys.readouterr().out


def test_the_search_section_times_each_search_rung_and_holds_the_ma_duel_decision_target(tmp_path):
    path = tmp_path / "search.json"
    main(["--quick", "--sections", "search", "--search-positions", "1", "--json", str(path)])
    results = json.loads(path.read_text())
    labels = {row["label"] for row in results["rows"] if row["section"] == "search"}
    assert {"one_step, tempo_duel", "mcts_small, encounter_duel", "mcts_large, ma_duel (breath_duel_v0)"} <= labels
    assert any(t["target"] == "seconds per decision on one core, mcts_large, ma_duel (breath_duel_v0)"
               for t in results["targets"])


def test_the_search_cost_section_times_copies_and_simulations_per_ruleset_beside_the_anchor(tmp_path, capsys):
    from benchmarks import search_cost

    path = tmp_path / "search_cost.json"
    main(["--quick", "--sections", "search_cost", "--search-positions", "1", "--json", str(path)])
    results = json.loads(path.read_text())
    rows = {(row["section"], row["label"]) for row in results["rows"]}
    assert {("clone", "encounter_skirmish (2v2)"), ("simulation", "ma_duel (breath_duel_v0)")} <= rows
    out = capsys.readouterr().out
    if search_cost.anchor_missing() is None:
        assert ("simulation", search_cost.ANCHOR) in rows and f"x {search_cost.ANCHOR}" in out
    else:
        assert f"| {search_cost.ANCHOR}: not measured: OpenSpiel is not installed" in out
    assert any(t["target"] == "seconds per 200-simulation MCTS decision on one core, ma_duel (breath_duel_v0)"
               for t in results["targets"])


def test_without_open_spiel_the_anchor_says_why(monkeypatch):
    import builtins

    from benchmarks import search_cost

    real_import = builtins.__import__

    def no_open_spiel(name, *args, **kwargs):
        if name in ("pyspiel", "open_spiel.python.algorithms"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_open_spiel)
    assert search_cost.anchor_missing().startswith("OpenSpiel is not installed")
