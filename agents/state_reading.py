"""Handing the game state to a policy that reads it: the one convention between game loops and search agents.

A policy is ``(observation, action_mask) -> action`` (:mod:`issoku.agents.policy`). A search agent keeps that
signature and also reads the game state it searches from; it marks itself ``reads_state`` and takes a way to
read the state with ``watch(state_of)``. Every game loop of the lab calls :func:`watch_state` once per policy
before the first decision, so any policy can play anywhere and only the ones that search are handed the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def watch_state(policy: Any, state_of: Callable[[], Any]) -> None:
    """Hand ``state_of`` (returning the game state being played) to ``policy`` if it reads the state (a search
    agent, :mod:`issoku.agents.search`); every other policy is left alone. The agent samples from the state only
    what its seat may know."""
    if getattr(policy, "reads_state", False):
        policy.watch(state_of)
