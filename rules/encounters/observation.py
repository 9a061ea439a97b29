"""The encounter duel's observation: one ego-centric float32 vector with named slices.

Everything in 001 is open at the table: Wounds and rank, stance, Void Points, initiative, statuses,
weapon in hand, distance, and each sheet. So an observation holds the seat's own side and the
opponent's side alike, plus the decision asked, the round and the damage awaiting an Endure. Every
value lies in [0, 1].
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any

import numpy as np

from issoku.rules.encounters.combat import STANCES
from issoku.rules.encounters.content import SIZES, TRAITS
from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.encounters.wounds import RANK_NAMES
from issoku.rules.kernel import ObservationSpec
from issoku.rules.kernel.encoding import FieldEncoding, decision_and_turn, field, flag, one_hot, ratio, scaled

if TYPE_CHECKING:
    from issoku.rules.encounters.content import Archetype, Weapon
    from issoku.rules.encounters.ruleset import EncounterDuel
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
SCALE = {"trait": 5, "void_ring": 5, "insight_rank": 8, "weapon_roll": 10, "weapon_keep": 10, "weapon_range": 50,
         "armour_bonus": 30, "reduction": 20, "skill": 10, "void_points": 5, "simple_actions": 2, "earth_bonus": 20}
"""Divisors of the profile and of the side's numbers: :func:`profile`, the encoder and the encoding all read them."""
PROFILE_PARTS = (
    *(scaled(trait, SCALE["trait"], f"the {trait} trait", clip=False) for trait in TRAITS),
    scaled("void_ring", SCALE["void_ring"], "the Void ring", clip=False),
    scaled("insight_rank", SCALE["insight_rank"], "Insight Rank", clip=False),
    scaled("weapon_roll", SCALE["weapon_roll"], "dice rolled for the weapon's damage (XkY: X)", clip=False),
    scaled("weapon_keep", SCALE["weapon_keep"], "dice kept for the weapon's damage (XkY: Y)", clip=False),
    scaled("weapon_range", SCALE["weapon_range"], "the weapon's range"),
    flag("reach", "a reach weapon"),
    one_hot("size", SIZES, "the weapon's size"),
    scaled("armour_bonus", SCALE["armour_bonus"], "armour's bonus to the TN to be hit", clip=False),
    scaled("reduction", SCALE["reduction"], "armour's damage reduction", clip=False),
    scaled("weapon_skill", SCALE["skill"], "rank in the weapon's skill", clip=False),
    scaled("defense", SCALE["skill"], "rank in Defense", clip=False),
    scaled("jujutsu", SCALE["skill"], "rank in Jujutsu", clip=False),
    flag("mook", "a mook (one wound rank)"),
)
"""A profile's parts: the weapon in hand (bare hands while the weapon is not readied), the sheet's numbers."""


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


def _side_encodings(who: str) -> tuple[FieldEncoding, ...]:
    """The encodings of one side's fields, in :func:`_side` order."""
    return (
        field(f"{who}'s Wounds", ratio("wounds_of_dead", "[Wounds, the Dead rank's threshold]"),
              scaled("wounds", _SCALE_WOUNDS, "Wounds taken")),
        field(f"{who}'s wound rank", one_hot("rank", RANK_NAMES, "the wound rank")),
        field(f"{who}'s stance", one_hot("stance", STANCES, "the stance")),
        field(f"{who}'s numbers",
              scaled("void_points", SCALE["void_points"], "Void Points left", clip=False),
              scaled("atn", _SCALE_ATN, "Armor TN (to be hit in melee)"),
              scaled("initiative", _SCALE_INITIATIVE, "initiative total"),
              scaled("simple_actions", SCALE["simple_actions"], "Simple Actions left this turn", clip=False),
              ratio("moved", "[squares moved this turn, the move cap]"),
              scaled("earth_bonus", SCALE["earth_bonus"], "the Earth stance's bonus")),
        field(f"{who}'s flags", *(flag(name, name.replace("_", " ")) for name in FLAGS)),
        field(f"{who}'s profile", *PROFILE_PARTS),
    )


