"""What a seat sees: the named observation schema, its encoding, and the text rendering.

Observations are ego-centric: per-fighter fields list the observing fighter first, then its allies,
then its enemies (each group by seat). With a ruleset ``capacity`` the slots are fixed and padded: self,
``capacity − 1`` ally slots, then the enemy slots (enemy ``k`` in slot ``capacity + k``, the same ``k`` as
its attack target slot ``enemy<k>``); an empty slot is all zeros (``present`` 0). Everything in a breath fight is public at the table (Energy,
Wounds, the declared stance, reservations, which are a visible posture: "holding my blade in a parrying
stance"), so nothing is masked out; the only hidden thing is the dice, which no state exposes. Values are
scaled to about [0, 1] so a network needs no normaliser.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from issoku.rules.breath.kinds import BREATH, DEFEND, DEFENSE_TECHNIQUE
from issoku.rules.kernel.encoding import FieldEncoding, ego_slot_names, field, flag, one_hot, per_slot, scaled
from issoku.rules.kernel.protocol import ObservationSpec

if TYPE_CHECKING:
    from issoku.rules.breath.engine import BreathState
    from issoku.rules.breath.fighter import Fighter
    from issoku.rules.breath.ruleset import BreathRuleset

PER_FIGHTER = ("present", "ally", "acting", "energy", "max_energy", "wounds", "max_wounds", "breath_limit",
               "spent", "standing", "defenseless", "defeated", "attack_checks", "reservations", "defense",
               "finesse", "physique", "zero_energy_used")
"""Scalar fields, one value per fighter slot."""

SCALE = {  # divide by these to write, multiply to read (scripted agents do); the manifest's divisors
    "energy": 20.0, "max_energy": 20.0, "wounds": 12.0, "max_wounds": 12.0, "breath_limit": 12.0,
    "spent": 12.0, "attack_checks": 10.0, "reservations": 6.0, "defense": 25.0, "finesse": 5.0,
    "physique": 5.0, "zero_energy_used": 2.0, "pending_check_bonus": 3.0, "attack_total": 40.0,
    "attack_damage": 2.0, "own_reserved": 3.0}

FLAGS = ("present", "ally", "acting", "standing", "defenseless", "defeated")
"""The per-fighter fields that are truth values (1.0 / 0.0); the others are counts scaled by :data:`SCALE`."""

MEANING = {
    "present": "a fighter fills the slot", "ally": "on the observer's side (the observer included)",
    "acting": "the fighter whose breath it is (the actor)", "energy": "Energy left", "max_energy": "maximum Energy",
    "wounds": "Wounds left (a fighter at 0 is defeated)", "max_wounds": "maximum Wounds",
    "breath_limit": "Energy this breath may spend (the breath's limit)", "spent": "Energy spent this breath",
    "standing": "on its feet", "defenseless": "defenseless (cannot defend)", "defeated": "out of the fight",
    "attack_checks": "attack checks made this round", "reservations": "defenses held in reserve",
    "defense": "Defense (armor + kata + stance bonus)", "finesse": "Finesse", "physique": "Physique",
    "zero_energy_used": "0-Energy techniques used this breath",
}
"""What each per-fighter field holds, for the manifest."""


def build_observation_spec(ruleset: "BreathRuleset") -> ObservationSpec:
    """The schema for ``ruleset``: fixed size for its number of fighters and its catalog."""
    n = ruleset.observed_slots
    catalog = ruleset.catalog
    fields: list[tuple[str, int, float, float]] = [
        ("decision_kind", len(ruleset.decision_kinds), 0.0, 1.0),
        ("round", 1, 0.0, 1.0),
        ("pending_check_bonus", 1, 0.0, 1.0),
        ("incoming_attack", 3, 0.0, 1.0),
    ]
    fields += [(name, n, 0.0, 1.0) for name in PER_FIGHTER]
    defenses = len([t for t in catalog.techniques.values() if t.kind == DEFENSE_TECHNIQUE])
    fields += [("weapon", n * len(catalog.weapons), 0.0, 1.0), ("armor", n * len(catalog.armors), 0.0, 1.0),
               ("stance", n * len(catalog.stances), 0.0, 1.0),
               ("own_reserved", defenses, 0.0, 1.0),
               ("own_kata_used", max(1, len(catalog.katas)), 0.0, 1.0)]
    for module in ruleset.modules:
        fields += list(module.observation_fields(n))
    return ObservationSpec(tuple(fields), encodings=_encodings(ruleset))


def slot_names(ruleset: "BreathRuleset") -> tuple[str, ...]:
    """Labels of the fighter slots in :func:`ego_orders`' order: ``self``, ``ally_1``..., ``enemy_0``...; where
    seats have different numbers of allies (uneven sides, no ``capacity``), ``self``, ``other_1``...: the others,
    the observer's allies first, each group by seat."""
    allies = {sum(1 for other in ruleset.sheets if other.side == sheet.side) - 1 for sheet in ruleset.sheets}
    if ruleset.capacity is None and len(allies) > 1:
        return ("self", *(f"other_{k}" for k in range(1, ruleset.observed_slots)))
    return ego_slot_names(ruleset.observed_slots, ruleset.ally_slots)


