"""The scripted tempo fighters' view read straight from a tempo state, for a search's playouts.

A search plays its playouts with a scripted fighter (:mod:`issoku.agents.search.playouts`), thousands of moves a
decision; encoding each observation only to decode it again (:func:`issoku.agents.tempo_scripted.read`) cost half
a playout. :func:`read_state` builds the same :class:`~issoku.agents.tempo_scripted.View` from the state: exactly
what the observation shows, rounded to float32 as it is stored, a feint of the other seat read as a melee attack
(TP-027). It lives apart from the fighters so that their code, and with it the reference suites' calibration
(:func:`issoku.evaluation.games.policies.code_fingerprint`), stays as it was; ``tests/tempo/test_tempo_agents.py``
holds both ways to the same views and the same choices.
"""

from __future__ import annotations

import numpy as np

from issoku.agents.tempo_scripted import TempoScripted, View, first_legal
from issoku.envs.adapter import legal_mask
from issoku.rules.tempo.actions import ACTION_NAMES, STATUS_NAMES, TECHNIQUE_OF
from issoku.rules.tempo.kinds import ACT_KIND, DECISION_KINDS
from issoku.rules.tempo.state import TempoState

_PASS = ACTION_NAMES.index("pass")


def _ratio(part: float, whole: float) -> float:
    """``part / whole`` rounded to float32 as the observation stores it, so the view compares as the observation's."""
    return float(np.float32(part / whole))


def _technique(index: int) -> str | None:
    technique = TECHNIQUE_OF[index] if index >= 0 else None
    return technique.name if technique is not None else None


def read_state(state: TempoState, seat: int) -> View:
    """:func:`~issoku.agents.tempo_scripted.read` of ``seat``'s observation of ``state``, read from the state."""
    rules = state.ruleset
    me, foe = state.loadout(seat), state.loadout(1 - seat)
    declared = _technique(state.declared)
    if declared == "feint" and state.actor() != seat:  # TP-027: the other seat's feint reads as a melee attack
        declared = "melee_attack"
    return View(
        decision=DECISION_KINDS[state.phase] if state.current_seat() == seat else ACT_KIND,
        status=STATUS_NAMES[state.status[seat]],
        opponent_status=STATUS_NAMES[state.status[1 - seat]],
        health=_ratio(max(0, state.hp[seat]), me.max_health),
        opponent_health=_ratio(max(0, state.hp[1 - seat]), foe.max_health),
        ap=_ratio(state.ap[seat], rules.ap_per_round),
        distance=_ratio(state.distance, rules.max_distance),
        declared=declared,
        reaction=_technique(state.reaction),
        weapon_kind=me.weapon.kind,
        disarmed=bool(state.disarmed[seat]),
        loaded=bool(state.loaded[seat]),
    )


def choose(agent: TempoScripted, state: TempoState, seat: int) -> int:
    """The action ``agent`` picks given ``seat``'s observation and mask of ``state`` (whose decision it is): its
    first preference the state allows, else ``pass``, as :meth:`TempoScripted.__call__` picks."""
    choice = first_legal(legal_mask(state.legal_actions(), len(ACTION_NAMES)), agent.preferences(read_state(state, seat)))
    return choice if choice is not None else _PASS
