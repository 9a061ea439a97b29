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


def ego_order(state: "BreathState", seat: int) -> list[int | None]:
    """Seats as ``seat`` sees them, one per observation slot: itself, its allies, its enemies; None marks
    an empty padded slot (only with a ruleset ``capacity``)."""
    ruleset = state.ruleset
    side = state.fighters[seat].side
    allies: list[int | None] = [f.seat for f in state.fighters if f.seat != seat and f.side == side]
    enemies: list[int | None] = list(ruleset.enemy_seats[seat])
    if ruleset.capacity is not None:
        allies += [None] * (ruleset.ally_slots - len(allies))
        enemies += [None] * (ruleset.observed_slots - 1 - ruleset.ally_slots - len(enemies))
    return [seat, *allies, *enemies]


def encode(state: "BreathState", seat: int) -> np.ndarray:
    """The float32 observation of ``seat``."""
    ruleset = state.ruleset
    spec = ruleset.observation_spec
    out = spec.zeros()
    catalog = ruleset.catalog
    me = state.fighters[seat]
    kind = state.decision_kind() if not state.is_over() else None
    if kind is not None:
        out[spec.slice("decision_kind").start + ruleset.decision_kinds.index(kind)] = 1.0
    out[spec.slice("round")] = min(1.0, state.round / ruleset.config.round_limit)
    out[spec.slice("pending_check_bonus")] = min(1.0, me.check_bonus / 3.0)
    attack = state.incoming_attack(seat)
    if attack is not None:
        base = spec.slice("incoming_attack").start
        out[base] = min(1.0, attack.total / 40.0)
        out[base + 1] = float(attack.critical)
        out[base + 2] = attack.technique.damage / 2.0
    order = ego_order(state, seat)
    for slot, other_seat in enumerate(order):
        if other_seat is None:
            continue
        f = state.fighters[other_seat]
        values = {
            "present": 1.0, "ally": float(f.side == me.side), "acting": float(state.actor_seat == other_seat),
            "energy": f.energy, "max_energy": f.sheet.max_energy, "wounds": max(0, f.wounds),
            "max_wounds": f.sheet.max_wounds, "breath_limit": f.limit, "spent": f.spent,
            "standing": float(f.standing), "defenseless": float(f.defenseless), "defeated": float(f.defeated),
            "attack_checks": f.attack_checks, "reservations": len(f.reservations),
            "defense": state.defense_of(f), "finesse": f.sheet.finesse, "physique": f.sheet.physique,
            "zero_energy_used": len(f.zero_energy_used),
        }
        for name in PER_FIGHTER:
            out[spec.slice(name).start + slot] = min(1.0, values[name] / SCALE.get(name, 1.0))
        _one_hot(out, spec.slice("weapon").start, slot, catalog.weapon_index[f.weapon.key], len(catalog.weapons))
        _one_hot(out, spec.slice("armor").start, slot, catalog.armor_index[f.sheet.armor.key], len(catalog.armors))
        if f.stance is not None:
            _one_hot(out, spec.slice("stance").start, slot, catalog.stance_index[f.stance.key], len(catalog.stances))
    reserved = spec.slice("own_reserved").start
    for key in me.reservations:
        out[reserved + catalog.defense_index[key]] = min(1.0, out[reserved + catalog.defense_index[key]] + 1 / 3)
    used = spec.slice("own_kata_used").start
    for key in me.kata_used:
        out[used + catalog.kata_index[key]] = 1.0
    for module in ruleset.modules:
        module.write_observation(state, order, out)
    return out


def _one_hot(out: np.ndarray, start: int, slot: int, index: int, width: int) -> None:
    out[start + slot * width + index] = 1.0


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
