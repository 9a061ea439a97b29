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

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import numpy as np

from issoku.rules.kernel.protocol import ObservationSpec

if TYPE_CHECKING:
    from issoku.rules.breath.engine import BreathState
    from issoku.rules.breath.ruleset import BreathRuleset

PER_FIGHTER = ("present", "ally", "acting", "energy", "max_energy", "wounds", "max_wounds", "breath_limit",
               "spent", "standing", "defenseless", "defeated", "attack_checks", "reservations", "defense",
               "finesse", "physique", "zero_energy_used")
"""Scalar fields, one value per fighter slot."""

SCALE = {  # divide by these to write, multiply to read (scripted agents do)
    "energy": 20.0, "max_energy": 20.0, "wounds": 12.0, "max_wounds": 12.0, "breath_limit": 12.0,
    "spent": 12.0, "attack_checks": 10.0, "reservations": 6.0, "defense": 25.0, "finesse": 5.0,
    "physique": 5.0, "zero_energy_used": 2.0}


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
    fields += [("weapon", n * len(catalog.weapons), 0.0, 1.0), ("armor", n * len(catalog.armors), 0.0, 1.0),
               ("stance", n * len(catalog.stances), 0.0, 1.0),
               ("own_reserved", len([t for t in catalog.techniques.values() if t.kind == "defense"]), 0.0, 1.0),
               ("own_kata_used", max(1, len(catalog.katas)), 0.0, 1.0)]
    for module in ruleset.modules:
        fields += list(module.observation_fields(n))
    return ObservationSpec(tuple(fields))


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


class _Layout:
    """Where :func:`encode` writes, resolved once per ruleset: the spec's slice lookups, the scales and
    the catalog indexes, flattened into plain ints and floats for the hot path."""

    __slots__ = ("size", "decision_kind", "kind_index", "round", "round_limit", "pending_check_bonus",
                 "incoming_attack", "ego_orders", "per_fighter_start", "per_fighter_stop", "slots", "scales",
                 "weapon", "weapon_width", "weapon_index", "armor", "armor_width",
                 "armor_index", "stance", "stance_width", "stance_index", "own_reserved", "defense_index",
                 "own_kata_used", "kata_index")

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
        first, last = spec.slice(PER_FIGHTER[0]), spec.slice(PER_FIGHTER[-1])
        if last.stop - first.start != len(PER_FIGHTER) * ruleset.observed_slots:
            raise ValueError("the per-fighter observation fields must be contiguous")
        self.per_fighter_start, self.per_fighter_stop = first.start, last.stop
        self.slots = ruleset.observed_slots
        self.scales = tuple(SCALE.get(name, 1.0) for name in PER_FIGHTER)
        self.weapon, self.weapon_width = spec.slice("weapon").start, len(catalog.weapons)
        self.weapon_index = catalog.weapon_index
        self.armor, self.armor_width = spec.slice("armor").start, len(catalog.armors)
        self.armor_index = catalog.armor_index
        self.stance, self.stance_width = spec.slice("stance").start, len(catalog.stances)
        self.stance_index = catalog.stance_index
        self.own_reserved = spec.slice("own_reserved").start
        self.defense_index = catalog.defense_index
        self.own_kata_used = spec.slice("own_kata_used").start
        self.kata_index = catalog.kata_index


_LAYOUTS: "WeakKeyDictionary[BreathRuleset, _Layout]" = WeakKeyDictionary()


def _layout(ruleset: "BreathRuleset") -> _Layout:
    layout = _LAYOUTS.get(ruleset)
    if layout is None:
        layout = _LAYOUTS[ruleset] = _Layout(ruleset)
    return layout


def _reserved_steps() -> dict[float, float]:
    """``own_reserved`` after one more reservation of a technique, by its value before: float32
    arithmetic, as the field has always been built (1/3 added per reservation, capped at 1)."""
    steps: dict[float, float] = {}
    cell = np.zeros(1, dtype=np.float32)
    while float(cell[0]) not in steps:
        before = float(cell[0])
        cell[0] = min(1.0, cell[0] + 1 / 3)
        steps[before] = float(cell[0])
    return steps


RESERVED_STEPS = _reserved_steps()


def encode(state: "BreathState", seat: int) -> np.ndarray:
    """The float32 observation of ``seat``.

    Speed: this runs on every env step, so every value (modules' included) is written into one Python
    list (a list store is several times cheaper than a numpy element store) and converted once;
    float64 -> float32 rounding is the same either way, and the per-fighter values are scaled and capped
    in float64 as ``min(1.0, v / scale)``.
    """
    ruleset = state.ruleset
    layout = _layout(ruleset)
    values = [0.0] * layout.size
    fighters = state.fighters
    me = fighters[seat]
    if not state.is_over():
        values[layout.decision_kind + layout.kind_index[state.decision_kind()]] = 1.0
    values[layout.round] = min(1.0, state.round / layout.round_limit)
    values[layout.pending_check_bonus] = min(1.0, me.check_bonus / 3.0)
    attack = state.incoming_attack(seat)
    if attack is not None:
        base = layout.incoming_attack
        values[base] = min(1.0, attack.total / 40.0)
        values[base + 1] = float(attack.critical)
        values[base + 2] = attack.technique.damage / 2.0
    order = layout.ego_orders[seat]
    block, slots, block_stop, scales = layout.per_fighter_start, layout.slots, layout.per_fighter_stop, layout.scales
    for slot, other_seat in enumerate(order):
        if other_seat is None:
            continue  # an empty padded slot stays all zeros
        f = fighters[other_seat]
        sheet = f.sheet
        raw = (  # in PER_FIGHTER order; field-major in the vector, so one slot's values are ``slots`` apart
            1.0, f.side == me.side, state.actor_seat == other_seat, f.energy, sheet.max_energy,
            max(0, f.wounds), sheet.max_wounds, f.limit, f.spent, f.standing, f.defenseless,
            f.defeated, f.attack_checks, len(f.reservations), state.defense_of(f), sheet.finesse,
            sheet.physique, len(f.zero_energy_used),
        )
        values[block + slot:block_stop:slots] = [q if (q := v / scale) < 1.0 else 1.0 for v, scale in zip(raw, scales)]
        values[layout.weapon + slot * layout.weapon_width + layout.weapon_index[f.weapon.key]] = 1.0
        values[layout.armor + slot * layout.armor_width + layout.armor_index[sheet.armor.key]] = 1.0
        if f.stance is not None:
            values[layout.stance + slot * layout.stance_width + layout.stance_index[f.stance.key]] = 1.0
    used = layout.own_kata_used
    for key in me.kata_used:
        values[used + layout.kata_index[key]] = 1.0
    reserved = layout.own_reserved
    for key in me.reservations:
        index = reserved + layout.defense_index[key]
        values[index] = RESERVED_STEPS[values[index]]
    for module in ruleset.modules:
        module.write_observation(state, order, values)
    return np.array(values, dtype=np.float32)


def render_text(state: "BreathState") -> str:
    """A readable snapshot: round, whose decision, and each fighter's Energy, Wounds, stance, reservations."""
    ruleset = state.ruleset
    lines = [f"round {state.round}/{ruleset.config.round_limit}   "
             + (f"{ruleset.seat_names[state.current_seat()]} decides ({state.decision_kind()})"
                if not state.is_over() else "fight over")]
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
