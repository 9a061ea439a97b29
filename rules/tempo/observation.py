"""The tempo duel's observation: one ego-centric float32 vector with named slices.

Everything in it is public or the seat's own: health, AP, statuses, flags, distance, the round, the
declared action and the reaction of the exchange in progress, both fighters' profiles. The one
secret of 003 is the feint (TP-027, TP-G13): the declaring seat sees ``feint`` in ``declared``, its
opponent sees ``melee_attack``, so an observation never reveals whether an attack is a feint.
Every value lies in [0, 1].
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from issoku.rules.kernel import ObservationSpec
from issoku.rules.kernel.encoding import FieldEncoding, decision_and_turn, field, flag, one_hot, ratio, scaled
from issoku.rules.tempo.actions import (
    PROACTIVE_TECHNIQUES,
    REACTIVE_TECHNIQUES,
    SKILL_NAMES,
    STATUS_NAMES,
    TECHNIQUE_OF,
)
from issoku.rules.tempo.content import WEAPON_KINDS
from issoku.rules.tempo.kinds import DECISION_KINDS

if TYPE_CHECKING:
    from issoku.rules.tempo.loadout import Loadout
    from issoku.rules.tempo.state import TempoState

_FLAGS = ("disarmed", "aimed", "loaded")
_RANGE_SCALE = 24
PROFILE_SCALE = {"skill": 5, "armour_rating": 10, "encumbrance": 5, "reach": 4, "range": _RANGE_SCALE,
                 "melee_attack_ap": 12, "damage": 30}
"""The profile's divisors: :func:`profile` and the encoding (an export's manifest) both read them."""
PROFILE_PARTS = (
    *(scaled(f"skill_{name}", PROFILE_SCALE["skill"], f"{name} skill", clip=False) for name in SKILL_NAMES),
    scaled("armour_rating", PROFILE_SCALE["armour_rating"], "armour rating", clip=False),
    scaled("encumbrance", PROFILE_SCALE["encumbrance"], "encumbrance", clip=False),
    one_hot("weapon_kind", WEAPON_KINDS, "the kind of the weapon in hand (bare hands once disarmed)"),
    scaled("reach", PROFILE_SCALE["reach"], "the weapon's reach in squares", clip=False),
    scaled("range", PROFILE_SCALE["range"], "the weapon's range in squares"),
    scaled("melee_attack_ap", PROFILE_SCALE["melee_attack_ap"], "AP of a melee attack with the weapon", clip=False),
    scaled("damage", PROFILE_SCALE["damage"], "the damage die's sides plus the damage bonus"),
)
PROFILE_SIZE = sum(part.width for part in PROFILE_PARTS)


def _side_encodings(side: str, ap_per_round: int) -> tuple[FieldEncoding, ...]:
    """The encodings of one side's fields (``self`` or ``opponent``), in :data:`SPEC` order."""
    who = "the observer" if side == "self" else "the opponent"
    return (
        field(f"{who}'s Health", ratio("health", "[Health, maximum Health]; below 0 reads 0")),
        field(f"{who}'s AP", scaled("ap", ap_per_round, "AP left (the divisor: AP per round)", clip=False)),
        field(f"{who}'s status", one_hot("status", STATUS_NAMES, "the status")),
        field(f"{who}'s flags", *(flag(name, name) for name in _FLAGS)),
    )


def _encodings(ap_per_round: int, max_distance: int, round_limit: int) -> tuple[FieldEncoding, ...]:
    """What fills each field of :data:`SPEC`, for a ruleset's AP per round, distance cap and round limit."""
    return (
        *decision_and_turn(DECISION_KINDS, "the observer acts first each round"),
        *_side_encodings("self", ap_per_round), *_side_encodings("opponent", ap_per_round),
        field("the distance", scaled("distance", max_distance, "distance in squares")),
        field("the round", scaled("round", round_limit, "the round number")),
        field("the exchange's declared action as the observer sees it (the opponent's feint reads melee_attack)",
              one_hot("declared", PROACTIVE_TECHNIQUES, "the technique")),
        field("the reaction in the exchange", one_hot("reaction", REACTIVE_TECHNIQUES, "the technique")),
        field("the observer's profile", *PROFILE_PARTS),
        field("the opponent's profile", *PROFILE_PARTS),
    )


