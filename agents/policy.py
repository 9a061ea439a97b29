"""The policy protocol every agent implements, scripted or trained.

A policy sees exactly what an env gives its seat: the observation vector and the action mask. That
single signature lets the same agent play in the AEC env, the single-agent training wrapper,
tournaments, and engine-level playouts (``state.observation(seat)`` plus the env's own
:func:`issoku.envs.adapter.legal_mask`, the one encoding of a legal-action list).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """``policy(observation, action_mask) -> action``; must return an action whose mask entry is 1."""

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class RandomLegal:
    """Uniformly random among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Restart the generator (envs call this on reset so that one seed fixes a whole episode)."""
        self._rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomLegal got an all-zero action mask")
        return int(legal[self._rng.integers(legal.size)])