def _encodings(ruleset: "BreathRuleset") -> tuple[FieldEncoding, ...] | None:
    """What fills each field, in :func:`build_observation_spec`'s order (None if a module does not say)."""
    slots = slot_names(ruleset)
    catalog = ruleset.catalog
    encodings = [
        field("the decision the fight waits for, whoever makes it (none once it is over)",
              one_hot("decision_kind", ruleset.decision_kinds, "the kind of decision")),
        field("the round", scaled("round", ruleset.config.round_limit, "the round number (the round limit is 1)")),
        field("the observer's pending check bonus",
              scaled("pending_check_bonus", SCALE["pending_check_bonus"], "bonus to its next attack check")),
        field("the attack the observer must defend now (none otherwise)",
              scaled("total", SCALE["attack_total"], "the attack check's total"),
              flag("critical", "a critical hit"),
              scaled("damage", SCALE["attack_damage"], "the technique's damage", clip=False)),
    ]
    for name in PER_FIGHTER:
        part = flag(name, MEANING[name]) if name in FLAGS else scaled(name, SCALE[name], MEANING[name])
        encodings.append(per_slot(part, MEANING[name], slots))
    encodings += [
        per_slot(one_hot("weapon", _in_order(catalog.weapon_index), "its key"), "the weapon in hand", slots),
        per_slot(one_hot("armor", _in_order(catalog.armor_index), "its key"), "the armor worn", slots),
        per_slot(one_hot("stance", _in_order(catalog.stance_index), "its key (none: no stance)"),
                 "the declared stance", slots),
        field("the observer's reservations, per defense technique",
              *(scaled(key, SCALE["own_reserved"], f"times {key} is held in reserve")
                for key in _in_order(catalog.defense_index))),
        field("the observer's kata used this fight", *(flag(key, f"{key} used") for key in _in_order(catalog.kata_index))
              or (flag("no_kata", "always 0: the catalog has no kata"),)),
    ]
    for module in ruleset.modules:
        extra = module.observation_encodings(slots)
        if extra is None:
            return None
        encodings += extra
    return tuple(encodings)


def _in_order(index: dict[str, int]) -> tuple[str, ...]:
    """A catalog index's keys in index order (the one-hot order)."""
    return tuple(sorted(index, key=index.__getitem__))


