"""One-step look-ahead: the cheap rung below tree search.

Each legal action is tried on a few sampled worlds (:func:`~issoku.agents.search.worlds.sample_world`); after
it, play goes on at random until another seat has answered and the seat decides again (or a cap of decisions
passes), and that position is scored by :func:`~issoku.agents.search.worlds.team_values`. The action with the best mean wins.
It sees one move of its own ahead and nothing of what the others would really answer: a deliberate floor
for the skill ladder, stronger than random, weaker than search.
"""

from __future__ import annotations

import random
import numpy as np

from issoku.agents.search.playouts import Chooser, random_chooser
from issoku.agents.search.worlds import quiet_copy, sample_world, team_values
from issoku.rules.kernel.protocol import GameState

REPLY_CAP = 30
"""Decisions of the other seats played after the tried action before the position is scored anyway."""


def _until_own_turn(world: GameState, seat: int, reply: Chooser) -> None:
    """Play on at random until another seat has answered and ``seat`` decides again (or the cap passes).

    The seat's own follow-up decisions are played too: an encounter attack goes on with its own choices before the
    defender rolls, and scoring it there would score a position in which nothing has happened yet."""
    answered = False
    for _ in range(REPLY_CAP):
        acting = world.current_seat()
        if acting is None or (acting == seat and answered):
            return
        answered = answered or acting != seat
        world.apply(reply(world, acting))


def look_ahead(state: GameState, seat: int, samples: int, rng: np.random.Generator) -> dict[int, float]:
    """Each legal action's mean value for ``seat`` over ``samples`` sampled worlds, one move deep."""
    if samples < 1:
        raise ValueError(f"one-step look-ahead needs samples >= 1, not {samples}")
    root = quiet_copy(state)
    legal = root.legal_actions()
    if len(legal) == 1:
        return {legal[0]: 0.0}
    reply = random_chooser(random.Random(int(rng.integers(2**63 - 1))).random)
    means: dict[int, float] = {}
    for action in legal:
        total = 0.0
        for _ in range(samples):
            world = sample_world(root, seat, rng)
            world.apply(action)
            _until_own_turn(world, seat, reply)
            total += team_values(world)[seat]
        means[action] = total / samples
    return means
