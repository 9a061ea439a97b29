"""What a searching seat may plan on: worlds it cannot tell from the real one, and a score for an unfinished one.

A search agent is handed the true game state, which holds two things its seat must not use: the seeded dice
(a clone rolls exactly what the real fight will roll) and other seats' secrets (tempo's Feint declared as a
Melee Attack, TP-027). :func:`sample_world` removes both from a copy: fresh dice drawn from the agent's own
generator (the kernel's ``set_dice`` hook) and the secrets redrawn among what the seat has seen (the
``resample_hidden`` hook, for rulesets that hide anything). Every playout of a search starts from such a
sample, so its decision is the same for any two states its seat cannot tell apart.
"""

from __future__ import annotations

import numpy as np

from issoku.rules.kernel import Dice, EventLog
from issoku.rules.kernel.outcomes import health_leads
from issoku.rules.kernel.protocol import GameState

_SEED_BOUND = 2**63 - 1


class SearchUnsupportedError(TypeError):
    """The state offers no way to resample its chance, so a search would plan on the dice it will really roll."""


def quiet_copy(state: GameState) -> GameState:
    """A copy of ``state`` that records no events: playouts need none, and copying a long log costs every clone."""
    if not callable(getattr(state, "set_dice", None)):
        raise SearchUnsupportedError(
            f"{type(state).__name__} has no set_dice(dice) hook: a search agent must resample chance rather than "
            "read the seeded dice (see issoku.rules.kernel.protocol.GameState)")
    copy = state.clone()
    copy.events = EventLog(enabled=False)
    return copy


def sample_world(state: GameState, seat: int, rng: np.random.Generator) -> GameState:
    """A copy of ``state`` (made by :func:`quiet_copy`) with new dice and with whatever ``seat`` cannot see redrawn.

    Draws the same amount from ``rng`` for any two states ``seat`` cannot tell apart (the rulesets' hook
    promises as much), so a seeded search decides alike on both."""
    world = state.clone()
    world.set_dice(Dice(int(rng.integers(_SEED_BOUND))))  # type: ignore[attr-defined]
    resample = getattr(world, "resample_hidden", None)
    if resample is not None:
        resample(seat, rng)
    return world


def team_values(state: GameState) -> tuple[float, ...]:
    """Each seat's value of ``state`` in [-1, 1]: its returns once the fight is decided (a draw: half its health
    lead, :data:`DRAW_LEAD_WEIGHT`); before that, its health lead
    (:func:`~issoku.rules.kernel.outcomes.health_leads`: its side's mean share of health left, the
    ``health_fractions`` hook, less the mean of the other sides' shares).

    The cheap evaluation at a playout's depth cut-off: a fight decided by wearing the other side down scores
    a lead before the last blow, which random playouts seldom reach (most random encounter fights run to the
    round limit)."""
    if state.current_seat() is None:
        returns = tuple(state.returns())
        if any(returns):
            return returns
        return tuple(DRAW_LEAD_WEIGHT * lead for lead in health_leads(state))
    return health_leads(state)


DRAW_LEAD_WEIGHT = 0.5
"""What a health lead is worth in a drawn fight (a round limit reached), against 1 for a win.

Why not 0, the draw's return: where most playouts end at the round limit (tempo and encounter fights between
careful fighters), every action then scores the same 0, and the search has nothing to choose by; it settles for
the draw while a greedy one-step fighter wins by pressing. Half the lead keeps a win worth more than any draw."""