def describe(state: "BreathState", seat: int) -> dict[str, Any]:
    """The game values of ``encode(state, seat)``, field by field, in the terms of the spec's encodings."""
    ruleset = state.ruleset
    order = ego_orders(ruleset)[seat]
    me = state.fighters[seat]
    top = state.stack[-1] if state.stack else None
    attack = top.context if top is not None and top.seat == seat and top.kind == DEFEND else None
    values: dict[str, Any] = {
        "decision_kind": {"decision_kind": None if state.is_over() else state.decision_kind()},
        "round": {"round": state.round},
        "pending_check_bonus": {"pending_check_bonus": me.check_bonus},
        "incoming_attack": None if attack is None else {"total": attack.total, "critical": attack.critical,
                                                        "damage": attack.technique.damage},
    }
    fighters = [None if other is None else state.fighters[other] for other in order]
    for name in PER_FIGHTER:
        values[name] = [None if f is None else {name: _fighter_value(state, f, name, seat)} for f in fighters]
    values["weapon"] = [None if f is None else {"weapon": f.weapon.key} for f in fighters]
    values["armor"] = [None if f is None else {"armor": f.sheet.armor.key} for f in fighters]
    values["stance"] = [None if f is None else {"stance": f.stance.key if f.stance else None} for f in fighters]
    values["own_reserved"] = {key: me.reservations.count(key) for key in ruleset.catalog.defense_index}
    values["own_kata_used"] = {key: key in me.kata_used for key in ruleset.catalog.kata_index} or {"no_kata": False}
    for module in ruleset.modules:
        values.update(module.describe_observation(state, order))
    return values


def _fighter_value(state: "BreathState", f: "Fighter", name: str, seat: int) -> Any:
    """One per-fighter game value, read from the fighter as the rules keep it."""
    sheet = f.sheet
    return {"present": True, "ally": f.side == state.fighters[seat].side, "acting": state.actor_seat == f.seat,
            "energy": f.energy, "max_energy": sheet.max_energy, "wounds": f.wounds, "max_wounds": sheet.max_wounds,
            "breath_limit": f.limit, "spent": f.spent, "standing": f.standing, "defenseless": f.defenseless,
            "defeated": f.defeated, "attack_checks": f.attack_checks, "reservations": len(f.reservations),
            "defense": state.defense_of(f), "finesse": sheet.finesse, "physique": sheet.physique,
            "zero_energy_used": len(f.zero_energy_used)}[name]


def ego_orders(ruleset: "BreathRuleset") -> tuple[tuple[int | None, ...], ...]:
    """For each seat, the seats as it sees them, one per observation slot: itself, its allies, its
    enemies (sides never change, so this is fixed per ruleset); None marks an empty padded slot (only
    with a ruleset ``capacity``)."""
    sides = [sheet.side for sheet in ruleset.sheets]
    orders = []
    for seat, side in enumerate(sides):
        allies: list[int | None] = [s for s, other in enumerate(sides) if s != seat and other == side]
        enemies: list[int | None] = list(ruleset.enemy_seats[seat])
        if ruleset.capacity is not None:
            allies += [None] * (ruleset.ally_slots - len(allies))
            enemies += [None] * (ruleset.observed_slots - 1 - ruleset.ally_slots - len(enemies))
        orders.append((seat, *allies, *enemies))
    return tuple(orders)


_CHANGING = ("acting", "energy", "wounds", "breath_limit", "spent", "standing", "defenseless", "defeated",
             "attack_checks", "reservations", "defense", "zero_energy_used")
"""The per-fighter fields that change during a fight (the template holds the others)."""


def _int_scale(name: str) -> int:
    """``SCALE[name]`` as an int, for :func:`encode`: every count it scales is an int, and an int divided by an
    int is the same correctly rounded double as by the float (both exact in a double), but the int compare
    and division skip converting the count, which was half the cost of ``x / S if x < S else 1.0``."""
    scale = SCALE[name]
    if scale != int(scale):
        raise ValueError(f"the scale of {name} must be a whole number for encode's int arithmetic, not {scale}")
    return int(scale)


# Final, one name a line: compiled, a Final int is a C variable, where any other module global is a dict lookup
# on each read (encode reads these about twenty times a call).
_S_ENERGY: Final = _int_scale("energy")
_S_WOUNDS: Final = _int_scale("wounds")
_S_LIMIT: Final = _int_scale("breath_limit")
_S_SPENT: Final = _int_scale("spent")
_S_CHECKS: Final = _int_scale("attack_checks")
_S_RESERVATIONS: Final = _int_scale("reservations")
_S_DEFENSE: Final = _int_scale("defense")
_S_ZERO: Final = _int_scale("zero_energy_used")
_S_BONUS: Final = _int_scale("pending_check_bonus")
_S_TOTAL: Final = _int_scale("attack_total")
_S_DAMAGE: Final = _int_scale("attack_damage")


