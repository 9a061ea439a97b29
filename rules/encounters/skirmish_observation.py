"""The encounter skirmish's observation: fixed, padded, ego-centric slots, one float32 vector in [0, 1].

Slot 0 is the observer, slots 1..3 its allies (ally ``k`` in slot ``k``, by seat), slots 4..7 its enemies
(enemy ``k`` in slot ``4 + k``, the ``enemy<k>`` of its attacks); an empty slot is all zeros, so every team
size up to 4v4 shares one shape. Each slot holds the duel's side fields (wounds, rank, stance, numbers,
flags, profile: :mod:`.observation`) plus where the character stands relative to the observer and whether
it guards or is guarded. Everything in 001 is open at the table, so every slot is fully visible.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.encounters.observation import FLAGS, _fill_side, _side, _side_encodings, side_values
from issoku.rules.encounters.skirmish_actions import CAPACITY
from issoku.rules.kernel import ObservationSpec
from issoku.rules.kernel.encoding import FieldEncoding, decision_and_turn, ego_slot_names, field, flag, scaled

if TYPE_CHECKING:
    from issoku.rules.encounters.skirmish_state import SkirmishState

SLOTS = 2 * CAPACITY
PLACE = ("present", "able", "dx", "dy", "distance", "guarded", "guarding", "acting", "in_my_grapple")
"""Per slot: filled, able to act, offset from the observer (x, y: 0.5 is the observer's own line),
distance, guarded now, guarding someone now, its turn now, in the observer's grapple. (The slot's flags say
whether it is grappled at all, in control, or started a Weapon Grapple.)"""

SPEC = ObservationSpec((
    ("decision", len(DECISION_KINDS), 0.0, 1.0),
    ("turn", 2, 0.0, 1.0),                     # [it is my turn, I go first this round]
    ("round", 1, 0.0, 1.0),
    ("pending_damage", 1, 0.0, 1.0),
    ("tactics_pool", 2, 0.0, 1.0),             # own side's Free Raises / 5, the enemy side's
    *(field for slot in range(SLOTS) for field in (*_side(f"slot{slot}"), (f"slot{slot}_place", len(PLACE), 0.0, 1.0))),
))
SLOT_NAMES = ego_slot_names(SLOTS, CAPACITY - 1)
"""The slots' labels in :func:`slots`' order: ``self``, ``ally_1``..``ally_3``, ``enemy_0``..``enemy_3``."""
TACTICS_SCALE = 5


def _encodings(round_limit: int, arena: int) -> tuple[FieldEncoding, ...]:
    """What fills each field of :data:`SPEC`, for a ruleset's round limit and arena (``slot<k>_*``: the character in
    slot ``k``, labelled by :data:`SLOT_NAMES`)."""
    reach = arena - 1
    offset = ("the {axis} of its square less the observer's, plus the arena's side less 1 (the observer's own {axis} "
              "reads 0.5)")
    encodings: list[FieldEncoding] = [
        *decision_and_turn(DECISION_KINDS, "the observer goes first this round"),
        field("the round", scaled("round", round_limit, "the round number")),
        field("the damage an Endure decision is about", scaled("pending_damage", _SCALE_DAMAGE,
                                                                 "damage rolled less reduction (0: none)")),
        field("the sides' tactics pools (EN-G09)",
              scaled("own", TACTICS_SCALE, "Free Raises left in the observer's side's pool"),
              scaled("enemy", TACTICS_SCALE, "Free Raises left in the enemy side's pool")),
    ]
    for label in SLOT_NAMES:
        who = "the observer" if label == "self" else label
        encodings += [*_side_encodings(who), field(
            f"{who}'s place (the slot is all zeros when empty)",
            flag("present", "a character fills the slot"), flag("able", "able to act"),
            scaled("dx", 2 * reach, offset.format(axis="column"), clip=False),
            scaled("dy", 2 * reach, offset.format(axis="row"), clip=False),
            scaled("distance", reach, "squares to the observer (Chebyshev)", clip=False),
            flag("guarded", "guarded now"), flag("guarding", "guarding someone now"),
            flag("acting", "its turn now"), flag("in_my_grapple", "in the observer's grapple"))]
    return tuple(encodings)


@lru_cache(maxsize=32)
def spec_for(round_limit: int, arena: int) -> ObservationSpec:
    """:data:`SPEC` with its encodings for a ruleset's round limit and arena."""
    return ObservationSpec(SPEC.fields, encodings=_encodings(round_limit, arena))


_OFFSET = {name: SPEC.slice(name).start for name in SPEC.names}
_SLOT_SIDES = tuple(tuple(_OFFSET[f"slot{slot}_{field}"] for field in ("wounds", "rank", "stance", "numbers", "flags"))
                    for slot in range(SLOTS))