def _encodings(round_limit: int, max_distance: int) -> tuple[FieldEncoding, ...]:
    """What fills each field of :data:`SPEC`, for a ruleset's round limit and distance cap."""
    return (
        *decision_and_turn(DECISION_KINDS, "the observer goes first this round"),
        field("the round", scaled("round", round_limit, "the round number")),
        field("the distance", scaled("distance", max_distance, "distance", clip=False)),
        field("the damage an Endure decision is about", scaled("pending_damage", _SCALE_DAMAGE,
                                                                 "damage rolled less reduction (0: none)")),
        *_side_encodings("the observer"), *_side_encodings("the opponent"),
    )


FIELDS = (
    ("decision", len(DECISION_KINDS), 0.0, 1.0),       # one-hot, only when the decision is this seat's
    ("turn", 2, 0.0, 1.0),                        # [it is my turn, I go first this round]
    ("round", 1, 0.0, 1.0),
    ("distance", 1, 0.0, 1.0),
    ("pending_damage", 1, 0.0, 1.0),              # the damage an Endure decision is about (after reduction)
    *_side("self"),
    *_side("opponent"),
)
SPEC = ObservationSpec(FIELDS)
"""The layout (the same for every encounter duel); :func:`spec_for` adds the encodings of one ruleset's numbers."""


def spec_for(round_limit: int, max_distance: int) -> ObservationSpec:
    """:data:`SPEC` with its encodings for a ruleset's round limit and distance cap."""
    return ObservationSpec(FIELDS, encodings=_encodings(round_limit, max_distance))

_OFFSET = {name: SPEC.slice(name).start for name in SPEC.names}
_DECISION_INDEX = {kind: i for i, kind in enumerate(DECISION_KINDS)}
_RANK_INDEX = {name: i for i, name in enumerate(RANK_NAMES)}
_STANCE_INDEX = {name: i for i, name in enumerate(STANCES)}
_FLAG = {name: i for i, name in enumerate(FLAGS)}
_WEAPON_FLAG = {state: _FLAG[f"weapon_{state}"] for state in ("ready", "held", "ground")}
_SIDES = tuple(tuple(_OFFSET[f"{prefix}_{field}"] for field in ("wounds", "rank", "stance", "numbers", "flags"))
               for prefix in ("self", "opponent"))
"""Offsets of the changing fields of each side, self then opponent."""
_FLOAT32 = np.dtype(np.float32)
"""Passed positionally: ``np.frombuffer(..., dtype=...)`` spends half its time parsing the keyword."""


def profile(sheet: "Archetype", weapon: "Weapon") -> tuple[float, ...]:
    """A character's static numbers with ``weapon`` in hand, scaled to [0, 1] (see :data:`PROFILE`); the
    ruleset computes each seat's two (own weapon, bare hands) once."""
    size = [0.0] * len(SIZES)
    size[SIZES.index(weapon.size)] = 1.0
    scale = SCALE
    return tuple([sheet.traits[t] / scale["trait"] for t in TRAITS] + [
        sheet.void / scale["void_ring"], sheet.insight_rank / scale["insight_rank"],
        weapon.damage.roll / scale["weapon_roll"], weapon.damage.keep / scale["weapon_keep"],
        min(weapon.range, scale["weapon_range"]) / scale["weapon_range"], float(weapon.reach)] + size + [
        sheet.armour.bonus / scale["armour_bonus"], sheet.armour.reduction / scale["reduction"],
        sheet.skill(weapon.skill) / scale["skill"], sheet.skill("defense") / scale["skill"],
        sheet.skill("jujutsu") / scale["skill"], float(sheet.mook)])


def profile_values(sheet: "Archetype", weapon: "Weapon") -> dict[str, Any]:
    """A character's static numbers with ``weapon`` in hand, as game values (:data:`PROFILE_PARTS`' terms)."""
    return {**{trait: sheet.traits[trait] for trait in TRAITS}, "void_ring": sheet.void,
            "insight_rank": sheet.insight_rank, "weapon_roll": weapon.damage.roll, "weapon_keep": weapon.damage.keep,
            "weapon_range": weapon.range, "reach": weapon.reach, "size": weapon.size,
            "armour_bonus": sheet.armour.bonus, "reduction": sheet.armour.reduction,
            "weapon_skill": sheet.skill(weapon.skill), "defense": sheet.skill("defense"),
            "jujutsu": sheet.skill("jujutsu"), "mook": sheet.mook}


