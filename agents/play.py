"""Engine-level play between policies: the fastest way to run a fight when no env is needed.

The policies see exactly what an env would give them (``state.observation(seat)`` and the legal mask),
so results match env play; the main job (``issoku duel``), tests and bulk studies use this loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from issoku.agents.policy import Policy
from issoku.agents.state_reading import watch_state
from issoku.envs.adapter import legal_mask
from issoku.rules.kernel.protocol import GameState


def play_fight(state: GameState, policies: Sequence[Policy], max_decisions: int = 100_000) -> GameState:
    """Let ``policies[seat]`` decide for each seat until the fight is over; returns the state."""
    num_actions = len(state.ruleset.action_names)
    for policy in policies:
        watch_state(policy, lambda: state)
    for _ in range(max_decisions):
        seat = state.current_seat()
        if seat is None or state.is_terminal() or state.is_truncated():
            return state
        state.apply(policies[seat](state.observation(seat), legal_mask(state.legal_actions(), num_actions)))
    raise RuntimeError(f"the fight did not end within {max_decisions} decisions")
