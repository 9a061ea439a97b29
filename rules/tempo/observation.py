"""The tempo duel's observation: one ego-centric float32 vector with named slices.

Everything in it is public or the seat's own: health, AP, statuses, flags, distance, the round, the
declared action and the reaction of the exchange in progress, both fighters' profiles. The one
secret of 003 is the feint (TP-027, TP-G13): the declaring seat sees ``feint`` in ``declared``, its
opponent sees ``melee_attack``, so an observation never reveals whether an attack is a feint.
Every value lies in [0, 1].
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from issoku.rules.kernel import ObservationSpec
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
PROFILE_SIZE = len(SKILL_NAMES) + 2 + len(WEAPON_KINDS) + 4
_RANGE_SCALE = 24

SPEC = ObservationSpec((
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
))

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
    kind = [0.0] * len(WEAPON_KINDS)
    kind[WEAPON_KINDS.index(weapon.kind)] = 1.0
    return tuple([s / 5 for s in lo.skills] + [
        lo.armour_rating / 10, lo.encumbrance / 5, *kind, weapon.reach / 4,
        min(weapon.range, _RANGE_SCALE) / _RANGE_SCALE, weapon.costs[_MELEE_ATTACK] / 12,
        min(1.0, (weapon.damage_die + weapon.damage_bonus) / 30)])


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
        name = TECHNIQUE_OF[state.declared].name
        if name == "feint" and actor != seat:
            name = _MELEE_ATTACK
        vec[_OFFSET["declared"] + _DECLARED_INDEX[name]] = 1.0
    if state.reaction >= 0:
        vec[_OFFSET["reaction"] + _REACTION_INDEX[TECHNIQUE_OF[state.reaction].name]] = 1.0
    return np.array(vec, dtype=np.float32)
