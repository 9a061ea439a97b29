"""The configured breath fight: fighters, options, content, action table and observation schema.

:class:`BreathRuleset` is the kernel's immutable *game* (OpenSpiel's Game): build it once from a
:class:`BreathConfig` and the content files, then ``new_initial_state(seed)`` as often as you like.
The action table covers the whole catalog (every weapon's techniques, every stance and [Kata]) so that one
policy can play any loadout; the legal mask narrows it to the fighter's own sheet.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from mypy_extensions import mypyc_attr

from issoku.rules.breath.content import Catalog, Technique, load_catalog
from issoku.rules.breath.fighter import Sheet
from issoku.rules.breath.kinds import (ATTACK, ATTACK_TECHNIQUE, CORE_DECISIONS, COUNTER, DECLINE_COUNTER,
                                        DEFENSE_TECHNIQUE, END_BREATH, IMPROVISE, KATA, RELEASE_STANCE, RESERVE, STANCE,
                                        STAND, TAKE_HIT, USE_RESERVED)
from issoku.rules.breath.memo import LegalMemo
from issoku.rules.breath.modules import BreathModule, Order
from issoku.rules.breath.observe import build_observation_spec
from issoku.rules.breath.provenance import decision_drivers
from issoku.rules.kernel.codec import ActionCodec
from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.protocol import ObservationSpec

if TYPE_CHECKING:
    from issoku.rules.breath.observe import _Layout

SEAT_NAMINGS = ("player", "side_fighter")
"""How :class:`BreathRuleset` names its seats (``seat_naming``)."""


@dataclass(frozen=True)
class FighterSpec:
    """One fighter: an archetype from the content, optionally with another weapon, armor or attributes."""

    archetype: str = "kenshi"
    side: int = 0
    weapon: str | None = None
    armor: str | None = None
    finesse: int | None = None
    physique: int | None = None
    wits: int | None = None
    courage: int | None = None


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
@dataclass(frozen=True)
class BreathConfig:
    """Options of a breath fight. Defaults: a canon duel, kenshi (uchigatana) vs ronin (nodachi)."""

    fighters: tuple[FighterSpec, ...] = (FighterSpec("kenshi", 0), FighterSpec("ronin", 1))
    """Who fights, and on which side; two or more, at least two sides."""
    round_limit: int = 20
    """BR-G20: an undecided fight is a draw after this many rounds."""
    allies_side: int = 0
    """BR-A07: the side that "allies act first" favours on a count tie."""


@dataclass(frozen=True, slots=True)
class ActionSlot:
    """What a flat action means: ``order`` plus the engine-side fields the hot path needs."""

    order: Order
    kind: str
    key: str | None
    target: int
    technique: Technique | None


class BreathCandidates(NamedTuple):
    """A breath decision's candidate actions, ascending within each part: the engine's own (checked one by
    one) and each module's with their orders (which the module judges at once, ``BreathModule.legal_orders``);
    modules' actions follow the engine's in the table, so the parts in order stay ascending."""

    core: tuple[int, ...]
    modules: tuple[tuple[BreathModule, tuple[int, ...], tuple[Order, ...]], ...]


_CONTENT_CATEGORY = {"attack": "technique", "counter": "technique", "reserve": "defence", "use_reserved": "defence",
                     "improvise": "defence", "stance": "stance", "kata": "kata"}
"""The content category of an engine order's key (BreathRuleset.action_content)."""


def _order_name(order: Order) -> str:
    parts = [str(part) for part in order[1:]]
    return ":".join([str(order[0]), *parts]) if parts else str(order[0])