def describe(state: "EncounterState", seat: int) -> dict[str, Any]:
    """The game values of ``encode(state, seat)``, field by field, in the terms of the ruleset's encodings."""
    current = state.current_seat()
    pending = state.pending
    values: dict[str, Any] = {
        "decision": {"decision": state.decision_kind() if current == seat else None},
        "turn": {"my_turn": bool(state.round) and current is not None and state.actor() == seat,
                 "first": state.order[0] == seat},
        "round": {"round": state.round},
        "distance": {"distance": state.distance},
        "pending_damage": {"pending_damage": 0 if pending is None else pending["rolled"] - pending["reduction"]},
    }
    for side, who in (("self", seat), ("opponent", 1 - seat)):
        values.update({f"{side}_{name}": part for name, part in side_values(state, who).items()})
    return values


def side_values(state: "EncounterState", who: int) -> dict[str, dict[str, Any]]:
    """The game values of one character's side fields (:func:`_side`: ``wounds``, ``rank``, ``stance``, ``numbers``,
    ``flags``, ``profile``), as :func:`_fill_side` and the profile template encode them."""
    f = state.fighters[who]
    flags = {"prone": f.prone, "grappled": bool(state.grapple), "in_control": state.controller == who,
             **{f"weapon_{where}": f.weapon_state == where for where in ("ready", "held", "ground")},
             "boost_armed": f.boost_armed, "void_stance_charged": f.began_in_void and not f.void_bonus_used,
             "deflect": f.deflect, "maintain": f.maintain, "free_move_used": "free_move" in f.free_used,
             "extra_attack_used": f.extra_attack_done, "stunned": f.stun_tn is not None,
             "weapon_grapple_started": state.weapon_grapple == who, "disarm_free_raise": f.disarm_free_raise > 0}
    sheet = state.ruleset.sheets[who]
    weapon = sheet.weapon if f.weapon_state == "ready" else state.ruleset.catalog.weapons["unarmed"]
    return {
        "wounds": {"wounds_of_dead": [f.wounds, f.ranks[-1].threshold], "wounds": f.wounds},
        "rank": {"rank": f.rank().name},
        "stance": {"stance": f.stance},
        "numbers": {"void_points": f.void_points, "atn": state.atn(who), "initiative": f.initiative,
                    "simple_actions": f.simple_actions, "moved": [f.moved, f.move_cap()], "earth_bonus": f.earth_bonus},
        "flags": flags,
        "profile": profile_values(sheet, weapon),
    }


def templates(profiles: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]) -> tuple:
    """Per seat, the observation's values that never change in a fight: ``templates(...)[seat][a][b]`` holds
    the seat's own profile (``a``: 0 its weapon readied, 1 bare hands) and the opponent's (``b`` likewise),
    zeros elsewhere, as an ``array.array("f")`` that :func:`encode` copies. The ruleset builds them once."""
    start = (_OFFSET["self_profile"], _OFFSET["opponent_profile"])
    built = []
    for seat in (0, 1):
        own, other = profiles[seat], profiles[1 - seat]
        rows = []
        for a in (0, 1):
            row = []
            for b in (0, 1):
                values = array("f", bytes(4 * SPEC.size))
                values[start[0]:start[0] + _PROFILE_SIZE] = array("f", own[a])
                values[start[1]:start[1] + _PROFILE_SIZE] = array("f", other[b])
                row.append(values)
            rows.append(tuple(row))
        built.append(tuple(rows))
    return tuple(built)


