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
from typing import TYPE_CHECKING, Any

import numpy as np

from issoku.rules.kernel import ObservationSpec
from issoku.rules.kernel.encoding import FieldEncoding, Part, ego_slot_names, field, flag, one_hot, ratio, scaled
from issoku.rules.tempo.actions import PROACTIVE_TECHNIQUES, REACTIVE_TECHNIQUES, STATUS_NAMES
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.observation import PROFILE_PARTS, PROFILE_SIZE, profile, profile_values

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


def _encodings(capacity: int, ap_per_round: int, max_distance: int, round_limit: int) -> tuple[FieldEncoding, ...]:
    """What fills each field of :func:`skirmish_spec`: a slot field repeats its parts per slot (``self``, the allies,
    the enemies: :func:`slots`' order), every slot's floats after the previous slot's."""
    names = ego_slot_names(2 * capacity, capacity - 1)
    offset = ("the {axis} of its square less the observer's, plus the distance cap (the observer's own {axis} "
              "reads 0.5)")
    per_fighter: tuple[tuple[Part, ...], ...] = (   # the parts of each of _PER_SLOT's fields, in its order
        (flag("present", "a fighter fills the slot"),),
        (flag("standing", "Health above 0"),),
        (ratio("health", "[Health, maximum Health]; below 0 reads 0"),),
        (scaled("ap", ap_per_round, "AP left (the divisor: AP per round)", clip=False),),
        (one_hot("status", STATUS_NAMES, "the status"),),
        (flag("disarmed", "disarmed"), flag("aimed", "aimed"), flag("loaded", "loaded")),
        (scaled("dx", 2 * max_distance, offset.format(axis="column"), clip=False),),
        (scaled("dy", 2 * max_distance, offset.format(axis="row"), clip=False),),
        (scaled("distance", max_distance, "squares to the observer (the larger of the column and row gaps)",
                clip=False),),
        (flag("partner", "the observer's bind or grapple partner"),),
        (flag("acting", "the fighter whose turn it is (the actor)"),),
        (flag("targeted", "the target of the declared action"),),
        (one_hot("reaction", REACTIVE_TECHNIQUES, "its reaction in the exchange (none: no reaction)"),),
        (ratio("initiative", "[its place in the turn order, counting from 1, the number of fighters]"),),
        PROFILE_PARTS,
    )
    return (
        field("the decision asked of the observer (none while it is another's)",
              one_hot("decision", DECISION_KINDS, "the kind of decision")),
        field("the round", scaled("round", round_limit, "the round number")),
        field("the exchange's declared action as the observer sees it (another's feint reads melee_attack)",
              one_hot("declared", PROACTIVE_TECHNIQUES, "the technique")),
        *(field(f"per fighter slot: {name}", *parts, slots=names) for (name, _), parts in zip(_PER_SLOT, per_fighter)),
    )


@lru_cache(maxsize=32)
def skirmish_spec_for(capacity: int, ap_per_round: int, max_distance: int, round_limit: int) -> ObservationSpec:
    """:func:`skirmish_spec` with its encodings for a ruleset's AP per round, distance cap and round limit."""
    return ObservationSpec(skirmish_spec(capacity).fields,
                           encodings=_encodings(capacity, ap_per_round, max_distance, round_limit))


@lru_cache(maxsize=8)
def _offsets(capacity: int) -> tuple[dict[str, int], tuple[int, ...]]:
    """Where each global field starts, and where each per-slot field starts (its slot 0), in :data:`_PER_SLOT`
    order."""
    spec = skirmish_spec(capacity)
    return ({name: spec.slice(name).start for name in ("decision", "round", "declared")},
            tuple(spec.slice(f"slot_{field}").start for field, _ in _PER_SLOT))


def slots(state: "TempoState", seat: int) -> list[int]:
    """Seat per observation slot for ``seat`` (-1 for an empty slot): itself, allies, enemies, padded."""
    rules = state.ruleset
    capacity = rules.capacity
    allies = list(rules.allies[seat]) + [-1] * (capacity - 1 - len(rules.allies[seat]))
    enemies = list(rules.enemies[seat]) + [-1] * (capacity - len(rules.enemies[seat]))
    return [seat, *allies, *enemies]


def describe_skirmish(state: "TempoState", seat: int) -> dict[str, Any]:
    """The game values of ``encode_skirmish(state, seat)``, field by field, in the terms of the ruleset's encodings."""
    rules = state.ruleset
    actor = state.actor()
    declared = None
    if state.declared >= 0:
        declared = rules.table.technique_of[state.declared].name  # type: ignore[union-attr]
        if declared == "feint" and actor != seat:  # TP-027: every other seat sees a melee attack
            declared = "melee_attack"
    values: dict[str, Any] = {
        "decision": {"decision": state.decision_kind() if state.current_seat() == seat else None},
        "round": {"round": state.round},
        "declared": {"declared": declared},
    }
    reactions = dict(state.reactions)
    assert state.pos is not None
    here = state.pos[seat]
    size = rules.max_distance
    fighters: list[dict[str, Any] | None] = []
    for who in slots(state, seat):
        if who < 0:
            fighters.append(None)
            continue
        there = state.pos[who]
        reaction = reactions.get(who)
        fighters.append({
            "present": True, "standing": state.hp[who] > 0, "health": [state.hp[who], state.loadout(who).max_health],
            "ap": state.ap[who], "status": STATUS_NAMES[state.status[who]], "disarmed": state.disarmed[who],
            "aimed": state.aimed[who], "loaded": state.loaded[who],
            "dx": there[0] - here[0] + size, "dy": there[1] - here[1] + size,
            "distance": max(abs(there[0] - here[0]), abs(there[1] - here[1])),
            "partner": state.partner[seat] == who and who != seat, "acting": who == actor,
            "targeted": state.declared >= 0 and who == state.target,
            "reaction": None if reaction is None else rules.table.technique_of[reaction].name,  # type: ignore[union-attr]
            "initiative": [state.order.index(who) + 1, len(state.order)],
            **profile_values(state.loadout(who)),
        })
    spec = rules.observation_spec
    for name, encoding in zip(spec.names, spec.encodings or ()):
        if encoding.slots:  # a slot field: its own parts of each fighter's values
            values[name] = [None if f is None else {part.name: f[part.name] for part in encoding.parts}
                            for f in fighters]
    return values
_PROFILES: dict[int, tuple["Loadout", memoryview]] = {}
"""Each loadout's :func:`profile` as float32, by the loadout's identity (the loadout is kept, so its id is not
reused); loadouts never change, so it is computed once. Cleared past :data:`_PROFILES_LIMIT` (many variants)."""
_PROFILES_LIMIT = 4_096


def _profile32(lo: "Loadout") -> memoryview:
    """:func:`profile` of ``lo`` as float32 (numpy's rounding, as the whole vector's conversion), in a memoryview: a
    slice of the observation's own memoryview takes it as one copy."""
    known = _PROFILES.get(id(lo))
    if known is None or known[0] is not lo:
        if len(_PROFILES) >= _PROFILES_LIMIT:
            _PROFILES.clear()
        known = _PROFILES[id(lo)] = (lo, np.array(profile(lo), dtype=np.float32).data)
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
     targeted_at, reaction_at, initiative_at, profile_at) = slot_at
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
        vec[start:start + PROFILE_SIZE] = _profile32(lo)  # type: ignore[assignment]  # a float32 memoryview
    return observation
