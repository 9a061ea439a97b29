"""Random-legal play through the standard AEC loop: ``agent_iter``, ``last``, a pick among the mask's
legal actions, ``step`` — the loop a user writes, the same for issoku's envs and PettingZoo's.

Dead steps (``step(None)`` for agents that are done) count as steps, as PettingZoo's own benchmarks
count them. The pick (PettingZoo's own: ``random.choice`` over ``flatnonzero``) costs the same in every row.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.classic import CLASSIC_IDS, classic_env
from benchmarks.timing import Stopwatch, Timing

ISSOKU_ENVS: dict[str, tuple[str, dict[str, Any]]] = {
    "breath_duel_v0": ("breath_duel_v0", {}),
    "breath_duel_v0(ma=False)": ("breath_duel_v0", {"ma": False}),
    "breath_skirmish_v0": ("breath_skirmish_v0", {}),
    "breath_duel_v0(casters)": ("breath_duel_v0", {"fighters": ["onmyoji", "diviner"]}),
    "tempo_duel_v0": ("tempo_duel_v0", {}),
    "tempo_skirmish_v0": ("tempo_skirmish_v0", {}),
    "encounter_duel_v0": ("encounter_duel_v0", {}),
    "encounter_skirmish_v0": ("encounter_skirmish_v0", {}),
}
"""Benchmark label -> (registered env id, keyword arguments): every registered env, at its defaults,
the core breath fight the Ma duel is built on, and the Ma duel of two casters (the spells module)."""

BASELINE = "connect_four_v3"
"""The env the issue's targets are ratios to."""


def env_factories() -> dict[str, Callable[[], Any]]:
    """Label -> a function making a new env: issoku's (every registered id must be listed) and the classic peers."""
    from issoku.envs.registry import env_ids, make_env

    missing = set(env_ids()) - {env_id for env_id, _ in ISSOKU_ENVS.values()}
    if missing:
        raise RuntimeError(f"registered envs without a benchmark row: {sorted(missing)}; add them to ISSOKU_ENVS")
    factories: dict[str, Callable[[], Any]] = {
        label: (lambda env_id=env_id, kwargs=kwargs: make_env(env_id, **kwargs))
        for label, (env_id, kwargs) in ISSOKU_ENVS.items()}
    for env_id in CLASSIC_IDS:
        factories[env_id] = lambda env_id=env_id: classic_env(env_id)
    return factories


def aec_steps(env: Any, steps: int, seed: int = 0) -> Timing:
    """At least ``steps`` random-legal AEC steps (whole episodes), timed."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    with Stopwatch() as watch:
        while done < steps:
            done += play_random_episode(env, rng)
            env.reset()
    return watch.timing(done)


def play_random_episode(env: Any, rng: random.Random) -> int:
    """One random-legal episode from the env's current reset; the number of steps.

    The pick is PettingZoo's own (``pettingzoo.test.performance_benchmark``): ``random.choice`` over the
    mask's ``flatnonzero`` as a list. A numpy ``Generator.integers`` draw costs a few microseconds, as
    much as a third of an issoku step, and a pick every row pays alike only blurs the ratios toward 1.
    """
    steps = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        steps += 1
    return steps
