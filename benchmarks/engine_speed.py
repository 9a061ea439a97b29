"""Rules-engine playouts without an env: ``legal_actions`` and ``apply`` on a ``GameState``, the loop
of combo tables, tournaments and search, with the event log off as bulk playouts run it.

``observe=True`` also encodes the deciding seat's observation each decision (what engine-level play
between policies, :func:`issoku.agents.play.play_fight`, pays). A new fight's setup is inside the timing.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.timing import Stopwatch, Timing

RULESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "ma_duel (breath_duel_v0)": ("breath_duel_v0", {}),
    "breath_fight (ma=False)": ("breath_duel_v0", {"ma": False}),
    "breath_skirmish (2v2)": ("breath_skirmish_v0", {}),
    "tempo_duel": ("tempo_duel_v0", {}),
    "tempo_skirmish (2v2)": ("tempo_skirmish_v0", {}),
    "encounter_duel": ("encounter_duel_v0", {}),
    "encounter_skirmish (2v2)": ("encounter_skirmish_v0", {}),
}
"""Benchmark label -> the env id and keyword arguments whose ruleset is played (the env is made once,
for its ruleset; the playouts never touch it)."""


FIGHTS_PER_SEED = 1_000_000


def rulesets() -> dict[str, Any]:
    """Label -> ruleset."""
    from issoku.envs.registry import make_env

    return {label: make_env(env_id, **kwargs).ruleset for label, (env_id, kwargs) in RULESETS.items()}


def playouts(ruleset: Any, decisions: int, seed: int = 0, observe: bool = False) -> Timing:
    """At least ``decisions`` random-legal decisions (whole fights), timed. Samples with different
    ``seed`` play different fights (fight seeds ``seed * FIGHTS_PER_SEED`` on), so a later sample does
    not replay an earlier one's fights."""
    rng = random.Random(seed)
    done = 0
    fight_seed = seed * FIGHTS_PER_SEED
    with Stopwatch() as watch:
        while done < decisions:
            state = ruleset.new_initial_state(fight_seed, record_events=False)
            fight_seed += 1
            while True:
                seat = state.current_seat()
                if seat is None or state.is_terminal() or state.is_truncated():
                    break
                if observe:
                    state.observation(seat)
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                done += 1
    return watch.timing(done)
