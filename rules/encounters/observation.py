"""The encounter duel's observation: one ego-centric float32 vector with named slices.

Everything in 001 is open at the table: Wounds and rank, stance, Void Points, initiative, statuses,
weapon in hand, distance, and each sheet. So an observation holds the seat's own side and the
opponent's side alike, plus the decision asked, the round and the damage awaiting an Endure. Every
value lies in [0, 1].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from issoku.rules.encounters.combat import STANCES
from issoku.rules.encounters.content import SIZES, TRAITS
from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.encounters.wounds import RANK_NAMES
from issoku.rules.kernel import ObservationSpec

if TYPE_CHECKING:
    from issoku.rules.encounters.content import Archetype, Weapon
    from issoku.rules.encounters.state import EncounterState

FLAGS = ("prone", "grappled", "in_control", "weapon_ready", "weapon_held", "weapon_ground", "boost_armed",
         "void_stance_charged", "deflect", "maintain", "free_move_used", "extra_attack_used", "stunned",
         "weapon_grapple_started", "disarm_free_raise")
PROFILE = (*TRAITS, "void_ring", "insight_rank", "weapon_roll", "weapon_keep", "weapon_range", "reach",
           *(f"size_{size}" for size in SIZES), "armour_bonus", "reduction", "weapon_skill", "defense", "jujutsu",
           "mook")
"""The profile's elements, in order (each scaled to [0, 1])."""
_PROFILE_SIZE = len(PROFILE)
_SCALE_WOUNDS = 100.0
_SCALE_ATN = 80.0
_SCALE_INITIATIVE = 100.0
_SCALE_DAMAGE = 80.0


def _side(prefix: str) -> tuple[tuple[str, int, float, float], ...]:
    return (
        (f"{prefix}_wounds", 2, 0.0, 1.0),        # wounds / dead threshold, wounds / 100
        (f"{prefix}_rank", len(RANK_NAMES), 0.0, 1.0),
        (f"{prefix}_stance", len(STANCES), 0.0, 1.0),
        (f"{prefix}_numbers", 6, 0.0, 1.0),       # void points/5, ATN/80, initiative/100, simple actions/2,
                                                  # moved/cap, earth bonus/20
        (f"{prefix}_flags", len(FLAGS), 0.0, 1.0),
        (f"{prefix}_profile", _PROFILE_SIZE, 0.0, 1.0),
    )


SPEC = ObservationSpec((
    ("decision", len(DECISION_KINDS), 0.0, 1.0),       # one-hot, only when the decision is this seat's
    ("turn", 2, 0.0, 1.0),                        # [it is my turn, I go first this round]
    ("round", 1, 0.0, 1.0),
    ("distance", 1, 0.0, 1.0),
    ("pending_damage", 1, 0.0, 1.0),              # the damage an Endure decision is about (after reduction)
    *_side("self"),
    *_side("opponent"),
))

_OFFSET = {name: SPEC.slice(name).start for name in SPEC.names}


def profile(sheet: "Archetype", weapon: "Weapon") -> tuple[float, ...]:
    """A character's static numbers with ``weapon`` in hand, scaled to [0, 1] (see :data:`PROFILE`); the
    ruleset computes each seat's two (own weapon, bare hands) once."""
    size = [0.0] * len(SIZES)
    size[SIZES.index(weapon.size)] = 1.0
    return tuple([sheet.traits[t] / 5 for t in TRAITS] + [
        sheet.void / 5, sheet.insight_rank / 8, weapon.damage.roll / 10, weapon.damage.keep / 10,
        min(weapon.range, 50) / 50, float(weapon.reach)] + size + [
        sheet.armour.bonus / 30, sheet.armour.reduction / 20, sheet.skill(weapon.skill) / 10,
        sheet.skill("defense") / 10, sheet.skill("jujutsu") / 10, float(sheet.mook)])


def _fill_side(vec: list[float], prefix: str, state: "EncounterState", seat: int) -> None:
    f = state.fighters[seat]
    dead = f.ranks[-1].threshold
    at = _OFFSET[f"{prefix}_wounds"]
    vec[at], vec[at + 1] = min(1.0, f.wounds / dead), min(1.0, f.wounds / _SCALE_WOUNDS)
    vec[_OFFSET[f"{prefix}_rank"] + RANK_NAMES.index(f.rank().name)] = 1.0
    vec[_OFFSET[f"{prefix}_stance"] + STANCES.index(f.stance)] = 1.0
    at = _OFFSET[f"{prefix}_numbers"]
    cap = f.move_cap()
    vec[at:at + 6] = [f.void_points / 5, min(1.0, max(0, state.atn(seat)) / _SCALE_ATN),
                      min(1.0, max(0, f.initiative) / _SCALE_INITIATIVE), f.simple_actions / 2,
                      min(1.0, f.moved / cap) if cap else 0.0, min(1.0, f.earth_bonus / 20)]
    at = _OFFSET[f"{prefix}_flags"]
    flags = (f.prone, state.grapple, state.controller == seat, f.weapon_state == "ready", f.weapon_state == "held",
             f.weapon_state == "ground", f.boost_armed, f.began_in_void and not f.void_bonus_used, f.deflect,
             f.maintain, "free_move" in f.free_used, f.extra_attack_done, f.stun_tn is not None,
             state.weapon_grapple == seat, f.disarm_free_raise > 0)
    vec[at:at + len(FLAGS)] = [float(flag) for flag in flags]
    at = _OFFSET[f"{prefix}_profile"]
    vec[at:at + _PROFILE_SIZE] = state.ruleset.profiles[seat][f.weapon_state != "ready"]


def encode(state: "EncounterState", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :data:`SPEC`)."""
    rules = state.ruleset
    vec = [0.0] * SPEC.size
    if state.current_seat() == seat:
        vec[_OFFSET["decision"] + DECISION_KINDS.index(state.decision_kind())] = 1.0
    if state.round and state.current_seat() is not None:
        vec[_OFFSET["turn"]] = float(state.actor() == seat)
    vec[_OFFSET["turn"] + 1] = float(state.order[0] == seat)
    vec[_OFFSET["round"]] = min(state.round, rules.round_limit) / rules.round_limit
    vec[_OFFSET["distance"]] = state.distance / rules.max_distance
    if state.pending is not None:
        p = state.pending
        vec[_OFFSET["pending_damage"]] = min(1.0, max(0, p["rolled"] - p["reduction"]) / _SCALE_DAMAGE)
    _fill_side(vec, "self", state, seat)
    _fill_side(vec, "opponent", state, 1 - seat)
    return np.array(vec, dtype=np.float32)