_PROFILE_AT = tuple(_OFFSET[f"slot{slot}_profile"] for slot in range(SLOTS))
_PLACE_AT = tuple(_OFFSET[f"slot{slot}_place"] for slot in range(SLOTS))
_SCALE_DAMAGE = 80.0
_EMPTY = array("f", bytes(4 * SPEC.size))
_FLAGS_AT = tuple(_OFFSET[f"slot{slot}_flags"] for slot in range(SLOTS))
_GRAPPLED, _IN_CONTROL, _WEAPON_GRAPPLE = (FLAGS.index(name) for name in ("grappled", "in_control",
                                                                            "weapon_grapple_started"))


def slots(state: "SkirmishState", seat: int) -> tuple[int | None, ...]:
    """The seat in each slot of ``seat``'s observation (None: empty)."""
    allies, enemies = state.allies(seat), state.enemies(seat)
    return ((seat,) + allies + (None,) * (CAPACITY - 1 - len(allies)) + enemies
            + (None,) * (CAPACITY - len(enemies)))


def describe(state: "SkirmishState", seat: int) -> dict[str, Any]:
    """The game values of ``encode(state, seat)``, field by field, in the terms of the ruleset's encodings."""
    current = state.current_seat()
    acting = state.actor() if state.round and current is not None else None
    pending = state.pending
    team = state.ruleset.seat_teams[seat]
    values: dict[str, Any] = {
        "decision": {"decision": state.decision_kind() if current == seat else None},
        "turn": {"my_turn": acting == seat, "first": state.order[0] == seat},
        "round": {"round": state.round},
        "pending_damage": {"pending_damage": 0 if pending is None else pending["rolled"] - pending["reduction"]},
        "tactics_pool": {"own": state.tactics[team], "enemy": state.tactics[1 - team]},
    }
    here = state.positions[seat]
    reach = state.ruleset.arena - 1
    mine = state.hold_of(seat)
    for slot, other in enumerate(slots(state, seat)):
        fields = ("wounds", "rank", "stance", "numbers", "flags", "profile", "place")
        if other is None:
            values.update({f"slot{slot}_{name}": None for name in fields})
            continue
        side = side_values(state, other)
        hold = state.hold_of(other)
        if hold is not None:  # a skirmish's grapples are holds (EN-083..EN-099), not the duel's
            side["flags"].update(grappled=True, in_control=hold.controller == other,
                                 weapon_grapple_started=hold.weapon == other)
        there = state.positions[other]
        side["place"] = {
            "present": True, "able": state.fighters[other].can_act(),
            "dx": there[0] - here[0] + reach, "dy": there[1] - here[1] + reach,
            "distance": state.distance_between(seat, other), "guarded": state.guardian_of(other) is not None,
            "guarding": other in state.guards, "acting": acting == other,
            "in_my_grapple": hold is not None and hold is mine}
        values.update({f"slot{slot}_{name}": part for name, part in side.items()})
    return values


_SIDE_SIZE = _PLACE_AT[0] - _SLOT_SIDES[0][0]
"""A slot's side fields (wounds .. profile) lie together before its place: one block per character."""
_SIDE_IN_BLOCK = tuple(at - _SLOT_SIDES[0][0] for at in _SLOT_SIDES[0])
_PROFILE_IN_BLOCK = _PROFILE_AT[0] - _SLOT_SIDES[0][0]
_FLAGS_IN_BLOCK = _FLAGS_AT[0] - _SLOT_SIDES[0][0]
_EMPTY_BLOCK = array("f", bytes(4 * _SIDE_SIZE))
SIDE_BLOCKS_LIMIT = 4_096
"""The most side blocks a ruleset keeps (:func:`side_block`; about 3 MB): a full memo starts again empty, and random
play measured the same speed with 4,096 as with four times more."""


def _block_key(state: "SkirmishState", seat: int, guarded: bool) -> tuple:
    """Everything ``seat``'s side block is made of (:func:`side_block`), as one flat tuple: the seat, whether it is
    guarded, guards an ally within 5 ft, has its Free Move left and its grapple's flags, then the changing numbers
    of its :class:`~issoku.rules.encounters.fighter.Combatant`. Read attribute by attribute (Python 3.11's slot
    reads, or compiled code's, beat an ``attrgetter`` several times over) into one tuple, hashed once."""
    f = state.fighters[seat]
    hold = state.hold_of(seat)
    ward = state.guards.get(seat)
    return (seat, guarded, ward is not None and state.distance_between(seat, ward) <= 1, "free_move" in f.free_used,
            None if hold is None else (hold.controller == seat, hold.weapon == seat),
            f.wounds, f.stance, f.void_points, f.initiative, f.simple_actions, f.moved, f.earth_bonus, f.prone,
            f.weapon_state, f.boost_armed, f.began_in_void, f.void_bonus_used, f.deflect, f.maintain,
            f.extra_attack_done, f.stun_tn, f.disarm_free_raise)


