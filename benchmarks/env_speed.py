"""Env speed and size: random-legal steps per second through ``agent_iter``/``last``/``step``, against
PettingZoo's ``connect_four_v3`` on the same machine, and memory per env instance.

    python benchmarks/env_speed.py [--env breath_duel_v0] [--steps 30000] [--instances 100]

Targets (docs/envs.md): steps/s at least 2x connect_four_v3's; at most 1 MB per instance (rulesets are
shared between instances of one configuration, so the per-instance cost is the env and its state).
The policy's own cost (``flatnonzero`` and a draw) is in every figure alike.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
import types

import numpy as np


def steps_per_second(env, steps: int, seed: int = 0) -> float:
    """Random-legal play, the loop a user writes; dead steps count as steps, as PettingZoo's do."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(legal.size)])
            env.step(action)
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def bytes_per_instance(make, instances: int) -> float:
    """Traced memory of ``instances`` envs, each reset and stepped a little, divided by their number."""
    make().reset(seed=0)  # load shared content outside the measurement
    tracemalloc.start()
    envs = []
    for seed in range(instances):
        env = make()
        env.reset(seed=seed)
        for _ in range(10):
            if not env.agents:
                break
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        envs.append(env)
    used, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return used / instances


def connect_four():
    """PettingZoo's connect_four_v3 (pygame, imported only for its rendering, is stubbed if absent)."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="breath_duel_v0", help="a registered env id")
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--instances", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs, interleaved")
    args = parser.parse_args()
    from issoku.envs.registry import make_env

    baseline = ours = 0.0
    for _ in range(args.repeats):  # best of n, interleaved, so that a busy machine hurts both alike
        baseline = max(baseline, steps_per_second(connect_four(), args.steps))
        ours = max(ours, steps_per_second(make_env(args.env), args.steps))
    size = bytes_per_instance(lambda: make_env(args.env), args.instances)
    print(f"connect_four_v3   {baseline:10.0f} steps/s")
    print(f"{args.env:<17} {ours:10.0f} steps/s   ratio {ours / baseline:.2f} (target >= 2)")
    print(f"{args.env:<17} {size / 1024:10.1f} KiB per instance (target <= 1024)")


if __name__ == "__main__":
    main()