class BreathRuleset:
    """A breath fight (seed 002) under ``config``, with optional variant ``modules`` (Ma and Blade...)."""

    version = 1
    data_systems = ("breath", "ma", "spells")
    """The folders under ``rules/`` whose data files this ruleset reads: what a loadout can own
    (:func:`issoku.evaluation.design.variants.data_files`; names repeat across rulesets)."""

    def __init__(self, config: BreathConfig = BreathConfig(), *, data: Sequence[Path | str] | Path | str | None = None,
                 modules: Sequence[BreathModule] = (), name: str = "breath_duel", seat_naming: str = "player",
                 capacity: int | None = None) -> None:
        """``seat_naming``: ``"player"`` names seats ``player_0, player_1...``; ``"side_fighter"`` names them
        ``side_<s>_fighter_<k>`` (``k`` from 1 within each side, by seat). ``capacity``: when set, the most
        fighters any side may field; the observation then has ``capacity`` slots per side and attacks
        ``capacity`` target slots per enemy side, whatever this config fields, so one policy can play every
        size up to it (fixed, padded slots)."""
        self.config = config
        self.catalog: Catalog = load_catalog(data)
        self.modules: tuple[BreathModule, ...] = tuple(modules)
        self.name = name
        self.seat_naming = seat_naming
        self.capacity = capacity
        self._check_config()
        self.sheets: tuple[Sheet, ...] = tuple(self._sheet(spec) for spec in config.fighters)
        self.own_stances = tuple({stance.key: stance for stance in sheet.stances} for sheet in self.sheets)
        """Per seat, its stances by key (the legal-action scan looks them up)."""
        self.own_katas = tuple({kata.key: kata for kata in sheet.katas} for sheet in self.sheets)
        """Per seat, its [Kata] by key."""
        self.num_seats = len(self.sheets)
        self.seat_names = self._seat_names()
        self.seat_teams = tuple(sheet.side for sheet in self.sheets)
        self.enemy_seats = tuple(tuple(o for o, other in enumerate(self.sheets) if other.side != sheet.side)
                                 for sheet in self.sheets)
        """Each seat's enemies by seat: the target slots of its attack actions."""
        num_sides = len(set(self.seat_teams))
        if capacity is None:
            self.max_targets = max(len(enemies) for enemies in self.enemy_seats)
            self.observed_slots = self.num_seats
            self.ally_slots = max(sum(1 for o in self.sheets if o.side == s.side) for s in self.sheets) - 1
        else:
            self.max_targets = capacity * (num_sides - 1)
            self.observed_slots = capacity * num_sides
            self.ally_slots = capacity - 1
        """``observed_slots``: per-fighter observation slots (self, ``ally_slots`` allies, then enemies)."""
        self.decision_kinds = CORE_DECISIONS + tuple(k for m in self.modules for k in m.decision_kinds)
        orders = self._orders()
        self.codec: ActionCodec[Order] = ActionCodec(orders, _order_name)
        self.action_names: tuple[str, ...] = tuple(self.codec.names)
        self.slots: tuple[ActionSlot, ...] = tuple(self._slot(order) for order in orders)
        self.module_of_kind = {kind: module for module in self.modules for kind in module.order_kinds}
        self.module_actions = {module: tuple(a for a, slot in enumerate(self.slots) if slot.kind in module.order_kinds)
                               for module in self.modules}
        """Each module's own actions: the only answers its decisions can take (``BreathModule.pending_legal``)."""
        self.vetoers = tuple(m for m in self.modules if type(m).vetoes_order is not BreathModule.vetoes_order)
        """The modules that may forbid others' orders (``BreathModule.vetoes_order``); usually none."""
        self._candidates: dict[tuple[int, str], BreathCandidates] = {}
        self.legal_memo = LegalMemo()
        """Legal actions of breath and defend decisions by situation, and each distinct legal tuple by
        itself so that situations share it (``BreathState`` fills it, within the bounds of
        :mod:`issoku.rules.breath.memo`). Situation keys hold strings, legal tuples only ints, so the two never collide."""
        self.observation_spec: ObservationSpec = build_observation_spec(self)
        self.encoder_layout: _Layout | None = None
        """``observe``'s offsets and templates for this ruleset, built on the first observation."""
        self.limits: dict[tuple[int, bool, int], int] | None = None if any(
            type(m).breath_expansions is not BreathModule.breath_expansions for m in self.modules) else {}
        """One-breath limits by (seat, in the Core Zone, [Kata] descent), filled as fights ask
        (``BreathState._limit_of``); None when a module expands breaths, since the key would not cover it."""
        self.fingerprint = self._fingerprint()

    # -- construction ------------------------------------------------------------------------------
    def _check_config(self) -> None:
        fighters = self.config.fighters
        if len(fighters) < 2 or len({spec.side for spec in fighters}) < 2:
            raise ValueError("a breath fight needs at least two fighters on at least two sides")
        if self.config.round_limit < 1:
            raise ValueError("round_limit must be at least 1")
        if self.seat_naming not in SEAT_NAMINGS:
            raise ValueError(f"seat_naming must be one of {SEAT_NAMINGS}, not {self.seat_naming!r}")
        if self.capacity is not None:
            largest = max(sum(1 for other in fighters if other.side == spec.side) for spec in fighters)
            if largest > self.capacity:
                raise ValueError(f"a side fields {largest} fighters, more than capacity {self.capacity}")
        for spec in fighters:
            if spec.archetype not in self.catalog.archetypes:
                raise ValueError(f"unknown archetype {spec.archetype!r}; known: {sorted(self.catalog.archetypes)}")
            if spec.armor is not None and spec.armor not in self.catalog.armors:
                raise ValueError(f"unknown armor {spec.armor!r}; known: {sorted(self.catalog.armors)}")
            if spec.weapon is not None:
                self.catalog.weapon(spec.weapon)

    def _seat_names(self) -> tuple[str, ...]:
        if self.seat_naming == "player":
            return tuple(f"player_{seat}" for seat in range(self.num_seats))
        names = []
        for seat, sheet in enumerate(self.sheets):
            rank = 1 + sum(1 for other in self.sheets[:seat] if other.side == sheet.side)
            names.append(f"side_{sheet.side}_fighter_{rank}")
        return tuple(names)

    def _sheet(self, spec: FighterSpec) -> Sheet:
        archetype = self.catalog.archetypes[spec.archetype]
        weapon = self.catalog.weapon(spec.weapon or archetype.weapon)
        stances = tuple(self.catalog.stances[key] for key in archetype.stances
                        if not self.catalog.stances[key].weapons or weapon.key in self.catalog.stances[key].weapons)
        return Sheet(
            name=archetype.key, side=spec.side,
            finesse=archetype.finesse if spec.finesse is None else spec.finesse,
            physique=archetype.physique if spec.physique is None else spec.physique,
            wits=archetype.wits if spec.wits is None else spec.wits,
            courage=archetype.courage if spec.courage is None else spec.courage,
            skills=archetype.skills, weapon=weapon,
            armor=self.catalog.armors[spec.armor or archetype.armor], stances=stances,
            katas=tuple(self.catalog.katas[key] for key in archetype.kata), traits=frozenset(archetype.traits))

    def _orders(self) -> list[Order]:
        catalog = self.catalog
        attacks = [t.key for t in catalog.techniques.values() if t.kind == ATTACK_TECHNIQUE]
        defenses = [t.key for t in catalog.techniques.values() if t.kind == DEFENSE_TECHNIQUE]
        orders: list[Order] = []
        for key in attacks:
            if self.max_targets == 1:
                orders.append((ATTACK, key))
            else:
                orders.extend((ATTACK, key, f"enemy{slot}") for slot in range(self.max_targets))
        orders += [(RESERVE, key) for key in defenses]
        orders += [(STANCE, key) for key in catalog.stances]
        orders.append((RELEASE_STANCE,))
        orders += [(KATA, key) for key in catalog.katas]
        orders += [(END_BREATH,), (STAND,)]
        orders += [(USE_RESERVED, key) for key in defenses]
        orders += [(IMPROVISE, key) for key in defenses]
        orders.append((TAKE_HIT,))
        orders += [(COUNTER, key) for key in attacks]
        orders.append((DECLINE_COUNTER,))
        for module in self.modules:
            orders += module.extra_orders(catalog, self.max_targets)
        return orders

    def _slot(self, order: Order) -> ActionSlot:
        key = order[1] if len(order) > 1 and isinstance(order[1], str) else None
        target = int(order[2][5:]) if order[0] == ATTACK and len(order) > 2 else 0
        return ActionSlot(order=order, kind=order[0], key=key, target=target,
                          technique=self.catalog.techniques.get(key) if key is not None else None)

    def breath_candidates(self, seat: int, weapon: str) -> BreathCandidates:
        """The actions a fighter could ever play in its breath with ``weapon`` in hand (a superset of the
        legal ones), so that the legal mask is built from a dozen checks rather than the whole table."""
        key = (seat, weapon)
        found = self._candidates.get(key)
        if found is None:
            sheet = self.sheets[seat]
            own = {(STANCE, s.key) for s in sheet.stances} | {(KATA, k.key) for k in sheet.katas}
            core = tuple(a for a, slot in enumerate(self.slots)  # an attack's or reserve's key: "weapon.technique"
                         if (slot.kind in (ATTACK, RESERVE) and str(slot.key).split(".")[0] == weapon)
                         or slot.order[:2] in own or slot.kind in (RELEASE_STANCE, END_BREATH, STAND))
            by_module = []
            for module, actions in self.module_actions.items():
                mine = tuple(a for a in actions  # a module's technique orders: own weapon only
                             if (technique := self.slots[a].technique) is None or technique.weapon == weapon)
                by_module.append((module, mine, tuple(self.slots[a].order for a in mine)))
            found = self._candidates[key] = BreathCandidates(core, tuple(by_module))
        return found

    def _fingerprint(self) -> str:
        described = {"name": self.name, "version": self.version, "config": asdict(self.config),
                     "data": self.catalog.digest, "modules": [m.name for m in self.modules]}
        if self.seat_naming != "player" or self.capacity is not None:  # older fingerprints stay as they were
            described.update(seat_naming=self.seat_naming, capacity=self.capacity)
        blob = json.dumps(described, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def action_content(self, name: str) -> tuple[str, ...]:
        """The content items action ``name`` exercises (the kernel's content hook): a technique however it is
        played (``attack``, ``counter``), a defence however it is used (``reserve``, ``use_reserved``,
        ``improvise``), a stance, a [Kata]; a module's order as the module says (``BreathModule.order_content``);
        any other action is its own item."""
        slot = self.slots[self.action_names.index(name)]
        for module in self.modules:
            if slot.kind in module.order_kinds:
                return module.order_content(slot.order) or (name,)
        category = _CONTENT_CATEGORY.get(slot.kind)
        return (f"{category}:{slot.key}",) if category and slot.key else (name,)

    def decision_drivers(self, label: str) -> list[str]:
        """The project decisions behind loadout ``label``'s standout values, each with its ID (the report's provenance
        hook: :func:`~issoku.rules.breath.provenance.decision_drivers` over this ruleset's data)."""
        return decision_drivers(self.catalog, label)

    def seat_content(self, seat: int) -> tuple[str, ...]:
        """The content keys a seat fields (archetype, weapon, armor, stances, [Kata]): what a data edit can touch."""
        sheet = self.sheets[seat]
        return (sheet.name, sheet.weapon.key, sheet.armor.key, *(s.key for s in sheet.stances),
                *(k.key for k in sheet.katas))

    # -- the kernel protocol -----------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True, dice: Dice | None = None):
        """A fresh fight; all chance from ``numpy.random.default_rng(seed)``, or from ``dice`` (scripted in
        worked examples)."""
        from issoku.rules.breath.engine import BreathState

        return BreathState.initial(self, seed, record_events=record_events, dice=dice)


__all__ = ["ActionSlot", "BreathCandidates", "BreathConfig", "BreathRuleset", "CORE_DECISIONS", "FighterSpec"]
