"""``python -m benchmarks [--quick] [--json PATH]``: the whole benchmark, one table, one JSON file.

Every measurement is repeated ``--repeats`` times in interleaved rounds (each round measures every row
once, in a rotated order) and the best sample of each row is kept, so a machine that is busy for a
while slows every row alike; the ratios in the same run are what the targets are about.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import (build, engine_speed, env_speed, instructions, memory, play_speed, ppo_speed, scheduling, search_cost,
                        search_speed, study_speed)
from benchmarks.timing import Timing

MIB = 1024 * 1024
WARM_UP_SEED = 4_000
"""Seeds the untimed warm-up play (a quarter of a sample) before the rounds; timed samples use 0, 1, ..."""


@dataclass(frozen=True)
class Budget:
    """How much each measurement plays."""

    steps: int
    decisions: int
    ppo_rollouts: int
    wrapper_steps: int
    instances: int
    repeats: int
    memo_episodes: int
    games: int
    jobs: int
    study_games: int
    search_positions: int
    simulation_positions: int


FULL = Budget(steps=20_000, decisions=20_000, ppo_rollouts=2, wrapper_steps=4_096, instances=64, repeats=5,
              memo_episodes=200, games=256, jobs=2_000, study_games=400, search_positions=20,
              simulation_positions=4)
QUICK = Budget(steps=2_000, decisions=2_000, ppo_rollouts=1, wrapper_steps=256, instances=8, repeats=1,
               memo_episodes=10, games=16, jobs=100, study_games=16, search_positions=2,
               simulation_positions=1)
SECTIONS = ("aec", "engine", "play", "study", "ppo", "memory", "scheduling", "search", "search_cost")
SEARCH_DECISION_TARGET = ("mcts_large, ma_duel (breath_duel_v0)", 0.5)
"""The search rung held to a time per decision on one core: the lab's default searcher in the Ma duel."""
SIMULATION_TARGET = ("ma_duel (breath_duel_v0)", 0.2)
"""The ruleset whose :data:`~benchmarks.search_cost.SIMULATIONS`-simulation decision is held to a time on one core."""
PLAY_TARGET = 10.0
"""Batched games/s over one-at-a-time games/s."""
PLAY_BASELINES = {play_speed.SB3_PREDICT: "per decision, the tournament's path before batching",
                  play_speed.ONE_AT_A_TIME: "this lab's light actor, a batch of one"}
"""The two one-at-a-time ways a batched row is compared with, and what each is."""


@dataclass
class Row:
    """One measured row: its samples (the best is the figure)."""

    section: str
    label: str
    unit: str
    timings: list[Timing] = field(default_factory=list)

    @property
    def best(self) -> float:
        """The best rate per CPU second."""
        return max(timing.rate for timing in self.timings)

    @property
    def best_wall(self) -> float:
        """The best rate per wall-clock second."""
        return max(timing.wall_rate for timing in self.timings)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small budgets, one round, 8 instances, a smaller PPO rollout (a check that it runs)")
    parser.add_argument("--json", default="runs/benchmarks.json", help="where to write every sample (default: %(default)s)")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help="comma-separated subset of " + ",".join(SECTIONS))
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per step under valgrind (callgrind) instead of timing: rows of "
                             "the aec and engine sections, --steps of play each (default 2,000; --quick 200)")
    for name in ("steps", "decisions", "ppo-rollouts", "wrapper-steps", "instances", "repeats", "memo-episodes",
                 "games", "jobs", "study-games", "search-positions", "simulation-positions"):
        parser.add_argument(f"--{name}", type=int, help="override the budget's " + name)
    return parser.parse_args(argv)


def budget_of(args: argparse.Namespace) -> Budget:
    base = QUICK if args.quick else FULL
    overrides = {name: getattr(args, name) for name in Budget.__dataclass_fields__ if getattr(args, name) is not None}
    return Budget(**{**base.__dict__, **overrides})