FIELDS = (
    ("decision", len(DECISION_KINDS), 0.0, 1.0),   # one-hot act / react / counter when it is this seat's decision
    ("turn", 2, 0.0, 1.0),                         # [it is my turn, I act first each round]
    ("self_health", 1, 0.0, 1.0),
    ("self_ap", 1, 0.0, 1.0),
    ("self_status", len(STATUS_NAMES), 0.0, 1.0),
    ("self_flags", len(_FLAGS), 0.0, 1.0),
    ("opponent_health", 1, 0.0, 1.0),
    ("opponent_ap", 1, 0.0, 1.0),
    ("opponent_status", len(STATUS_NAMES), 0.0, 1.0),
    ("opponent_flags", len(_FLAGS), 0.0, 1.0),
    ("distance", 1, 0.0, 1.0),
    ("round", 1, 0.0, 1.0),
    ("declared", len(PROACTIVE_TECHNIQUES), 0.0, 1.0),   # the exchange's declared action (feint: own view only)
    ("reaction", len(REACTIVE_TECHNIQUES), 0.0, 1.0),
    ("self_profile", PROFILE_SIZE, 0.0, 1.0),          # skills/5, armour, weapon kind, reach, range, AP, damage
    ("opponent_profile", PROFILE_SIZE, 0.0, 1.0),
)
SPEC = ObservationSpec(FIELDS)
"""The layout (the same for every tempo duel); :func:`spec_for` adds the encodings of one ruleset's numbers."""


def spec_for(ap_per_round: int, max_distance: int, round_limit: int) -> ObservationSpec:
    """:data:`SPEC` with its encodings for a ruleset's AP per round, distance cap and round limit."""
    return ObservationSpec(FIELDS, encodings=_encodings(ap_per_round, max_distance, round_limit))

_SIZE = SPEC.size
_OFFSET = {name: SPEC.slice(name).start for name in SPEC.names}
# Where each side's fields start: health, AP, status one-hot, flags, profile.
_SELF, _OPPONENT = (tuple(_OFFSET[f"{side}_{field}"] for field in ("health", "ap", "status", "flags", "profile"))
                    for side in ("self", "opponent"))
_DECLARED_INDEX = {name: i for i, name in enumerate(PROACTIVE_TECHNIQUES)}
_REACTION_INDEX = {name: i for i, name in enumerate(REACTIVE_TECHNIQUES)}
_MELEE_ATTACK = "melee_attack"


@lru_cache(maxsize=256)
def profile(lo: "Loadout") -> tuple[float, ...]:
    """A fighter's static numbers scaled to [0, 1] (the weapon in hand: bare hands once disarmed)."""
    weapon = lo.weapon
    scale = PROFILE_SCALE
    kind = [0.0] * len(WEAPON_KINDS)
    kind[WEAPON_KINDS.index(weapon.kind)] = 1.0
    return tuple([s / scale["skill"] for s in lo.skills] + [
        lo.armour_rating / scale["armour_rating"], lo.encumbrance / scale["encumbrance"], *kind,
        weapon.reach / scale["reach"], min(weapon.range, _RANGE_SCALE) / _RANGE_SCALE,
        weapon.costs[_MELEE_ATTACK] / scale["melee_attack_ap"],
        min(1.0, (weapon.damage_die + weapon.damage_bonus) / scale["damage"])])


