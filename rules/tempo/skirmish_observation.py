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

from collections.abc import MutableSequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from issoku.rules.kernel import ObservationSpec
from issoku.rules.tempo.actions import PROACTIVE_TECHNIQUES, REACTIVE_TECHNIQUES, STATUS_NAMES
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.observation import PROFILE_SIZE, profile

if TYPE_CHECKING:
    from issoku.rules.tempo.loadout import Loadout
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


_PROFILES: dict[int, tuple["Loadout", np.ndarray]] = {}
"""Each loadout's :func:`profile` as float32, by the loadout's identity (the loadout is kept, so its id is not
reused); loadouts never change, so it is computed once. Cleared past :data:`_PROFILES_LIMIT` (many variants)."""
_PROFILES_LIMIT = 4_096


def _profile32(lo: "Loadout") -> np.ndarray:
    """:func:`profile` of ``lo`` as a float32 array (numpy's rounding, as the whole vector's conversion)."""
    known = _PROFILES.get(id(lo))
    if known is None or known[0] is not lo:
        if len(_PROFILES) >= _PROFILES_LIMIT:
            _PROFILES.clear()
        known = _PROFILES[id(lo)] = (lo, np.array(profile(lo), dtype=np.float32))
    return known[1]


def encode_skirmish(state: "TempoState", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :func:`skirmish_spec`).

    Speed: this runs on every env step. Values are stored into a zeroed float32 array through a ``memoryview``
    (a C cast per float, numpy's rounding, as the duel's and the breath encoders do); each loadout's profile is
    converted once (:func:`_profile32`)."""
    rules = state.ruleset
    at, slot_at = _offsets(rules.capacity)
    observation = np.zeros(skirmish_spec(rules.capacity).size, dtype=np.float32)
    # A memoryview of a float32 ndarray (format "f") indexes and stores as floats (typeshed types it as ints).
    vec: MutableSequence[float] = memoryview(observation)  # type: ignore[assignment, arg-type]
    if state.current_seat() == seat:
        vec[at["decision"] + state.phase] = 1.0
    vec[at["round"]] = min(state.round, rules.round_limit) / rules.round_limit
    actor = state.actor()
    declared = state.declared
    if declared >= 0:
        name = rules.table.technique_of[declared].name  # type: ignore[union-attr]
        if name == "feint" and actor != seat:
            name = "melee_attack"
        vec[at["declared"] + _DECLARED_INDEX[name]] = 1.0
    reactions = dict(state.reactions)
    size = rules.max_distance
    assert state.pos is not None
    pos = state.pos
    here_x, here_y = pos[seat]
    order = state.order
    hp, ap, status, disarmed, aimed, loaded = (state.hp, state.ap, state.status, state.disarmed, state.aimed,
                                              state.loaded)
    loadouts = rules.loadouts
    partner = state.partner[seat]
    target = state.target if declared >= 0 else None
    ap_scale, width, ranks = rules.ap_per_round, 2 * size, len(order)
    n_statuses, n_reactions = len(STATUS_NAMES), len(REACTIVE_TECHNIQUES)
    (present_at, standing_at, health_at, ap_at, status_at, flags_at, dx_at, dy_at, distance_at, partner_at, acting_at,
     targeted_at, reaction_at, initiative_at, profile_at) = (slot_at[field] for field, _ in _PER_SLOT)
    for slot, who in enumerate(slots(state, seat)):
        if who < 0:
            continue
        lo = loadouts[who][disarmed[who]]  # ``state.loadout(who)``
        there_x, there_y = pos[who]
        vec[present_at + slot] = 1.0
        health = hp[who]
        if health > 0:
            vec[standing_at + slot] = 1.0
            vec[health_at + slot] = health / lo.max_health
        vec[ap_at + slot] = ap[who] / ap_scale
        vec[status_at + slot * n_statuses + status[who]] = 1.0
        flags = flags_at + slot * 3
        if disarmed[who]:
            vec[flags] = 1.0
        if aimed[who]:
            vec[flags + 1] = 1.0
        if loaded[who]:
            vec[flags + 2] = 1.0
        vec[dx_at + slot] = (there_x - here_x + size) / width
        vec[dy_at + slot] = (there_y - here_y + size) / width
        vec[distance_at + slot] = max(abs(there_x - here_x), abs(there_y - here_y)) / size
        if partner == who and who != seat:
            vec[partner_at + slot] = 1.0
        if who == actor:
            vec[acting_at + slot] = 1.0
        if who == target:
            vec[targeted_at + slot] = 1.0
        if who in reactions:
            reaction = rules.table.technique_of[reactions[who]].name  # type: ignore[union-attr]
            vec[reaction_at + slot * n_reactions + _REACTION_INDEX[reaction]] = 1.0
        vec[initiative_at + slot] = (order.index(who) + 1) / ranks
        start = profile_at + slot * PROFILE_SIZE
        observation[start:start + PROFILE_SIZE] = _profile32(lo)
    return observation