class _Layout:
    """Where :func:`encode` writes, resolved once per ruleset: the spec's slice lookups, the scales and
    the catalog indexes, flattened into plain ints and floats for the hot path."""

    __slots__ = ("size", "decision_kind", "kind_index", "round", "round_limit", "pending_check_bonus",
                 "incoming_attack", "ego_orders", "field", "fighter_fields", "templates", "weapon", "weapon_width",
                 "weapon_index", "stance", "stance_width", "stance_index", "own_reserved", "defense_index",
                 "own_kata_used", "kata_index")
    # Declared, not inferred: a spec's offsets come from ``slice.start``, which typeshed types Any, and compiled code
    # does every sum and compare with an Any generically (a call each); declared ints are C arithmetic.
    size: int
    decision_kind: int
    kind_index: dict[str, int]
    round: int
    round_limit: int
    pending_check_bonus: int
    incoming_attack: int
    ego_orders: tuple[tuple[int | None, ...], ...]
    field: dict[str, int]
    fighter_fields: tuple[int, ...]
    templates: tuple[np.ndarray, ...]
    weapon: int
    weapon_width: int
    weapon_index: dict[str, int]
    stance: int
    stance_width: int
    stance_index: dict[str, int]
    own_reserved: int
    defense_index: dict[str, int]
    own_kata_used: int
    kata_index: dict[str, int]

    def __init__(self, ruleset: "BreathRuleset") -> None:
        spec = ruleset.observation_spec
        catalog = ruleset.catalog
        self.size = spec.size
        self.decision_kind = spec.slice("decision_kind").start
        self.kind_index = {kind: index for index, kind in enumerate(ruleset.decision_kinds)}
        self.round = spec.slice("round").start
        self.round_limit = ruleset.config.round_limit
        self.pending_check_bonus = spec.slice("pending_check_bonus").start
        self.incoming_attack = spec.slice("incoming_attack").start
        self.ego_orders = ego_orders(ruleset)
        self.field = {name: spec.slice(name).start for name in PER_FIGHTER}
        """Where each per-fighter field starts (slot ``k`` of the field is at ``start + k``)."""
        self.fighter_fields = tuple(self.field[name] for name in _CHANGING)
        """The starts of the fields :func:`encode` writes per fighter, in ``_CHANGING`` order (one tuple
        to unpack instead of a dict lookup per field on every call)."""
        self.weapon, self.weapon_width = spec.slice("weapon").start, len(catalog.weapons)
        self.weapon_index = catalog.weapon_index
        self.stance, self.stance_width = spec.slice("stance").start, len(catalog.stances)
        self.stance_index = catalog.stance_index
        self.own_reserved = spec.slice("own_reserved").start
        self.defense_index = catalog.defense_index
        self.own_kata_used = spec.slice("own_kata_used").start
        self.kata_index = catalog.kata_index
        self.templates = tuple(self._template(ruleset, seat) for seat in range(ruleset.num_seats))
        """Per seat: its observation's values that never change in a fight (the sheets' numbers, sides,
        armor), written once; :func:`encode` copies it and writes the rest."""

    def _template(self, ruleset: "BreathRuleset", seat: int) -> np.ndarray:
        spec = ruleset.observation_spec
        armor, armor_width = spec.slice("armor").start, len(ruleset.catalog.armors)
        values = [0.0] * self.size
        side = ruleset.sheets[seat].side
        for slot, other_seat in enumerate(self.ego_orders[seat]):
            if other_seat is None:
                continue
            sheet = ruleset.sheets[other_seat]
            for name, value in (("present", 1.0), ("ally", float(sheet.side == side)),
                                ("max_energy", sheet.max_energy), ("max_wounds", sheet.max_wounds),
                                ("finesse", sheet.finesse), ("physique", sheet.physique)):
                values[self.field[name] + slot] = min(1.0, value / SCALE.get(name, 1.0))
            values[armor + slot * armor_width + ruleset.catalog.armor_index[sheet.armor.key]] = 1.0
        template = np.array(values, dtype=np.float32)
        template.flags.writeable = False  # every observation of the seat is a copy of it
        return template