def _fill_side(values: MutableSequence[float], side: tuple[int, ...], state: "EncounterState", seat: int) -> None:
    """Store ``seat``'s changing fields at the offsets ``side``. A zero is never stored (the template holds
    it); ``x / S if x < S else 1.0`` is ``min(1.0, x / S)`` for the integer counts."""
    wounds_at, rank_at, stance_at, at, flags_at = side
    f = state.fighters[seat]
    x = f.wounds
    if x > 0:
        dead = f.ranks[-1].threshold
        values[wounds_at] = x / dead if x < dead else 1.0
        values[wounds_at + 1] = x / _SCALE_WOUNDS if x < _SCALE_WOUNDS else 1.0
    values[rank_at + _RANK_INDEX[f.rank().name]] = 1.0
    values[stance_at + _STANCE_INDEX[f.stance]] = 1.0
    x = f.void_points
    if x:
        values[at] = x / SCALE["void_points"]
    x = state.atn(seat)
    if x > 0:
        values[at + 1] = x / _SCALE_ATN if x < _SCALE_ATN else 1.0
    x = f.initiative
    if x > 0:
        values[at + 2] = x / _SCALE_INITIATIVE if x < _SCALE_INITIATIVE else 1.0
    x = f.simple_actions
    if x:
        values[at + 3] = x / SCALE["simple_actions"]
    x = f.moved
    if x:
        cap = f.move_cap()
        if cap:
            q = x / cap
            values[at + 4] = q if q < 1.0 else 1.0
    x = f.earth_bonus
    if x:
        q = x / SCALE["earth_bonus"]
        values[at + 5] = q if q < 1.0 else 1.0
    if f.prone:
        values[flags_at + _FLAG["prone"]] = 1.0
    if state.grapple:
        values[flags_at + _FLAG["grappled"]] = 1.0
    if state.controller == seat:
        values[flags_at + _FLAG["in_control"]] = 1.0
    values[flags_at + _WEAPON_FLAG[f.weapon_state]] = 1.0
    if f.boost_armed:
        values[flags_at + _FLAG["boost_armed"]] = 1.0
    if f.began_in_void and not f.void_bonus_used:
        values[flags_at + _FLAG["void_stance_charged"]] = 1.0
    if f.deflect:
        values[flags_at + _FLAG["deflect"]] = 1.0
    if f.maintain:
        values[flags_at + _FLAG["maintain"]] = 1.0
    if "free_move" in f.free_used:
        values[flags_at + _FLAG["free_move_used"]] = 1.0
    if f.extra_attack_done:
        values[flags_at + _FLAG["extra_attack_used"]] = 1.0
    if f.stun_tn is not None:
        values[flags_at + _FLAG["stunned"]] = 1.0
    if state.weapon_grapple == seat:
        values[flags_at + _FLAG["weapon_grapple_started"]] = 1.0
    if f.disarm_free_raise > 0:
        values[flags_at + _FLAG["disarm_free_raise"]] = 1.0


def encode(state: "EncounterState[EncounterDuel]", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :data:`SPEC`).

    Speed: this runs on every env step. The profiles come from a copy of the seat's template
    (:func:`templates`, chosen by who holds a readied weapon); the changing fields are stored into it by
    index and the array's buffer becomes the observation without a conversion, as the breath encoder does
    (docs/benchmarks.md). Values are computed in float64 and rounded to float32 as they are stored, which
    is numpy's rounding: ``tests/encounters/test_encounter_observation_golden.py`` holds the bytes.
    """
    rules = state.ruleset
    fighters = state.fighters
    view = memoryview(rules.observation_templates[seat][fighters[seat].weapon_state != "ready"][
        fighters[1 - seat].weapon_state != "ready"][:])
    # Stores through a memoryview are a C cast, an ``array("f")``'s own parse each float (the breath encoder's
    # docstring); a memoryview of an "f" array indexes and stores as floats (typeshed types it as ints).
    values: MutableSequence[float] = view  # type: ignore[assignment]
    current = state.current_seat()
    if current == seat:
        values[_DECISION + _DECISION_INDEX[state.decision_kind()]] = 1.0
    if state.round and current is not None and state.actor() == seat:
        values[_TURN] = 1.0
    if state.order[0] == seat:
        values[_TURN + 1] = 1.0
    x = state.round
    if x:
        values[_ROUND] = min(x, rules.round_limit) / rules.round_limit
    x = state.distance
    if x:
        values[_DISTANCE] = x / rules.max_distance
    if state.pending is not None:
        p = state.pending
        x = p["rolled"] - p["reduction"]
        if x > 0:
            values[_PENDING] = x / _SCALE_DAMAGE if x < _SCALE_DAMAGE else 1.0
    _fill_side(values, _SIDES[0], state, seat)
    _fill_side(values, _SIDES[1], state, 1 - seat)
    return np.frombuffer(view, _FLOAT32)  # the array's own buffer: no conversion, no copy


_DECISION, _TURN, _ROUND, _DISTANCE, _PENDING = (_OFFSET[name] for name in
                                                  ("decision", "turn", "round", "distance", "pending_damage"))