def side_block(state: "SkirmishState", seat: int, guarded: bool) -> array:
    """``seat``'s side fields (the duel's, :func:`~issoku.rules.encounters.observation._fill_side`, with its profile
    and its grapple's flags) as one block, the same in every slot and every observer's view; ``guarded``:
    whether someone guards it now (:meth:`~.skirmish_state.SkirmishState.guardian_of`, which the caller needs too).

    Speed: a character's block changes only when something of it does, and every observation holds every
    character's, so the ruleset keeps the blocks by everything they are made of (``side_blocks``): the character's
    changing numbers, its Free Move, its grapple's flags, and what its ATN reads besides its own numbers (guarded,
    guarding an ally within 5 ft, grappled; EN-100, EN-118). The duel's own grapple (``state.grapple``,
    ``controller``, ``weapon_grapple``) never exists in a skirmish."""
    key = _block_key(state, seat, guarded)
    blocks = state.ruleset.side_blocks
    block = blocks.get(key)
    if block is None:
        f = state.fighters[seat]
        hold = state.hold_of(seat)
        block = _EMPTY_BLOCK[:]
        _fill_side(block, _SIDE_IN_BLOCK, state, seat)
        profile = state.ruleset.profiles[seat][f.weapon_state != "ready"]
        block[_PROFILE_IN_BLOCK:_PROFILE_IN_BLOCK + len(profile)] = profile
        if hold is not None:
            block[_FLAGS_IN_BLOCK + _GRAPPLED] = 1.0
            block[_FLAGS_IN_BLOCK + _IN_CONTROL] = float(hold.controller == seat)
            block[_FLAGS_IN_BLOCK + _WEAPON_GRAPPLE] = float(hold.weapon == seat)
        if len(blocks) >= SIDE_BLOCKS_LIMIT:
            blocks.clear()
        blocks[key] = block
    return block


def encode(state: "SkirmishState", seat: int) -> np.ndarray:
    """The observation of ``seat`` (see :data:`SPEC`)."""
    rules = state.ruleset
    values = _EMPTY[:]
    current = state.current_seat()
    if current == seat:
        values[_DECISION + DECISION_KINDS.index(state.decision_kind())] = 1.0
    acting = state.actor() if state.round and current is not None else None
    if acting == seat:
        values[_TURN] = 1.0
    if state.order[0] == seat:
        values[_TURN + 1] = 1.0
    if state.round:
        values[_ROUND] = min(state.round, rules.round_limit) / rules.round_limit
    if state.pending is not None:
        x = state.pending["rolled"] - state.pending["reduction"]
        if x > 0:
            values[_PENDING] = min(1.0, x / _SCALE_DAMAGE)
    team = rules.seat_teams[seat]
    values[_TACTICS] = min(1.0, state.tactics[team] / 5)
    values[_TACTICS + 1] = min(1.0, state.tactics[1 - team] / 5)
    hx, hy = state.positions[seat]
    reach = rules.arena - 1
    mine = state.hold_of(seat) if state.holds else None
    guards = state.guards
    for slot, other in enumerate(slots(state, seat)):
        if other is None:
            continue
        guarded = bool(guards) and state.guardian_of(other) is not None
        at = _SIDE_AT[slot]
        values[at:at + _SIDE_SIZE] = side_block(state, other, guarded)
        at = _PLACE_AT[slot]
        x, y = state.positions[other]
        values[at] = 1.0
        if state.fighters[other].can_act():
            values[at + 1] = 1.0
        values[at + 2] = 0.5 + (x - hx) / (2 * reach)
        values[at + 3] = 0.5 + (y - hy) / (2 * reach)
        values[at + 4] = max(abs(x - hx), abs(y - hy)) / reach                 # EN-G10: Chebyshev
        if guarded:
            values[at + 5] = 1.0
        if other in guards:
            values[at + 6] = 1.0
        if acting == other:
            values[at + 7] = 1.0
        if mine is not None and other in mine.members:
            values[at + 8] = 1.0
    return np.frombuffer(values, np.float32)


_DECISION, _TURN, _ROUND, _PENDING, _TACTICS = (_OFFSET[name] for name in
                                                 ("decision", "turn", "round", "pending_damage", "tactics_pool"))
_SIDE_AT = tuple(side[0] for side in _SLOT_SIDES)
