"""Peak memory of env instances: Python and numpy allocations (``tracemalloc``) while ``count`` envs
are made, reset and each played through one random-legal episode, all kept alive to the end.

Content shared between instances of one configuration (an issoku ruleset, loaded once and cached) is
loaded before the measurement starts: the cost of one more env is the env and its fight.

:func:`memo_hit_rate` measures how often the breath engine's legal-action memo answers a decision
(its memory bound is :mod:`issoku.rules.breath.memo`'s).
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

from benchmarks.env_speed import play_random_episode
from issoku.rules.breath.memo import LegalMemo


def peak_bytes(make: Callable[[], Any], count: int, seed: int = 0) -> int:
    """Peak traced bytes while ``count`` envs live and play."""
    warm = make()  # shared content and caches, outside the measurement
    warm.reset(seed=seed)
    play_random_episode(warm, random.Random(seed))
    del warm
    gc.collect()
    tracemalloc.start()
    try:
        envs = []
        for index in range(count):
            env = make()
            env.reset(seed=seed + index)
            play_random_episode(env, random.Random(seed + index))
            envs.append(env)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


class _CountingMemo(LegalMemo):
    """A legal-action memo that counts its lookups and hits (the engine calls ``get`` once per memoised decision)."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups = 0
        self.hits = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.lookups += 1
        found = super().get(key, default)
        self.hits += found is not None
        return found


def memo_hit_rate(make: Callable[[], Any], episodes: int, seed: int = 0) -> dict[str, float] | None:
    """Hit rate of the legal-action memo over ``episodes`` random-legal episodes from an empty memo, and the
    entries it ends with; None for an env without one (see :mod:`issoku.rules.breath.memo`)."""
    env = make()
    ruleset = getattr(env.unwrapped, "ruleset", None)
    if not isinstance(getattr(ruleset, "legal_memo", None), LegalMemo):
        return None
    kept, ruleset.legal_memo = ruleset.legal_memo, _CountingMemo()
    try:
        for episode in range(episodes):
            env.reset(seed=seed + episode)
            play_random_episode(env, random.Random(seed + episode))
        memo = ruleset.legal_memo
        return {"lookups": memo.lookups, "hit_rate": memo.hits / max(1, memo.lookups), "entries": len(memo)}
    finally:
        ruleset.legal_memo = kept