def _layout(ruleset: "BreathRuleset") -> _Layout:
    """The ruleset's layout, built on first use and kept on the ruleset (``encoder_layout``)."""
    layout = ruleset.encoder_layout
    if layout is None:
        layout = ruleset.encoder_layout = _Layout(ruleset)
    return layout


def _reserved_steps() -> dict[float, float]:
    """``own_reserved`` after one more reservation of a technique, by its value before: float32
    arithmetic, as the field has always been built (1/3 added per reservation, capped at 1). The steps are the
    float32 of ``min(1, n / 3)`` after ``n`` reservations, the manifest's rule (the export's test holds it)."""
    steps: dict[float, float] = {}
    cell = np.zeros(1, dtype=np.float32)
    while float(cell[0]) not in steps:
        before = float(cell[0])
        cell[0] = min(1.0, cell[0] + 1 / SCALE["own_reserved"])
        steps[before] = float(cell[0])
    return steps


RESERVED_STEPS: Final = _reserved_steps()


def encode(state: "BreathState", seat: int) -> np.ndarray:
    """The float32 observation of ``seat``.

    Speed: this runs on every env step. The values that never change in a fight come from a copy of the
    seat's template, a float32 ndarray; the rest (modules' included) are stored into the copy by index
    through a ``memoryview`` of it (a memoryview stores a float with a C cast, where numpy's item store
    costs about twice as much; the view costs one store or so). The copy is the observation: an
    ``array.array("f")`` copy turned into an ndarray by ``np.frombuffer`` cost about 450 instructions more
    than numpy's own copy. Values are computed in float64
    (per-fighter ones scaled and capped as ``min(1.0, v / scale)``) and rounded to float32 as they are
    stored, which is numpy's rounding. A zero is never stored (the template holds it): each statement
    here costs about as much as the numbers it moves, so skipping the usual zeros is the saving that
    remains.
    """
    ruleset = state.ruleset
    layout = ruleset.encoder_layout
    if layout is None:
        layout = _layout(ruleset)
    observation = layout.templates[seat].copy()
    # A memoryview of a float32 ndarray (format "f") indexes and stores as floats (typeshed types it as ints, and
    # numpy's stubs give ndarray the buffer protocol's ``__buffer__`` only for Python 3.12 on).
    values: MutableSequence[float] = memoryview(observation)  # type: ignore[assignment, arg-type]
    fighters = state.fighters
    me = fighters[seat]
    stack = state.stack
    top = stack[-1] if stack else None
    if not state._over:
        values[layout.decision_kind + layout.kind_index[BREATH if top is None else top.kind]] = 1.0
    q = state.round / layout.round_limit
    values[layout.round] = q if q < 1.0 else 1.0
    x = me.check_bonus
    if x:
        values[layout.pending_check_bonus] = x / _S_BONUS if x < _S_BONUS else 1.0
    if top is not None and top.seat == seat and top.kind == DEFEND:  # ``state.incoming_attack(seat)``
        attack = top.context
        base = layout.incoming_attack
        x = attack.total
        values[base] = x / _S_TOTAL if x < _S_TOTAL else 1.0
        values[base + 1] = float(attack.critical)
        values[base + 2] = attack.technique.damage / _S_DAMAGE
    (acting, energy, wounds, limit, spent, standing, defenseless, defeated, checks, reservations, defense,
     zero) = layout.fighter_fields
    weapon, weapon_width, weapon_index = layout.weapon, layout.weapon_width, layout.weapon_index
    stance_at, stance_width, stance_index = layout.stance, layout.stance_width, layout.stance_index
    actor = state.actor_seat
    order = layout.ego_orders[seat]
    slot = -1
    for other_seat in order:
        slot += 1
        if other_seat is None:
            continue  # an empty padded slot stays all zeros
        f = fighters[other_seat]
        if actor == other_seat:
            values[acting + slot] = 1.0
        # Each count is an int: ``x / S if x < S else 1.0`` is ``min(1.0, x / S)``, and a zero is left
        # to the template (most counts are zero most of the time).
        x = f.energy
        if x:
            values[energy + slot] = x / _S_ENERGY if x < _S_ENERGY else 1.0
        x = f.wounds
        if x > 0:
            values[wounds + slot] = x / _S_WOUNDS if x < _S_WOUNDS else 1.0
        x = f.limit
        if x:
            values[limit + slot] = x / _S_LIMIT if x < _S_LIMIT else 1.0
        x = f.spent
        if x:
            values[spent + slot] = x / _S_SPENT if x < _S_SPENT else 1.0
        if f.standing:
            values[standing + slot] = 1.0
        if f.defenseless:
            values[defenseless + slot] = 1.0
        if f.defeated:
            values[defeated + slot] = 1.0
        x = f.attack_checks
        if x:
            values[checks + slot] = x / _S_CHECKS if x < _S_CHECKS else 1.0
        x = len(f.reservations)
        if x:
            values[reservations + slot] = x / _S_RESERVATIONS if x < _S_RESERVATIONS else 1.0
        # ``state.defense_of(f)``, which without [Direct] or a bonus is the plain sum (BR-G02), inline.
        stance = f.stance
        x = f.sheet.armor.defense + f.kata_defense
        if stance is not None:
            x += stance.defense_bonus
            values[stance_at + slot * stance_width + stance_index[stance.key]] = 1.0
        values[defense + slot] = x / _S_DEFENSE if x < _S_DEFENSE else 1.0
        x = len(f.zero_energy_used)
        if x:
            values[zero + slot] = x / _S_ZERO if x < _S_ZERO else 1.0
        values[weapon + slot * weapon_width + weapon_index[f.weapon.key]] = 1.0
    used = layout.own_kata_used
    for key in me.kata_used:
        values[used + layout.kata_index[key]] = 1.0
    reserved = layout.own_reserved
    for key in me.reservations:
        index = reserved + layout.defense_index[key]
        values[index] = RESERVED_STEPS[values[index]]
    for module in ruleset.modules:
        module.write_observation(state, order, values)
    return observation


