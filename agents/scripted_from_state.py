"""A scripted agent's moves read straight from the game state: the route a search's playouts take where one exists.

A scripted agent is a policy on the observation and mask; a search calls it for every move of every playout, and
encoding an observation only to decode it again costs as much as the rules' own work. Where an agent can read the
same view from the state it is asked about, :func:`state_chooser` returns that route: the agent's own
``choose(state, seat)`` (the Ma duelists, :mod:`issoku.agents.ma_scripted`), or a reader kept beside the agents
(:mod:`~issoku.agents.tempo_state_view`, :mod:`~issoku.agents.encounter_state_view`: apart, so that the agents'
code fingerprints, which the reference suites were calibrated on, stay as they are). Each route makes the choice
the agent makes from the observation, tests hold.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from issoku.agents import encounter_state_view, tempo_state_view
from issoku.agents.encounter_scripted import EncounterScripted
from issoku.agents.tempo_scripted import TempoScripted

StateChooser = Callable[[Any, int], int]
"""``choose(state, seat) -> action``: the agent's move for ``seat``, whose decision it is in ``state``."""

_READERS: tuple[tuple[type, Callable[..., int]], ...] = (
    (TempoScripted, tempo_state_view.choose),
    (EncounterScripted, encounter_state_view.choose),
)


def state_chooser(agent: Any) -> StateChooser | None:
    """``agent``'s moves read from the state, or None where it can only read its observation."""
    direct = getattr(agent, "choose", None)
    if callable(direct):
        return direct  # type: ignore[no-any-return]
    for kind, choose in _READERS:
        if isinstance(agent, kind):
            return partial(choose, agent)
    return None