def profile_values(lo: "Loadout") -> dict[str, Any]:
    """A fighter's static numbers as game values (:data:`PROFILE_PARTS`' terms)."""
    weapon = lo.weapon
    return {**{f"skill_{name}": skill for name, skill in zip(SKILL_NAMES, lo.skills)},
            "armour_rating": lo.armour_rating, "encumbrance": lo.encumbrance, "weapon_kind": weapon.kind,
            "reach": weapon.reach, "range": weapon.range, "melee_attack_ap": weapon.costs[_MELEE_ATTACK],
            "damage": weapon.damage_die + weapon.damage_bonus}


def describe(state: "TempoState", seat: int) -> dict[str, Any]:
    """The game values of ``encode(state, seat)``, field by field, in the terms of the ruleset's encodings."""
    actor = state.actor()
    values: dict[str, Any] = {
        "decision": {"decision": state.decision_kind() if state.current_seat() == seat else None},
        "turn": {"my_turn": actor == seat, "first": state.order[0] == seat},
        "distance": {"distance": state.distance},
        "round": {"round": state.round},
    }
    for side, who in (("self", seat), ("opponent", 1 - seat)):
        lo = state.loadout(who)
        values[f"{side}_health"] = {"health": [state.hp[who], lo.max_health]}
        values[f"{side}_ap"] = {"ap": state.ap[who]}
        values[f"{side}_status"] = {"status": STATUS_NAMES[state.status[who]]}
        values[f"{side}_flags"] = {"disarmed": state.disarmed[who], "aimed": state.aimed[who], "loaded": state.loaded[who]}
        values[f"{side}_profile"] = profile_values(lo)
    declared = None
    if state.declared >= 0:
        technique = TECHNIQUE_OF[state.declared]
        assert technique is not None  # a declared action is a technique (its reply below too)
        declared = technique.name
        if declared == "feint" and actor != seat:  # TP-027: the opponent sees a melee attack
            declared = _MELEE_ATTACK
    values["declared"] = {"declared": declared}
    reaction = TECHNIQUE_OF[state.reaction] if state.reaction >= 0 else None
    values["reaction"] = {"reaction": reaction.name if reaction is not None else None}
    return values


def encode(state: "TempoState", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :data:`SPEC`); filled as a list, converted once (cheaper per element)."""
    rules = state.ruleset
    vec = [0.0] * _SIZE
    if state.current_seat() == seat:
        vec[_OFFSET["decision"] + state.phase] = 1.0
    actor = state.actor()
    vec[_OFFSET["turn"]] = float(actor == seat)
    vec[_OFFSET["turn"] + 1] = float(state.order[0] == seat)
    for prefix, who in ((_SELF, seat), (_OPPONENT, 1 - seat)):
        health, ap, status, flags, profile_at = prefix
        lo = state.loadout(who)
        vec[health] = max(0, state.hp[who]) / lo.max_health
        vec[ap] = state.ap[who] / rules.ap_per_round
        vec[status + state.status[who]] = 1.0
        vec[flags] = float(state.disarmed[who])
        vec[flags + 1] = float(state.aimed[who])
        vec[flags + 2] = float(state.loaded[who])
        vec[profile_at:profile_at + PROFILE_SIZE] = profile(lo)
    vec[_OFFSET["distance"]] = state.distance / rules.max_distance
    vec[_OFFSET["round"]] = min(state.round, rules.round_limit) / rules.round_limit
    if state.declared >= 0:
        technique = TECHNIQUE_OF[state.declared]
        assert technique is not None  # a declared action is a technique (its reply below too)
        name = technique.name
        if name == "feint" and actor != seat:
            name = _MELEE_ATTACK
        vec[_OFFSET["declared"] + _DECLARED_INDEX[name]] = 1.0
    if state.reaction >= 0:
        reaction = TECHNIQUE_OF[state.reaction]
        assert reaction is not None
        vec[_OFFSET["reaction"] + _REACTION_INDEX[reaction.name]] = 1.0
    return np.array(vec, dtype=np.float32)
