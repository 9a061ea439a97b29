"""Search agents' decision time: what a search agent spends per decision on positions of real fights.

Each sample plays ``positions`` seeded random fights a few decisions in (so the positions are not all the
opening), then times one decision of the agent there. The rate is decisions per CPU second; its inverse is the
seconds a decision costs on one core, the figure the ``mcts_large`` target is about.
"""

from __future__ import annotations

import random
from typing import Any

from benchmarks.timing import Stopwatch, Timing

AGENTS = ("one_step", "mcts_small", "mcts_large")
DUELS = {"ma_duel (breath_duel_v0)": ("breath_duel_v0", {}), "tempo_duel": ("tempo_duel_v0", {}),
         "encounter_duel": ("encounter_duel_v0", {})}
OPENING_DECISIONS = 6
"""Random decisions played before a timed one, at most (a shorter fight's last position is used)."""


def subjects() -> dict[str, tuple[Any, str]]:
    """Label -> (ruleset, agent name), every agent on every duel."""
    from issoku.envs.registry import make_env

    found = {}
    for duel, (env_id, kwargs) in DUELS.items():
        ruleset = make_env(env_id, **kwargs).ruleset
        for agent in AGENTS:
            found[f"{agent}, {duel}"] = (ruleset, agent)
    return found


def positions(ruleset: Any, count: int, seed: int = 0) -> list[Any]:
    """``count`` positions of seeded random fights (fights ``seed * 1000`` on), each a few random decisions in
    (at most :data:`OPENING_DECISIONS`; a shorter fight's last undecided position), every one a decision."""
    rng = random.Random(seed)
    states = []
    for index in range(count):
        state = ruleset.new_initial_state(seed * 1000 + index, record_events=False)
        for _ in range(rng.randrange(OPENING_DECISIONS + 1)):
            legal = state.legal_actions()
            if state.current_seat() is None or len(legal) == 0:
                break
            after = state.clone()
            after.apply(legal[rng.randrange(len(legal))])
            if after.current_seat() is None:
                break
            state = after
        states.append(state)
    return states


def decisions(ruleset: Any, agent: str, count: int, seed: int = 0) -> Timing:
    """``count`` timed decisions of ``agent``, one per position of :func:`positions`."""
    from issoku.agents.registry import make_policy
    from issoku.envs.adapter import legal_mask

    states = positions(ruleset, count, seed)
    size = len(ruleset.action_names)
    with Stopwatch() as watch:
        for index, state in enumerate(states):
            policy = make_policy(agent, seed=index, ruleset=ruleset)
            policy.watch(lambda state=state: state)
            seat = state.current_seat()
            policy(state.observation(seat), legal_mask(state.legal_actions(), size))
    return watch.timing(len(states))