def measure(args: argparse.Namespace, budget: Budget) -> tuple[list[Row], dict[str, dict[str, float]]]:
    """Build the subjects, then run interleaved rounds over every timed row; memory last (untimed)."""
    sections = set(args.sections.split(","))
    unknown = sections - set(SECTIONS)
    if unknown:
        raise SystemExit(f"unknown sections: {sorted(unknown)}")
    jobs: list[tuple[Row, Callable[[int], Timing]]] = []
    factories = env_speed.env_factories()
    if "aec" in sections:
        for label, make in factories.items():
            env = make()
            env_speed.aec_steps(env, budget.steps // 4, seed=WARM_UP_SEED)  # caches, memos, first calls: out of the timings
            jobs.append((Row("aec", label, "steps/s"),
                         lambda r, env=env: env_speed.aec_steps(env, budget.steps, seed=r)))
    if "engine" in sections:
        for label, ruleset in engine_speed.rulesets().items():
            engine_speed.playouts(ruleset, budget.decisions // 4, seed=WARM_UP_SEED)  # the same
            for observe in (False, True):
                row = Row("engine_observe" if observe else "engine", label, "decisions/s")
                jobs.append((row, lambda r, ruleset=ruleset, observe=observe:
                             engine_speed.playouts(ruleset, budget.decisions, seed=r, observe=observe)))
    if "play" in sections:
        play_rows, _checkpoint_folder = play_speed.subjects()  # the folder lives until the rounds are done
        for label, (policies, width) in play_rows.items():
            play_speed.games(policies, max(2, budget.games // 4), seed=WARM_UP_SEED, width=width)  # the same
            jobs.append((Row("play", label, "games/s"), lambda r, policies=policies, width=width:
                         play_speed.games(policies, budget.games, seed=r, width=width)))
    if "study" in sections:
        study_rows, _study_folder = study_speed.subjects()  # the folder lives until the rounds are done
        for label, policies in study_rows.items():
            jobs.append((Row("study", label, "games/s"), lambda r, policies=policies:
                         study_speed.study(policies, budget.study_games, seed=r)))
    if "ppo" in sections:
        for env_id in ppo_speed.PPO_ENVS:
            model = ppo_speed.learner(env_id, quick=args.quick)
            timesteps = budget.ppo_rollouts * ppo_speed.rollout_size(model)
            jobs.append((Row("ppo", env_id, "timesteps/s"),
                         lambda r, model=model, timesteps=timesteps: ppo_speed.learn(model, timesteps)))
            if env_id in ppo_speed.HUNT_ENVS:
                for processes in (False, True):
                    hunt_model = ppo_speed.hunt_learner(env_id, quick=args.quick, processes=processes)
                    label = f"{env_id} hunt best response{', a process per env' if processes else ''}"
                    jobs.append((Row("ppo", label, "timesteps/s"),
                                 lambda r, model=hunt_model, timesteps=timesteps: ppo_speed.learn(model, timesteps)))
            _, vec_env = ppo_speed.self_play_envs(env_id, quick=args.quick)
            jobs.append((Row("wrapper", env_id, "steps/s"),
                         lambda r, vec_env=vec_env: ppo_speed.wrapper_steps(vec_env, budget.wrapper_steps, r)))
    if "search" in sections:
        for label, (ruleset, agent) in search_speed.subjects().items():
            jobs.append((Row("search", label, "decisions/s"), lambda r, ruleset=ruleset, agent=agent:
                         search_speed.decisions(ruleset, agent, budget.search_positions, seed=r)))
    if "search_cost" in sections:
        for label, ruleset in engine_speed.rulesets().items():
            jobs.append((Row("clone", label, "copies/s"), lambda r, ruleset=ruleset:
                         search_cost.clones(ruleset, budget.search_positions, seed=r)))
            jobs.append((Row("simulation", label, "simulations/s"), lambda r, ruleset=ruleset:
                         search_cost.simulations(ruleset, budget.simulation_positions, seed=r)))
        if search_cost.anchor_missing() is None:
            jobs.append((Row("clone", search_cost.ANCHOR, "copies/s"),
                         lambda r: search_cost.anchor_clones(budget.search_positions, seed=r)))
            jobs.append((Row("simulation", search_cost.ANCHOR, "simulations/s"),
                         lambda r: search_cost.anchor_simulations(budget.simulation_positions, seed=r)))
    if "scheduling" in sections:
        for label, backend in scheduling.backends().items():
            jobs.append((Row("scheduling", label, "jobs/s"),
                         lambda r, backend=backend: scheduling.jobs(backend, budget.jobs)))
    for round_index in range(budget.repeats):
        shift = round_index * len(jobs) // max(1, budget.repeats)
        for row, run in jobs[shift:] + jobs[:shift]:
            timing = run(round_index)
            row.timings.append(timing)
            print(f"  round {round_index + 1}/{budget.repeats}  {row.section:<15} {row.label:<26} "
                  f"{timing.rate:>10.0f} {row.unit} (wall {timing.wall_rate:.0f})", file=sys.stderr, flush=True)
    if "scheduling" in sections:
        scheduling.close()
    memory_rows: dict[str, dict[str, float]] = {}
    if "memory" in sections:
        for label, make in factories.items():
            one = memory.peak_bytes(make, 1)
            many = memory.peak_bytes(make, budget.instances)
            memory_rows[label] = {"peak_one": one, f"peak_{budget.instances}": many,
                                  "per_instance": many / budget.instances}
            memo = memory.memo_hit_rate(make, budget.memo_episodes)
            if memo is not None:
                memory_rows[label].update({f"memo_{key}": value for key, value in memo.items()})
            print(f"  memory {label:<26} one {one / 1024:.0f} KiB, {budget.instances} "
                  f"{many / MIB:.1f} MiB", file=sys.stderr, flush=True)
    return [row for row, _ in jobs], memory_rows


def median_ratio(rows: list[Row], section: str, label: str, baseline: str) -> float | None:
    """The median over rounds of ``label``'s rate over ``baseline``'s in the same round (a second view
    of the ratio, less sensitive to one lucky sample than the ratio of the bests)."""
    picked = {row.label: row for row in rows if row.section == section}
    if label not in picked or baseline not in picked:
        return None
    return statistics.median(a.rate / b.rate for a, b in zip(picked[label].timings, picked[baseline].timings))


def best_of(rows: list[Row], section: str, label: str) -> float | None:
    return next((row.best for row in rows if row.section == section and row.label == label), None)


AEC_ALL_TARGET = 2.5
AEC_TARGETS = {**{label: AEC_ALL_TARGET for label in env_speed.ISSOKU_ENVS}, "breath_duel_v0": 5.0}
"""Envs held to a multiple of ``connect_four_v3``'s AEC steps/s: every env (each registered id at its
defaults, the core breath fight and the casters' duel) at 2.5x, and the Ma duel, the lab's first env, at 5x."""


def targets(rows: list[Row], memory_rows: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """The issue's targets, each with its measured value and whether it is met."""
    found: list[dict[str, Any]] = []

    def target(name: str, value: float | None, goal: float, at_most: bool = False) -> None:
        if value is not None:
            found.append({"target": name, "value": value, "goal": goal, "at_most": at_most,
                          "met": value <= goal if at_most else value >= goal})

    for env_id, goal in AEC_TARGETS.items():
        ours, baseline = best_of(rows, "aec", env_id), best_of(rows, "aec", env_speed.BASELINE)
        target(f"{env_id} AEC steps/s / connect_four_v3's (best of each)", ours / baseline if ours and baseline else None,
               goal)
        target(f"{env_id} AEC steps/s / connect_four_v3's (median of the rounds' ratios)",
               median_ratio(rows, "aec", env_id, env_speed.BASELINE), goal)
    for row in rows:
        if row.section == "engine":
            target(f"engine decisions/s, {row.label}", row.best, 30_000)
    for row in rows:
        if row.section in ("play", "study") and f", {play_speed.BATCHED}" in row.label:
            pairing = row.label.partition(f", {play_speed.BATCHED}")[0]
            for how, meaning in PLAY_BASELINES.items():
                alone = f"{pairing}, {how}"
                one = best_of(rows, row.section, alone)
                if one is None:
                    continue  # a study has no one-at-a-time row of the light actor
                target(f"games/s, {row.label} / {how} ({meaning}), best of each", row.best / one, PLAY_TARGET)
                target(f"games/s, {row.label} / {how} ({meaning}), median of the rounds' ratios",
                       median_ratio(rows, row.section, row.label, alone), PLAY_TARGET)
    ours, baseline = best_of(rows, "ppo", "breath_duel_v0"), best_of(rows, "ppo", "connect_four_v3")
    target("MaskablePPO timesteps/s, breath_duel_v0 / connect_four_v3 (best of each)",
           ours / baseline if ours and baseline else None, 0.9)
    target("MaskablePPO timesteps/s, breath_duel_v0 / connect_four_v3 (median of the rounds' ratios)",
           median_ratio(rows, "ppo", "breath_duel_v0", "connect_four_v3"), 0.9)
    label, most = SEARCH_DECISION_TARGET
    rate = best_of(rows, "search", label)
    target(f"seconds per decision on one core, {label}", 1 / rate if rate else None, most, at_most=True)
    label, most = SIMULATION_TARGET
    rate = best_of(rows, "simulation", label)
    target(f"seconds per {search_cost.SIMULATIONS}-simulation MCTS decision on one core, {label}",
           search_cost.SIMULATIONS / rate if rate else None, most, at_most=True)
    for label, sizes in memory_rows.items():
        if label in env_speed.ISSOKU_ENVS:
            target(f"MiB per instance (peak of many / many), {label}", sizes["per_instance"] / MIB, 1.0, at_most=True)
            target(f"MiB peak of one instance, {label}", sizes["peak_one"] / MIB, 1.0, at_most=True)
    return found


def table(rows: list[Row], memory_rows: dict[str, dict[str, float]], instances: int) -> str:
    """The printed (and documented) table, in Markdown."""
    lines = []
    aec_base = best_of(rows, "aec", env_speed.BASELINE)
    sections = [("aec", "AEC random-legal play", aec_base, f"x {env_speed.BASELINE}"),
                ("engine", "engine playouts (legal_actions + apply)", None, ""),
                ("engine_observe", "engine playouts + observation of the decider", None, ""),
                ("play", "tournament play, breath_duel_v0 (one job)", next(
                    (row.best for row in rows if row.section == "play" and row.label.startswith("scripted")), None),
                 "x scripted"),
                ("study", f"a whole study on {study_speed.WORKERS} workers, breath_duel_v0 (every process's CPU)",
                 best_of(rows, "study", f"study: checkpoint vs itself, {play_speed.SB3_PREDICT}"), "x SB3 predict"),
                ("ppo", "MaskablePPO learn (self-play wrapper vs random)", best_of(rows, "ppo", "connect_four_v3"),
                 "x connect_four_v3"),
                ("wrapper", "self-play wrapper alone (random masked actions)", best_of(rows, "wrapper", "connect_four_v3"),
                 "x connect_four_v3"),
                ("search", "search agents' decisions (one core)", None, "s per decision"),
                ("clone", "state copies (event-free, as a search makes them)", best_of(rows, "clone", search_cost.ANCHOR),
                 f"x {search_cost.ANCHOR}"),
                ("simulation", f"MCTS simulations ({search_cost.SIMULATIONS} a decision, scripted playouts)",
                 best_of(rows, "simulation", search_cost.ANCHOR), f"x {search_cost.ANCHOR}"),
                ("scheduling", "empty jobs through each backend (the wall rate is the figure)", None,
                 "ms per job (wall)")]
    for section, title, base, ratio_name in sections:
        picked = [row for row in rows if row.section == section]
        if not picked:
            continue
        lines += ["", f"| {title} | {picked[0].unit} per CPU s | per wall s | {ratio_name or 'thousands'} |",
                  "|---|---:|---:|---:|"]
        for row in picked:
            extra = f"{row.best / base:.2f}" if base else f"{row.best / 1000:.1f}k"
            if section == "scheduling":
                extra = f"{1000 / row.best_wall:.2f}"
            if section == "search":
                extra = f"{1 / row.best:.3f}"
            lines.append(f"| {row.label} | {row.best:,.0f} | {row.best_wall:,.0f} | {extra} |")
        if section in ("clone", "simulation") and base is None:
            lines.append(f"| {search_cost.ANCHOR}: not measured: {search_cost.anchor_missing()} | | | |")
    if memory_rows:
        lines += ["", f"| peak memory (tracemalloc) | one instance | {instances} instances | per instance |",
                  "|---|---:|---:|---:|"]
        for label, sizes in memory_rows.items():
            lines.append(f"| {label} | {sizes['peak_one'] / 1024:,.0f} KiB | "
                         f"{sizes[f'peak_{instances}'] / MIB:,.2f} MiB | {sizes['per_instance'] / 1024:,.0f} KiB |")
        memos = {label: sizes for label, sizes in memory_rows.items() if "memo_hit_rate" in sizes}
        if memos:
            lines += ["", "| legal-action memo (random play from empty) | lookups | hit rate | entries at the end |",
                      "|---|---:|---:|---:|"]
            lines += [f"| {label} | {sizes['memo_lookups']:,.0f} | {sizes['memo_hit_rate']:.1%} | "
                      f"{sizes['memo_entries']:,.0f} |" for label, sizes in memos.items()]
    return "\n".join(lines[1:])


def machine() -> dict[str, Any]:
    """What the figures were measured on (load averages say how busy it was)."""
    return {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count(),
            "numpy": np.__version__, "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None}


def count_instructions(args: argparse.Namespace) -> dict[str, Any]:
    """``--instructions``: the callgrind counts of :mod:`benchmarks.instructions`, printed and written as JSON."""
    if not instructions.available():
        raise SystemExit("--instructions needs valgrind on the PATH (apt-get install valgrind)")
    steps = args.steps or (200 if args.quick else 2_000)
    started = machine()
    found = instructions.measure(set(args.sections.split(",")), steps)
    results = {"command": "python -m benchmarks " + " ".join(sys.argv[1:]), "instructions": found,
               "machine_before": started, "machine_after": machine()}
    print(instructions.table(found))
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {path}")
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.instructions:
        return count_instructions(args)
    budget = budget_of(args)
    started = machine()
    start = time.perf_counter()
    rows, memory_rows = measure(args, budget)
    compiled = build.compiled_modules()
    results = {
        "command": "python -m benchmarks " + " ".join(sys.argv[1:] if argv is None else argv),
        "build": {"name": build.describe(compiled), "compiled_modules": compiled},
        "budget": budget.__dict__,
        "machine_before": started,
        "machine_after": machine(),
        "seconds": time.perf_counter() - start,
        "rows": [{"section": r.section, "label": r.label, "unit": r.unit, "best_per_cpu_s": r.best,
                  "best_per_wall_s": r.best_wall, "timings": [t.__dict__ for t in r.timings]} for r in rows],
        "memory_bytes": memory_rows,
        "targets": targets(rows, memory_rows),
    }
    print(f"build: {results['build']['name']}\n")
    print(table(rows, memory_rows, budget.instances))
    print()
    for t in results["targets"]:
        print(f"{'MET ' if t['met'] else 'MISS'}  {t['target']}: {t['value']:,.2f} "
              f"({'<=' if t['at_most'] else '>='} {t['goal']:,})")
    load = results["machine_before"]["load_average"], results["machine_after"]["load_average"]
    print(f"\n{started['cpus']} CPUs, load average before {load[0]}, after {load[1]}; "
          f"{results['seconds']:.0f} s")
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {path}")
    return results


if __name__ == "__main__":
    main()
