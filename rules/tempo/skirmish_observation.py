"""The tempo skirmish's observation: one ego-centric float32 vector of padded fighter slots.

Slot 0 is the observer, slots 1..capacity-1 its allies (by seat), slots capacity..2·capacity-1 its enemies
(enemy ``k`` in slot ``capacity + k``, the ``enemy<k>`` of its targeted orders); an empty slot is all
zeros, so every team size up to the capacity shares one shape and one policy plays any seat. Per slot:
presence, standing, health, AP, status, flags, the square relative to the observer, the distance, whether
it is the observer's bind or grapple partner, whether it acts or is the target of the declared action,
its reaction in the exchange, its place in the turn order, and its profile (the duel's, see
:func:`issoku.rules.tempo.observation.profile`).

The one secret is the feint (TP-027, TP-G13, TP-G08): only the declarer sees ``feint`` in ``declared``;
every other seat, allies included, sees ``melee_attack`` (docs/rules/tempo.md says why). Every value lies
in [0, 1].
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from issoku.rules.kernel import ObservationSpec
from issoku.rules.tempo.actions import PROACTIVE_TECHNIQUES, REACTIVE_TECHNIQUES, STATUS_NAMES
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.observation import PROFILE_SIZE, profile

if TYPE_CHECKING:
    from issoku.rules.tempo.state import TempoState

_PER_SLOT = (("present", 1), ("standing", 1), ("health", 1), ("ap", 1), ("status", len(STATUS_NAMES)),
             ("flags", 3), ("dx", 1), ("dy", 1), ("distance", 1), ("partner", 1), ("acting", 1), ("targeted", 1),
             ("reaction", len(REACTIVE_TECHNIQUES)), ("initiative", 1), ("profile", PROFILE_SIZE))
_DECLARED_INDEX = {name: i for i, name in enumerate(PROACTIVE_TECHNIQUES)}
_REACTION_INDEX = {name: i for i, name in enumerate(REACTIVE_TECHNIQUES)}


@lru_cache(maxsize=8)
def skirmish_spec(capacity: int) -> ObservationSpec:
    """The observation layout for sides of up to ``capacity`` fighters (``slot_field`` per slot field)."""
    fields: list[tuple[str, int, float, float]] = [
        ("decision", len(DECISION_KINDS), 0.0, 1.0),      # one-hot act / react / counter when it is my decision
        ("round", 1, 0.0, 1.0),
        ("declared", len(PROACTIVE_TECHNIQUES), 0.0, 1.0),  # the exchange's declared action (feint: own view only)
    ]
    fields += [(f"slot_{field}", width * 2 * capacity, 0.0, 1.0) for field, width in _PER_SLOT]
    return ObservationSpec(tuple(fields))


@lru_cache(maxsize=8)
def _offsets(capacity: int) -> tuple[dict[str, int], dict[str, int]]:
    """Where each global field starts, and where each per-slot field starts (its slot 0)."""
    spec = skirmish_spec(capacity)
    return ({name: spec.slice(name).start for name in ("decision", "round", "declared")},
            {field: spec.slice(f"slot_{field}").start for field, _ in _PER_SLOT})


def slots(state: "TempoState", seat: int) -> list[int]:
    """Seat per observation slot for ``seat`` (-1 for an empty slot): itself, allies, enemies, padded."""
    rules = state.ruleset
    capacity = rules.capacity
    allies = list(rules.allies[seat]) + [-1] * (capacity - 1 - len(rules.allies[seat]))
    enemies = list(rules.enemies[seat]) + [-1] * (capacity - len(rules.enemies[seat]))
    return [seat, *allies, *enemies]


def encode_skirmish(state: "TempoState", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :func:`skirmish_spec`); filled as a list, converted once (cheaper per
    element, as the duel's)."""
    rules = state.ruleset
    at, slot_at = _offsets(rules.capacity)
    vec = [0.0] * skirmish_spec(rules.capacity).size
    if state.current_seat() == seat:
        vec[at["decision"] + state.phase] = 1.0
    vec[at["round"]] = min(state.round, rules.round_limit) / rules.round_limit
    actor = state.actor()
    if state.declared >= 0:
        name = rules.table.technique_of[state.declared].name  # type: ignore[union-attr]
        if name == "feint" and actor != seat:
            name = "melee_attack"
        vec[at["declared"] + _DECLARED_INDEX[name]] = 1.0
    reactions = dict(state.reactions)
    size = rules.max_distance
    assert state.pos is not None
    here = state.pos[seat]
    order = state.order
    n_statuses, n_reactions = len(STATUS_NAMES), len(REACTIVE_TECHNIQUES)
    for slot, who in enumerate(slots(state, seat)):
        if who < 0:
            continue
        lo = state.loadout(who)
        there = state.pos[who]
        vec[slot_at["present"] + slot] = 1.0
        vec[slot_at["standing"] + slot] = float(state.hp[who] > 0)
        vec[slot_at["health"] + slot] = max(0, state.hp[who]) / lo.max_health
        vec[slot_at["ap"] + slot] = state.ap[who] / rules.ap_per_round
        vec[slot_at["status"] + slot * n_statuses + state.status[who]] = 1.0
        flags = slot_at["flags"] + slot * 3
        vec[flags] = float(state.disarmed[who])
        vec[flags + 1] = float(state.aimed[who])
        vec[flags + 2] = float(state.loaded[who])
        vec[slot_at["dx"] + slot] = (there[0] - here[0] + size) / (2 * size)
        vec[slot_at["dy"] + slot] = (there[1] - here[1] + size) / (2 * size)
        vec[slot_at["distance"] + slot] = max(abs(there[0] - here[0]), abs(there[1] - here[1])) / size
        vec[slot_at["partner"] + slot] = float(state.partner[seat] == who and who != seat)
        vec[slot_at["acting"] + slot] = float(who == actor)
        vec[slot_at["targeted"] + slot] = float(state.declared >= 0 and who == state.target)
        if who in reactions:
            reaction = rules.table.technique_of[reactions[who]].name  # type: ignore[union-attr]
            vec[slot_at["reaction"] + slot * n_reactions + _REACTION_INDEX[reaction]] = 1.0
        vec[slot_at["initiative"] + slot] = (order.index(who) + 1) / len(order)
        start = slot_at["profile"] + slot * PROFILE_SIZE
        vec[start:start + PROFILE_SIZE] = profile(lo)
    return np.array(vec, dtype=np.float32)