def render_text(state: "BreathState") -> str:
    """A readable snapshot: round, whose decision, and each fighter's Energy, Wounds, stance, reservations."""
    ruleset = state.ruleset
    seat = state.current_seat()
    lines = [f"round {state.round}/{ruleset.config.round_limit}   "
             + (f"{ruleset.seat_names[seat]} decides ({state.decision_kind()})"
                if seat is not None and not state.is_over() else "fight over")]
    for f in state.fighters:
        energy = "#" * f.energy + "." * (f.sheet.max_energy - f.energy)
        wounds = "+" * max(0, f.wounds) + "." * (f.sheet.max_wounds - max(0, f.wounds))
        flags = [flag for flag, on in (("acting", state.actor_seat == f.seat), ("standing", f.standing),
                                       ("defenseless", f.defenseless), ("defeated", f.defeated)) if on]
        lines.append(f"  {ruleset.seat_names[f.seat]} side {f.side} {f.sheet.name:<11} {f.weapon.key:<10} "
                     f"E[{energy}] {f.energy:>2}/{f.sheet.max_energy}  W[{wounds}] {max(0, f.wounds)}"
                     f"  stance={f.stance.key if f.stance else '-'}"
                     f"  reserved={','.join(k.split('.')[1] for k in f.reservations) or '-'} {' '.join(flags)}")
    lines += [line for line in (m.render_line(state) for m in ruleset.modules) if line]
    return "\n".join(lines)
