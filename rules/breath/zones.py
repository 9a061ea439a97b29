"""The skirmish's zones: the canon zone line, movement maneuvers, reach, and the Core and Outside Zones.

:class:`ZonesModule` is a :class:`~issoku.rules.breath.modules.BreathModule` for fights of two sides
(BR-G15). The line is Side-A Rear – Side-A Front – Core – Side-B Front – Side-B Rear, with one Outside
Zone adjacent to both Fronts and the Core; side A is the lower side number. Fighters start in their own
Front (BR-Z01). The module adds the movement maneuvers of the cost table (BR-067..BR-076, priced from
``data/maneuvers.toml``) as orders of one's breath, vetoes attacks out of reach (melee only within a
zone; bow and teppo up to 2 zones, never in or into the Core: BR-G15, BR-G17), adds the Outside Zone's
+1 (BR-057) and Sprint's +1 (BR-068, BR-G21), and keeps ``fighter.in_core`` true exactly while a
fighter stands in the Core, so the engine's Core Zone cost rules (BR-033, BR-051, BR-052, BR-053, BR-054, BR-055,
BR-056, BR-061) apply there.

Zones are named ego-centrically in orders and observations (``own_rear``, ``own_front``, ``core``,
``enemy_front``, ``enemy_rear``, ``outside``), so one policy plays either side; events name them
absolutely (``side_a_front``...). ``docs/rules/breath.md`` § Skirmish zones records every decision
(``BR-Znn``).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Any


from issoku.rules.breath.costs import Modifier
from issoku.rules.breath.modules import BreathModule, Order
from issoku.rules.kernel.encoding import FieldEncoding, field, flag, one_hot, per_slot

if TYPE_CHECKING:
    from issoku.rules.breath.content import Catalog, Technique
    from issoku.rules.breath.engine import Attack, BreathState
    from issoku.rules.breath.fighter import Fighter

A_REAR, A_FRONT, CORE, B_FRONT, B_REAR, OUTSIDE = range(6)
ZONE_NAMES = ("side_a_rear", "side_a_front", "core", "side_b_front", "side_b_rear", "outside")
"""Absolute zone names (events, rendering)."""
EGO_ZONES = ("own_rear", "own_front", "core", "enemy_front", "enemy_rear", "outside")
"""Zone names as a fighter of either side sees them (orders, observations)."""
_MIRROR = (B_REAR, B_FRONT, CORE, A_FRONT, A_REAR, OUTSIDE)
"""Ego index -> absolute zone for side B (side A's ego indices are the absolute ones)."""
ADJACENT: tuple[frozenset[int], ...] = (
    frozenset({A_FRONT}), frozenset({A_REAR, CORE, OUTSIDE}), frozenset({A_FRONT, B_FRONT, OUTSIDE}),
    frozenset({CORE, B_REAR, OUTSIDE}), frozenset({B_FRONT}), frozenset({A_FRONT, CORE, B_FRONT}))
"""BR-G15: the line, and the Outside Zone beside both Fronts and the Core."""
RANGED_REACH = 2
"""BR-G15: bow and teppo reach up to 2 zones away."""
CORE_CLASSES = frozenset({"ronin", "mikkyo_monk", "shinobi"})
"""BR-073: the classes that enter the Core Zone freely (archetype traits)."""
WALK, SPRINT, BREAKTHROUGH = "walk", "sprint", "breakthrough"
"""The module's order kinds, named once (they are also the maneuvers' keys in the content): moves along the
line (BR-G15, BR-Z02, BR-G16)..."""
FREE_CORE_ENTRY, FORCE_CORE_BREAKTHROUGH = "free_core_entry", "force_core_breakthrough"
"""... into the Core (BR-073, BR-Z04)..."""
FORCED_CORE_EXIT = "forced_core_exit"
"""... out of it (BR-Z04)..."""
ENTER_OUTSIDE_ZONE = "enter_outside_zone"
"""... and into the Outside Zone (BR-Z03)."""
OUTSIDE_ZERO_EFFECT = ENTER_OUTSIDE_ZONE
"""The shinobi's 0-Energy([Kata]) entry into the Outside Zone, in the 0-Energy accounting (BR-Z05)."""

LINE_MOVES = (WALK, SPRINT, BREAKTHROUGH)
LINE_DESTINATIONS = ("own_rear", "own_front", "enemy_front", "enemy_rear")
EXIT_DESTINATIONS = ("own_front", "enemy_front")
ORDERS: tuple[Order, ...] = (*((kind, dest) for kind in LINE_MOVES for dest in LINE_DESTINATIONS),
                             (FREE_CORE_ENTRY,), (FORCE_CORE_BREAKTHROUGH,),
                             *((FORCED_CORE_EXIT, dest) for dest in EXIT_DESTINATIONS), (ENTER_OUTSIDE_ZONE,))
"""The movement orders, with ego-centric destinations where they choose one."""


def _destination_of(order: Order, side_b: bool) -> int:
    if order[0] in (FREE_CORE_ENTRY, FORCE_CORE_BREAKTHROUGH):
        return CORE
    if order[0] == ENTER_OUTSIDE_ZONE:
        return OUTSIDE
    index = EGO_ZONES.index(order[1])
    return _MIRROR[index] if side_b else index


DESTINATIONS: dict[Order, tuple[int, int]] = {order: (_destination_of(order, False), _destination_of(order, True))
                                              for order in ORDERS}
"""Each order's absolute destination for a side-A and a side-B fighter (a table: the mask asks often)."""


def _distances() -> tuple[tuple[int, ...], ...]:
    """Shortest zone distances over :data:`ADJACENT` (breadth-first from every zone)."""
    table = []
    for start in range(len(ADJACENT)):
        distance = {start: 0}
        frontier = [start]
        while frontier:
            reached = []
            for zone in frontier:
                for neighbour in sorted(ADJACENT[zone].difference(distance)):
                    distance[neighbour] = distance[zone] + 1
                    reached.append(neighbour)
            frontier = reached
        table.append(tuple(distance[zone] for zone in range(len(ADJACENT))))
    return tuple(table)


DISTANCE = _distances()


class ZoneData:
    """Per fight: each seat's zone, whether its Sprint bonus waits for its next attack check, and (fixed)
    whether it fights for side B, whose ego zone names mirror the line."""

    __slots__ = ("zone", "sprint", "side_b")

    def __init__(self, zone: list[int], sprint: list[bool], side_b: tuple[bool, ...]) -> None:
        self.zone = zone
        self.sprint = sprint
        self.side_b = side_b

    def clone(self) -> "ZoneData":
        """An independent copy (``side_b`` never changes, so it is shared)."""
        return ZoneData(list(self.zone), list(self.sprint), self.side_b)


class ZonesModule(BreathModule):
    """The skirmish's zone line (see the module docstring)."""

    name = "zones"
    order_kinds = tuple(dict.fromkeys(order[0] for order in ORDERS))

    # -- setup -----------------------------------------------------------------------------------
    def extra_orders(self, catalog: "Catalog", max_targets: int) -> list[Order]:
        """The movement maneuvers, with ego-centric destinations."""
        missing = [kind for kind in self.order_kinds if kind not in catalog.maneuvers]
        if missing:
            raise ValueError(f"the zones need these maneuvers in the content: {missing}")
        return list(ORDERS)

    def new_data(self, state: "BreathState") -> ZoneData:
        """BR-Z01: every fighter starts in its own side's Front."""
        sides = sorted(set(state.ruleset.seat_teams))
        if len(sides) != 2:
            raise ValueError(f"the zone line has two sides (BR-G15); this fight has {len(sides)}")
        side_b = tuple(f.side != sides[0] for f in state.fighters)
        zone = [B_FRONT if b else A_FRONT for b in side_b]
        state.emit("BR-Z01", "zones_placed", None, zones=tuple(ZONE_NAMES[z] for z in zone))
        return ZoneData(zone, [False] * len(zone), side_b)

    # -- where everyone is -----------------------------------------------------------------------
    def zone_of(self, state: "BreathState", fighter: "Fighter") -> int:
        """The absolute zone ``fighter`` stands in."""
        return state.ext["zones"].zone[fighter.seat]

    @staticmethod
    def ego(state: "BreathState", observer: "Fighter", zone: int) -> int:
        """The ego index of absolute ``zone`` as ``observer`` sees it (the mirror is its own inverse)."""
        return _MIRROR[zone] if state.ext["zones"].side_b[observer.seat] else zone

    def enemy_controlled(self, state: "BreathState", fighter: "Fighter", zone: int) -> bool:
        """BR-G15: ``zone`` holds an active enemy of ``fighter`` and no active ally."""
        zones = state.ext["zones"].zone
        enemy = ally = False
        for other in state.fighters:
            if other.defeated or other is fighter or zones[other.seat] != zone:
                continue
            if other.side == fighter.side:
                ally = True
            else:
                enemy = True
        return enemy and not ally

    def place(self, state: "BreathState", fighter: "Fighter", zone: int) -> None:
        """Put ``fighter`` in ``zone`` (a move, or a scenario's set-up), keeping ``in_core`` in step."""
        state.ext["zones"].zone[fighter.seat] = zone
        fighter.in_core = zone == CORE

    # -- orders ----------------------------------------------------------------------------------
    def _base_cost(self, state: "BreathState", fighter: "Fighter", order: Order) -> int:
        """The table cost; the shinobi's Outside Zone entry is 0 (BR-076) while its 0-Energy use lasts."""
        if order[0] == ENTER_OUTSIDE_ZONE and self._shinobi_entry(state, fighter):
            return 0
        return state.ruleset.catalog.maneuvers[order[0]].cost

    @staticmethod
    def _shinobi_entry(state: "BreathState", fighter: "Fighter") -> bool:
        return "shinobi" in fighter.sheet.traits and state.zero_energy_allowed(fighter, OUTSIDE_ZERO_EFFECT)

    def legal_key(self, state: "BreathState", fighter: "Fighter") -> tuple[int, ...]:
        """Moves, reach and the Outside Zone surcharge read where everyone stands (sides are fixed)."""
        return tuple(state.ext["zones"].zone)

    def order_legal(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """Where each maneuver may go from here (BR-G15, BR-Z02, BR-Z03, BR-Z04, BR-Z05, BR-Z06), and whether Energy
        covers it."""
        data = state.ext["zones"]
        here = data.zone[fighter.seat]
        there = DESTINATIONS[order][data.side_b[fighter.seat]]
        if there not in ADJACENT[here]:
            return False
        kind = order[0]
        if kind in LINE_MOVES:
            if here == CORE:
                return False  # BR-075: the Core is left only by forced exit
            controlled = self.enemy_controlled(state, fighter, there) and here != OUTSIDE  # BR-Z03: the flank
            if controlled != (kind == BREAKTHROUGH):
                return False
        elif kind == FORCED_CORE_EXIT:
            if here != CORE:
                return False
        elif kind == FREE_CORE_ENTRY:
            if not CORE_CLASSES & fighter.sheet.traits:
                return False
        elif kind == ENTER_OUTSIDE_ZONE:
            if here == CORE:
                return False  # BR-Z04
            if not (self._shinobi_entry(state, fighter) or "infiltration_master" in fighter.sheet.traits):
                return False
        base = self._base_cost(state, fighter, order)
        return base == 0 or state.cost_of(fighter, None, order, base)[0] <= fighter.energy

    def apply_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> None:
        """Pay, roll where the maneuver asks for a check, and move."""
        kind = order[0]
        maneuver = state.ruleset.catalog.maneuvers[kind]
        data = state.ext["zones"]
        here = data.zone[fighter.seat]
        there = DESTINATIONS[order][data.side_b[fighter.seat]]
        base = self._base_cost(state, fighter, order)
        if base == 0:
            fighter.zero_energy_used.append(OUTSIDE_ZERO_EFFECT)
            state.emit("BR-Z05", "zero_energy", fighter.seat, what=kind,
                       used_this_round=len(fighter.zero_energy_used))
        else:
            cost, modifiers = state.cost_of(fighter, None, order, base)
            state.pay(fighter, cost, maneuver.rule, kind, modifiers)
        if maneuver.check_tn is not None:
            rule = "BR-G16" if kind == BREAKTHROUGH else maneuver.rule  # our TN, or the text's 13
            on_all_checks = state.check_modifiers(fighter)  # what every check carries (none in a skirmish yet)
            check = state.dice.check(fighter.sheet.courage + sum(d for _, d in on_all_checks), maneuver.check_tn)
            state.emit(rule, "courage_check", fighter.seat, maneuver=kind, dice=check.dice,
                       courage=fighter.sheet.courage, total=check.total, target=check.target, success=check.success)
            if not check.success:
                state.emit("BR-G16", "move_failed", fighter.seat, maneuver=kind, stays=ZONE_NAMES[here])
                return
        entered_enemies = any(other.side != fighter.side and not other.defeated and data.zone[other.seat] == there
                              for other in state.fighters)
        if here == OUTSIDE and self.enemy_controlled(state, fighter, there):
            state.emit("BR-Z03", "flank", fighter.seat, zone=ZONE_NAMES[there])
        self.place(state, fighter, there)
        if entered_enemies:                      # BR-Z08: closed in, by any maneuver, for the rest of the round
            fighter.closed_this_round = True
        if kind == SPRINT:
            data.sprint[fighter.seat] = True
        if state.events.enabled:
            state.emit(maneuver.rule, "moved", fighter.seat, maneuver=kind, origin=ZONE_NAMES[here],
                       zone=ZONE_NAMES[there], in_core=fighter.in_core, closed=entered_enemies)

    # -- the rules' arithmetic -------------------------------------------------------------------
    def attack_allowed(self, state: "BreathState", attacker: "Fighter", target: "Fighter",
                       technique: "Technique") -> bool:
        """BR-G15/BR-G17: melee within one zone; shots up to 2 zones, never from or into the Core."""
        zones = state.ext["zones"].zone
        here, there = zones[attacker.seat], zones[target.seat]
        if not technique.ranged:
            return here == there
        return here != CORE and there != CORE and DISTANCE[here][there] <= RANGED_REACH

    def cost_modifiers(self, state: "BreathState", fighter: "Fighter", technique: "Technique | None",
                       order: Order) -> list[Modifier]:
        """BR-057 (BR-Z06): +1 on every maneuver made from the Outside Zone, except by a shinobi."""
        if state.ext["zones"].zone[fighter.seat] == OUTSIDE and "shinobi" not in fighter.sheet.traits:
            return [("outside_zone", 1)]
        return []

    def attack_modifiers(self, state: "BreathState", attack: "Attack") -> list[Modifier]:
        """BR-068/BR-G21: Sprint's +1 goes to the sprinter's next attack check in the same breath only."""
        sprint = state.ext["zones"].sprint
        seat = attack.attacker.seat
        if sprint[seat] and not attack.counter and state.actor_seat == seat:
            sprint[seat] = False
            return [("sprint", 1)]
        return []

    # -- the timeline ----------------------------------------------------------------------------
    def on_breath_start(self, state: "BreathState", fighter: "Fighter") -> None:
        """BR-G21: an unused Sprint bonus is lost when its breath ends (cleared as the next one begins)."""
        state.ext["zones"].sprint[fighter.seat] = False

    # -- observation and rendering ---------------------------------------------------------------
    def observation_fields(self, num_fighters: int) -> Sequence[tuple[str, int, float, float]]:
        """Per fighter slot its ego zone (one-hot); the zones enemy-held for the observer; Sprint pending."""
        return (("zone", num_fighters * len(EGO_ZONES), 0.0, 1.0),
                ("zone_enemy_controlled", len(EGO_ZONES), 0.0, 1.0), ("sprint_bonus", 1, 0.0, 1.0))

    def observation_encodings(self, slots: Sequence[str]) -> Sequence[FieldEncoding]:
        """What fills the zone fields: zones named from the observer's side (``EGO_ZONES`` order)."""
        return (per_slot(one_hot("zone", EGO_ZONES, "the zone, named from the observer's side"),
                         "the zone each fighter stands in", slots),
                field("the zones the observer's enemies control",
                      *(flag(zone, f"{zone} is enemy-controlled") for zone in EGO_ZONES)),
                field("a Sprint bonus the acting observer holds", flag("sprint_bonus", "Sprint bonus pending")))

    def describe_observation(self, state: "BreathState", order: Sequence[int | None]) -> dict[str, Any]:
        """The game values of the zone fields for the observer whose slots are ``order``."""
        data = state.ext["zones"]
        observer = order[0]
        assert observer is not None  # the observer's slot is never empty
        me = state.fighters[observer]
        return {"zone": [None if seat is None else {"zone": EGO_ZONES[self.ego(state, me, data.zone[seat])]}
                         for seat in order],
                "zone_enemy_controlled": {EGO_ZONES[self.ego(state, me, zone)]: self.enemy_controlled(state, me, zone)
                                          for zone in range(len(EGO_ZONES))},
                "sprint_bonus": {"sprint_bonus": data.sprint[me.seat] and state.actor_seat == me.seat}}

    def write_observation(self, state: "BreathState", order: Sequence[int | None], out: MutableSequence[float]) -> None:
        """Fill the zone fields; everything here is visible at the table."""
        spec = state.ruleset.observation_spec
        data = state.ext["zones"]
        observer = order[0]
        assert observer is not None  # the observer's slot is never empty
        me = state.fighters[observer]
        base = spec.slice("zone").start
        for slot, seat in enumerate(order):
            if seat is not None:
                out[base + slot * len(EGO_ZONES) + self.ego(state, me, data.zone[seat])] = 1.0
        held = spec.slice("zone_enemy_controlled").start
        for zone in range(len(EGO_ZONES)):
            if self.enemy_controlled(state, me, zone):
                out[held + self.ego(state, me, zone)] = 1.0
        out[spec.slice("sprint_bonus").start] = float(data.sprint[me.seat] and state.actor_seat == me.seat)

    def render_line(self, state: "BreathState") -> str:
        """Who stands where, zone by zone along the line."""
        zones = state.ext["zones"].zone
        names = state.ruleset.seat_names
        parts = []
        for zone, zone_name in enumerate(ZONE_NAMES):
            here = [names[f.seat] for f in state.fighters if zones[f.seat] == zone and not f.defeated]
            parts.append(f"{zone_name}[{' '.join(here)}]")
        return "  zones: " + " ".join(parts)


__all__ = ["ADJACENT", "A_FRONT", "A_REAR", "B_FRONT", "B_REAR", "CORE", "DESTINATIONS", "DISTANCE", "EGO_ZONES", "ORDERS",
           "OUTSIDE", "ZONE_NAMES", "ZoneData", "ZonesModule"]
