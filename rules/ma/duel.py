"""The Ma and Blade duel: the pure duel pieces composed onto the breath engine as one ``BreathModule``.

The breath engine keeps the count, the breath, Energy, reservations, attacks and Wounds exactly as in
the canon (MA-001); :class:`MaModule` adds, through the engine's hooks only:

* orders: ``half_step:close|open`` (MA-011), ``aim:<attack slot>:<location>`` (MA-041), ``push_out``,
  ``slip_away``, ``empty_hand:<move>`` (MA-026, MA-027, MA-028), ``slip_counter:<attack slot>`` (MA-G06),
  ``pick_up`` (MA-G15), and the answers ``resist`` / ``yield`` of the ``resist`` decision (MA-G01);
* the range veto and modifiers (MA-022, MA-023, MA-024, MA-025), the step-in cut (MA-016), wounds and glare on checks;
* the guard track: [Direct 2] and the Critical window while broken, shaving after every attack
  (MA-030..MA-039); location injuries and bleeding (MA-042, MA-043, MA-044, MA-045, MA-046, MA-047); sparring points
  (MA-048);
* observation fields (``ma_*``) and a rendering line.

No zones module is loaded: the canon's zone maneuvers (walk, sprint, leap...) do not exist in a duel, the
half-step replaces them; stances and reservation remain (MA-G19). Footwork and Medicine are sheet skills 0–5 and
Wits is the canon 智, the "Wisdom" of seeds 002 and 004 (MA-G03, MA-A01). Sandbar's −1 falls on the initiator
only (MA-A06, resolved by MA-G21); the guard-break opening runs to the end of the following round (MA-A07,
resolved by MA-G12).

:func:`ma_duel` builds the configured ruleset. Gap decisions: ``docs/rules/ma.md``.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from issoku.rules.breath.content import Catalog, Technique
from issoku.rules.breath.costs import Modifier
from issoku.rules.breath.modules import BreathModule, Order, Pending
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset
from issoku.rules.kernel.encoding import FieldEncoding
from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.content import MaContent, default_content
from issoku.rules.ma.guard import THREATENED, GuardTrack, hit_shave
from issoku.rules.ma.halfstep import (
    HALF_STEP_COST,
    RESIST_COST,
    can_resist,
    contest_half_step,
    half_step_allowed,
    step_in_edge,
    take_half_step,
)
from issoku.rules.ma.ladder import CLOSER, OPENER, RUNG_NAMES, DuelKind, Ladder, Rung
from issoku.rules.ma.locations import LOCATION_COST, PICK_UP_COST, Injuries, Location, extra_wounds
from issoku.rules.ma.reach import RangeVerdict, WeaponReach, overpowers, range_table
from issoku.rules.ma.observe import (INJURY_COUNT, INJURY_FLAGS, STREAK_SCALE, Offsets, injury_flags,
                                     observation_encodings, observation_fields,
                                     render_line)
from issoku.rules.ma.sparring import POINTS_TO_WIN, SparringScore
from issoku.rules.ma.terrain import StageSetup, announce, setup_stage
from issoku.rules.ma.tsubazeriai import (
    EMPTY_HAND_COST,
    EMPTY_HAND_MOVES,
    PUSH_OUT_COST,
    SLIP_AWAY_COST,
    empty_hand_lands,
    push_out,
    slip_away,
)

if TYPE_CHECKING:
    from issoku.rules.breath.engine import Attack, BreathState
    from issoku.rules.breath.fighter import Fighter

# The module's names are Final, one a line: compiled, a Final is a constant or a C variable where any other module
# global is a dict lookup on each read (the legality checks read them on every decision).
HALF_STEP: Final = "half_step"
AIM: Final = "aim"
PICK_UP: Final = "pick_up"
"""The duel's order kinds, named once: a half-step (MA-011), an aimed attack (MA-041), picking a weapon up
(MA-G15)..."""
PUSH_OUT: Final = "push_out"
SLIP_AWAY: Final = "slip_away"
EMPTY_HAND: Final = "empty_hand"
"""... the ways out of tsubazeriai (MA-026, MA-027, MA-028)..."""
SLIP_COUNTER: Final = "slip_counter"
"""... the counter after a slip (MA-G06)..."""
RESIST: Final = "resist"
YIELD: Final = "yield"
"""... and the answers to a half-step; ``RESIST`` is also the duel's decision kind (MA-G01)."""
# Groups and orders of the kinds above, built once: the legality checks test membership in them.
_AIMED: Final = (AIM, SLIP_COUNTER)
_ANSWERS: Final = (RESIST, YIELD)
_RESIST_ORDER: Final = (RESIST,)
_YIELD_ORDER: Final = (YIELD,)
DIRECTIONS: Final = {"close": CLOSER, "open": OPENER}
BASE_COSTS: Final = {HALF_STEP: HALF_STEP_COST, PUSH_OUT: PUSH_OUT_COST, SLIP_AWAY: SLIP_AWAY_COST,
                     EMPTY_HAND: EMPTY_HAND_COST, PICK_UP: PICK_UP_COST}
"""Energy of the duel's own maneuvers before Rule 2 modifiers (MA-011, MA-G04, MA-G15)."""
LOCATIONS: Final = {location.value: location for location in Location}
"""A hit location by its name in an ``aim`` order (a dict lookup; calling the Enum by value is slow)."""
ORDER_RULES: Final = {HALF_STEP: "MA-011", AIM: "MA-041", SLIP_COUNTER: "MA-G06", PICK_UP: "MA-G15"}
"""The rule behind paying for each of the duel's maneuvers (MA-G04 for the tsubazeriai ones)."""
THREAT_MARGIN: Final = 2
"""A location attack that missed by at most this much threatened the location (MA-034, MA-G10)."""
UNARMED: Final = "unarmed"
"""The catalog weapon of a disarmed duelist (MA-G15) and of empty-hand moves (MA-G07)."""
DRAWN_DAGGER: Final = "tanto"
"""The weapon "drawing a dagger" readies (MA-G07)."""
ATTACK_SLOT_INDEX: Final = {f"attack_{chr(ord('a') + i)}": i for i in range(26)}
"""``aim`` and ``slip_counter`` name the weapon's attack by slot (Attack A, Attack B: BR-010), not by key,
so the action table stays small and one policy reads "Attack A at the wrist" the same with any weapon."""


def attack_slots(catalog: Catalog) -> list[str]:
    """``attack_a``, ``attack_b``, ... as many as the weapon with the most attack techniques has."""
    most = max(len(weapon.attacks) for weapon in catalog.weapons.values())
    return [f"attack_{chr(ord('a') + i)}" for i in range(most)]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class MaData:
    """The duel's per-fight state, kept at ``state.ext[module.name]``."""

    __slots__ = ("ladder", "guards", "injuries", "stage", "score", "first_contest", "step_in_from", "counter_owed")

    def __init__(self, ladder: Ladder, guards: list[GuardTrack], stage: StageSetup, sparring: bool) -> None:
        self.ladder = ladder
        self.guards = guards
        self.injuries = [Injuries(), Injuries()]
        self.stage = stage
        self.score = SparringScore() if sparring else None
        self.first_contest = True
        """No half-step contest has been rolled yet (high ground, MA-052)."""
        self.step_in_from = [-1, -1]
        """Per seat: the rung its closing half-step started from in the current breath, or −1 (MA-016)."""
        self.counter_owed = -1
        """The seat owed a slip-away counterattack in its current breath, or −1 (MA-G06)."""

    def clone(self) -> "MaData":
        """An independent copy."""
        twin = MaData.__new__(MaData)
        twin.ladder = self.ladder.clone()
        twin.guards = [g.clone() for g in self.guards]
        twin.injuries = [i.clone() for i in self.injuries]
        twin.stage = self.stage
        twin.score = self.score.clone() if self.score is not None else None
        twin.first_contest = self.first_contest
        twin.step_in_from = list(self.step_in_from)
        twin.counter_owed = self.counter_owed
        return twin


class MaModule(BreathModule):
    """Ma and Blade (000) as a breath-engine module (see the module docstring)."""

    order_kinds: ClassVar[tuple[str, ...]] = (HALF_STEP, AIM, PUSH_OUT, SLIP_AWAY, EMPTY_HAND, SLIP_COUNTER, PICK_UP,
                                              RESIST, YIELD)
    decision_kinds: ClassVar[tuple[str, ...]] = (RESIST,)

    def __init__(self, config: MaDuelConfig = MaDuelConfig(), content: MaContent | None = None) -> None:
        self.config = config
        self.content = content or default_content()
        self.stage = self.content.stage(config.stage) if config.stage is not None else None
        if config.stage_side not in (None, 0, 1):
            raise ValueError("stage_side must be seat 0, seat 1 or None")
        self.name = f"ma:{config.digest()}:{self.content.digest}"
        """The engine keys per-fight data and the fingerprint by name, so the name carries the options."""
        self._ranges: dict[str, tuple[RangeVerdict, ...]] = {}
        self._attack_rungs: dict[str, tuple[bool, ...]] = {}
        self._reaches: dict[str, WeaponReach] = {}
        self._costs: dict[tuple, tuple[int, list[Modifier]]] = {}
        self._legal: dict[tuple, frozenset[Order]] = {}
        self._orders: tuple[Order, ...] = ()
        self._offsets: Offsets | None = None

    # -- setup -----------------------------------------------------------------------------------
    def order_content(self, order: Order) -> tuple[str, ...]:
        """An aimed attack exercises its hit location (MA-040: ``location:torso``); other orders are themselves."""
        return (f"location:{order[2]}",) if order[0] == "aim" else ()

    def extra_orders(self, catalog: Catalog, max_targets: int) -> list[Order]:
        """The duel's maneuvers and answers, in a fixed order."""
        if max_targets != 1:
            raise ValueError("Ma and Blade is a 1:1 duel (MA-001): exactly one enemy per fighter")
        slots = attack_slots(catalog)
        orders: list[Order] = [(HALF_STEP, "close"), (HALF_STEP, "open")]
        if self.config.locations_offered:
            orders += [(AIM, slot, location.value) for slot in slots for location in Location]  # MA-G29
        orders += [(PUSH_OUT,), (SLIP_AWAY,)] + [(EMPTY_HAND, move) for move in EMPTY_HAND_MOVES]
        orders += [(SLIP_COUNTER, slot) for slot in slots]
        orders += [(PICK_UP,), (RESIST,), (YIELD,)]
        self._orders = tuple(orders)
        return orders

    def new_data(self, state: "BreathState") -> MaData:
        """The starting ma, full guards, the stage (a sided stage's side may come from the seed)."""
        stage = setup_stage(self.stage, self.config.stage_side, state.dice)
        ladder = Ladder.start(self.config.kind, stage.far_range_usable)
        guards = [GuardTrack.for_duelist(f.sheet.finesse, f.sheet.wits) for f in state.fighters]
        return MaData(ladder, guards, stage, self.config.mode is DuelMode.SPARRING)

    def data(self, state: "BreathState") -> MaData:
        """This duel's :class:`MaData` (the hooks read ``state.ext[self.name]`` themselves: they run on
        every decision, and a call per read adds up; each declares it ``MaData``, which compiled code then reads
        field by field directly, where an undeclared ``ext`` entry is read by name)."""
        return state.ext[self.name]

    def reach(self, weapon_key: str, catalog: Catalog) -> WeaponReach:
        """A weapon's ideal range (cached per ruleset)."""
        found = self._reaches.get(weapon_key)
        if found is None:
            found = self._reaches[weapon_key] = WeaponReach.of(catalog.weapons[weapon_key])
        return found

    def verdict(self, state: "BreathState", fighter: "Fighter") -> RangeVerdict:
        """The range verdict of ``fighter``'s weapon in hand at the current ma."""
        data: MaData = state.ext[self.name]
        return self._verdict(state, fighter.weapon.key, data.ladder.rung)

    def _verdict(self, state: "BreathState", weapon_key: str, rung: Rung) -> RangeVerdict:
        """The range verdict of a weapon at a rung: one lookup once the weapon's table is built."""
        table = self._ranges.get(weapon_key)
        if table is None:
            table = self._range_table(weapon_key, state)
        return table[rung]

    def _range_table(self, weapon_key: str, state: "BreathState") -> tuple[RangeVerdict, ...]:
        """A weapon's verdicts by rung, computed once per ruleset."""
        table = self._ranges.get(weapon_key)
        if table is None:
            reach = self.reach(weapon_key, state.ruleset.catalog)
            table = self._ranges[weapon_key] = range_table(reach, self.config.long_weapon_opening)
        return table

    def _can_attack(self, state: "BreathState", weapon_key: str) -> tuple[bool, ...]:
        """Whether a weapon may make an ordinary attack, by rung (its range table's ``can_attack``, kept as a
        tuple of bools: every observation reads it for both fighters)."""
        found = self._attack_rungs.get(weapon_key)
        if found is None:
            found = self._attack_rungs[weapon_key] = tuple(
                verdict.can_attack for verdict in self._range_table(weapon_key, state))
        return found

    # -- orders ------------------------------------------------------------------------------------
    def _cost(self, state: "BreathState", fighter: "Fighter", order: Order) -> tuple[Technique | None, int, list[Modifier]]:
        """An order's technique, final Energy and named modifiers (Rule 2 through the engine's ``cost_of``).

        The price depends only on the seat's sheet, the weapon in hand, a leg wound and the Core Zone
        flag, so it is cached on those: the legal mask asks for it on every decision.
        """
        kind = order[0]
        technique: Technique | None
        if kind in _AIMED:
            technique = aimed = fighter.weapon.attacks[ATTACK_SLOT_INDEX[order[1]]]
            base = aimed.cost
        else:
            technique, base = None, BASE_COSTS[kind]
        data: MaData = state.ext[self.name]
        key = (fighter.seat, fighter.weapon.key, order, data.injuries[fighter.seat].leg, fighter.in_core)
        priced = self._costs.get(key)
        if priced is None:
            priced = self._costs[key] = state.cost_of(fighter, technique, order, base)
        return technique, priced[0], priced[1]

    def legal_key(self, state: "BreathState", fighter: "Fighter") -> tuple:
        """The range verdicts and the duel's orders read the rung (the stage's farthest rung is fixed per
        ruleset), a leg wound prices half-steps, disarmed and an owed counter open orders."""
        data: MaData = state.ext[self.name]
        injuries = data.injuries[fighter.seat]
        return data.ladder.rung, injuries.leg, injuries.disarmed, data.counter_owed == fighter.seat

    def order_legal(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """Whether ``fighter`` may play one of the duel's maneuvers now."""
        return order in self.legal_orders(state, fighter, self._orders)

    def legal_orders(self, state: "BreathState", fighter: "Fighter", orders: Sequence[Order]) -> frozenset[Order]:
        """All the duel's maneuvers ``fighter`` may play now (``orders`` are some of them).

        Legality depends only on the situation key below, so the legal set is computed once per
        situation and looked up on every later decision.
        """
        data: MaData = state.ext[self.name]
        seat = fighter.seat
        injuries = data.injuries[seat]
        key = (seat, fighter.energy, fighter.weapon.key, data.ladder.rung, injuries.leg, injuries.disarmed,
               data.counter_owed == seat, fighter.in_core)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = frozenset(o for o in self._orders if self._order_allowed(state, fighter, o))
        return legal

    def _order_allowed(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        kind = order[0]
        if kind in _ANSWERS:
            return False
        data: MaData = state.ext[self.name]
        rung = data.ladder.rung
        if kind in _AIMED:
            if ATTACK_SLOT_INDEX[order[1]] >= len(fighter.weapon.attacks) or not self.verdict(state, fighter).can_attack:
                return False
            if kind == SLIP_COUNTER and data.counter_owed != fighter.seat:
                return False
        elif kind == HALF_STEP:
            if not half_step_allowed(data.ladder, DIRECTIONS[order[1]]):
                return False
        elif kind == PICK_UP:
            if not (data.injuries[fighter.seat].disarmed and Injuries.can_pick_up(rung)):
                return False
        elif rung is not Rung.TSUBAZERIAI:
            return False
        return self._cost(state, fighter, order)[1] <= fighter.energy

    def cost_modifiers(self, state: "BreathState", fighter: "Fighter", technique: Technique | None,
                       order: Order) -> list[Modifier]:
        """A location designation +1 (MA-041); a leg wound +1 per half-step (MA-044)."""
        kind = order[0]
        if kind == AIM:
            return [("hit_location", LOCATION_COST)]
        if kind == HALF_STEP:
            extra = state.ext[self.name].injuries[fighter.seat].half_step_extra()
            return [("leg_wound", extra)] if extra else []
        return []

    def apply_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> None:
        """Carry out one of the duel's maneuvers in ``fighter``'s breath."""
        kind = order[0]
        technique, cost, modifiers = self._cost(state, fighter, order)
        count = fighter.energy
        what = ":".join(str(part) for part in order) if state.events.enabled else ""  # only the log reads it
        state.pay(fighter, cost, ORDER_RULES.get(kind, "MA-G04"), what, modifiers)
        data: MaData = state.ext[self.name]
        target = state.target_in_slot(fighter, 0)
        assert target is not None  # a duel: the one opponent holds slot 0
        if kind == HALF_STEP:
            self._half_step(state, fighter, target, DIRECTIONS[order[1]], count)
        elif kind == AIM:
            assert technique is not None  # an aimed attack's or a slip counter's technique (its ``_cost``)
            state.declare_attack(fighter, target, technique, extra={"location": LOCATIONS[order[2]]})
        elif kind == SLIP_COUNTER:
            assert technique is not None
            data.counter_owed = -1
            state.declare_attack(fighter, target, technique, reserved_only=True,      # MA-G06, MA-G27
                                 extra={"slip_counter": True})
        elif kind == PICK_UP:
            fighter.weapon = fighter.sheet.weapon
            data.injuries[fighter.seat].pick_up(state.events, fighter.seat)
        elif kind == EMPTY_HAND:
            self._empty_hand(state, fighter, target, order[1])
        else:
            self._break_lock(state, fighter, kind)

    def _half_step(self, state: "BreathState", mover: "Fighter", opponent: "Fighter", direction: int,
                   count: int) -> None:
        """Offer the opponent the resist decision (MA-G01), or move at once if it cannot resist.

        Distance initiative compares the mover's Energy when it stepped (``count``, before paying) with
        the opponent's Energy before resisting (MA-012, MA-014).
        """
        data: MaData = state.ext[self.name]
        start = data.ladder.rung
        if not opponent.defeated and can_resist(opponent.energy):
            state.push(Pending(RESIST, opponent.seat, (mover.seat, direction, count, int(start)), self))
            return
        after = take_half_step(data.ladder, mover.seat, direction, data.guards[mover.seat], state.events, state.round)
        self._moved(state, mover, direction, start, after)

    def _moved(self, state: "BreathState", mover: "Fighter", direction: int, start: Rung, after: Rung) -> None:
        """Book-keeping after the ma moved by ``mover``'s half-step: closing is a step-in (MA-016) and
        counts as closing in on the opponent for the spear wall (BR-G14)."""
        if direction == CLOSER and after != start:
            mover.closed_this_round = True
            state.ext[self.name].step_in_from[mover.seat] = int(start)

    def pending_legal(self, state: "BreathState", pending: Pending, order: Order) -> bool:
        """``resist`` needs 1 Energy left (MA-G01); ``yield`` is always possible."""
        if order == _YIELD_ORDER:
            return True
        return order == _RESIST_ORDER and can_resist(state.fighters[pending.seat].energy)

    def resolve_pending(self, state: "BreathState", pending: Pending, order: Order) -> None:
        """Answer a half-step: yield (the ma moves) or resist (the MA-013 contest)."""
        mover_seat, direction, mover_energy, start = pending.context
        data: MaData = state.ext[self.name]
        mover, resister = state.fighters[mover_seat], state.fighters[pending.seat]
        if order == _YIELD_ORDER:
            state.emit("MA-010", "yield", resister.seat, direction=direction)
            after = take_half_step(data.ladder, mover_seat, direction, data.guards[mover_seat], state.events,
                                   state.round)
            self._moved(state, mover, direction, Rung(start), after)
            return
        energy = [0, 0]
        energy[mover_seat], energy[resister.seat] = mover_energy, resister.energy
        state.pay(resister, RESIST_COST, "MA-G01", "resist", in_breath=False)
        fighters = state.fighters  # a duel: two fighters, by seat (MA-001)
        modifiers = (self._contest_parts(state, fighters[0], mover_seat),
                     self._contest_parts(state, fighters[1], mover_seat))
        data.first_contest = False
        outcome = contest_half_step(state.dice, state.events, data.ladder, mover_seat, direction, modifiers,
                                    (energy[0], energy[1]), (data.injuries[0].leg, data.injuries[1].leg), (data.guards[0], data.guards[1]),
                                    state.round)
        if outcome.moved:
            self._moved(state, mover, direction, Rung(start), outcome.rung)

    def check_modifiers(self, state: "BreathState", fighter: "Fighter") -> list[Modifier]:
        """What every check of ``fighter`` carries: a face wound (MA-046) and glare (MA-053, MA-G21); the
        engine adds them to attack checks, defense rolls and the overload check, the duel's contests here."""
        data: MaData = state.ext[self.name]
        seat = fighter.seat
        parts: list[Modifier] = data.injuries[seat].check_modifiers()
        glare = data.stage.check_modifier(seat)
        if glare:
            parts.append(("glare", glare))
        return parts

    def _contest_parts(self, state: "BreathState", fighter: "Fighter", initiator: int) -> tuple[Modifier, ...]:
        """2d10 + Finesse + Footwork (MA-013), with injuries, glare and terrain (MA-050, MA-052)."""
        data: MaData = state.ext[self.name]
        seat = fighter.seat
        parts: tuple[Modifier, ...] = (("finesse", fighter.sheet.finesse), ("footwork", fighter.sheet.skill("footwork")))
        terrain = data.stage.contest_bonus(seat, initiator, data.first_contest)
        if terrain:
            stage = data.stage.stage
            assert stage is not None  # only a stage gives a terrain bonus
            parts += ((stage.name, terrain),)
        return parts + tuple(state.check_modifiers(fighter))

    def _break_lock(self, state: "BreathState", fighter: "Fighter", kind: str) -> None:
        """Push-out (2d10 + Physique) or slip-away (2d10 + Finesse) out of tsubazeriai (MA-026, MA-027)."""
        data: MaData = state.ext[self.name]
        attribute = "physique" if kind == PUSH_OUT else "finesse"
        fighters = state.fighters  # a duel: two fighters, by seat (MA-001)
        modifiers = (((attribute, getattr(fighters[0].sheet, attribute)), *state.check_modifiers(fighters[0])),
                     ((attribute, getattr(fighters[1].sheet, attribute)), *state.check_modifiers(fighters[1])))
        contest = push_out if kind == PUSH_OUT else slip_away
        outcome = contest(state.dice, state.events, data.ladder, fighter.seat, modifiers, (data.guards[0], data.guards[1]),
                          state.round)
        if outcome.counterattack:
            data.counter_owed = fighter.seat

    def _empty_hand(self, state: "BreathState", fighter: "Fighter", target: "Fighter", move: str) -> None:
        """An empty-hand move is an Unarmed Combat attack check with no range penalty (MA-028, MA-G07)."""
        strike = state.ruleset.catalog.weapons[UNARMED].attacks[0]
        state.declare_attack(fighter, target, strike, extra={"empty_hand": move})
        if move == "draw_dagger" and not fighter.defeated:
            fighter.weapon = state.ruleset.catalog.weapons[DRAWN_DAGGER]              # MA-G32: for the duel
            state.emit("MA-G07", "weapon_readied", fighter.seat, weapon=DRAWN_DAGGER)

    # -- the rules' arithmetic -------------------------------------------------------------------
    def attack_allowed(self, state: "BreathState", attacker: "Fighter", target: "Fighter",
                       technique: Technique) -> bool:
        """No ordinary attack two rungs off the ideal range, in close fighting with a long weapon, or in
        tsubazeriai (MA-022, MA-024, MA-025)."""
        return self.verdict(state, attacker).can_attack

    def attack_modifiers(self, state: "BreathState", attack: "Attack") -> list[Modifier]:
        """Range (MA-022), wrist and arm wounds (MA-042/MA-043), the step-in edge (MA-016); a face wound and
        glare come through :meth:`check_modifiers`, as on every check."""
        data: MaData = state.ext[self.name]
        attacker = attack.attacker
        seat = attacker.seat
        modifiers: list[Modifier] = []
        empty_hand = "empty_hand" in attack.extra
        if empty_hand:
            skill_gap = attacker.sheet.skill("unarmed_combat") - attacker.sheet.skill(attacker.weapon.skill)
            if skill_gap:
                modifiers.append(("unarmed_combat", skill_gap))
        else:
            verdict = self._verdict(state, attacker.weapon.key, data.ladder.rung)
            if verdict.modifier:
                modifiers.append(("ma_range", verdict.modifier))
        modifiers += data.injuries[seat].attack_modifiers(with_weapon=attacker.weapon.key != UNARMED and not empty_hand)
        start = data.step_in_from[seat]
        if start >= 0 and not attack.counter:
            data.step_in_from[seat] = -1
            edge = step_in_edge(Rung(start), self.config.step_in_edge)
            state.emit("MA-016", "step_in_cut", seat, started=start, edge=edge)
            if edge:
                modifiers.append(("step_in_edge", edge))
        return modifiers

    def defense_modifiers(self, state: "BreathState", attack: "Attack") -> tuple[int, int]:
        """[Direct 2] against a broken guard (MA-037); the longer weapon strips the shorter one's stance (MA-023;
        MA-G26: the stance Defense bonus is all there is to strip)."""
        data: MaData = state.ext[self.name]
        target = attack.target
        bonus = 0
        stance = target.stance
        if stance is not None and stance.defense_bonus > 0:
            catalog = state.ruleset.catalog
            if overpowers(self.reach(attack.attacker.weapon.key, catalog), self.reach(target.weapon.key, catalog),
                          data.ladder.rung):
                bonus = -stance.defense_bonus
                state.emit("MA-023", "overpowered", target.seat, stance=stance.key, defense_lost=stance.defense_bonus)
        return bonus, data.guards[target.seat].direct(state.round)

    def forces_critical(self, state: "BreathState", attack: "Attack") -> bool:
        """The guard-break window: the first hit in the opening is a Critical without doubles (MA-037)."""
        data: MaData = state.ext[self.name]
        guard = data.guards[attack.target.seat]
        return "empty_hand" not in attack.extra and guard.window and guard.is_open(state.round)

    def hit_wounds(self, state: "BreathState", attack: "Attack", wounds: int) -> int:
        """Sparring and empty-hand moves remove none (MA-048, MA-G07); a torso hit one more (MA-045)."""
        if self.config.mode is DuelMode.SPARRING or "empty_hand" in attack.extra:
            return 0
        return wounds + extra_wounds(attack.extra.get("location"))

    def after_attack(self, state: "BreathState", attack: "Attack", hit: bool) -> None:
        """Shave the guard, apply the location, score the strike."""
        data: MaData = state.ext[self.name]
        target = attack.target
        seat = target.seat
        guard = data.guards[seat]
        location = attack.extra.get("location")
        if not hit:
            if location is not None and attack.total >= attack.defense - THREAT_MARGIN:
                guard.shave(THREATENED, state.events, seat, state.round)
            return
        move = attack.extra.get("empty_hand")
        if move is not None:
            empty_hand_lands(move, guard, state.events, attack.attacker.seat, state.round)
            return
        if attack.critical:
            guard.take_window(state.events, seat, state.round)
        wounds = attack.technique.damage + extra_wounds(location)
        guard.shave(hit_shave(wounds, attack.critical), state.events, seat, state.round)
        if data.score is not None:
            data.score.strike(attack.attacker.seat, attack.critical, state.events)
        elif location is not None:
            injuries = data.injuries[seat]
            was_disarmed = injuries.disarmed
            injuries.take_hit(location, state.dice, state.events, seat,
                              target.sheet.physique + sum(d for _, d in state.check_modifiers(target)))
            if injuries.disarmed and not was_disarmed:
                target.weapon = state.ruleset.catalog.weapons[UNARMED]

    def is_defeated(self, state: "BreathState", fighter: "Fighter") -> bool:
        """In sparring, the opponent reaching the winning score ends it (MA-G14)."""
        data: MaData = state.ext[self.name]
        score = data.score
        return score is not None and score.winner() not in (None, fighter.seat)

    # -- the timeline ----------------------------------------------------------------------------
    def on_round_start(self, state: "BreathState") -> None:
        """Announce the duel's setup in round 1 (only the log reads it)."""
        if state.round != 1 or not state.events.enabled:
            return
        data: MaData = state.ext[self.name]
        if self.config.kind is DuelKind.IKKIUCHI:
            rule = "MA-008"
        else:
            rule = "MA-009" if data.ladder.rung is Rung.FAR else "MA-051"
        state.emit(rule, "ma_start", None, duel=self.config.kind.value, rung=RUNG_NAMES[data.ladder.rung])
        for seat, guard in enumerate(data.guards):
            state.emit("MA-031", "guard_max", seat, guard=guard.maximum)
        announce(data.stage, state.events)

    def on_breath_start(self, state: "BreathState", fighter: "Fighter") -> None:
        """A step-in and a slip-away counterattack live only within the breath that earned them."""
        data: MaData = state.ext[self.name]
        data.step_in_from[fighter.seat] = -1
        data.counter_owed = -1

    def on_lull(self, state: "BreathState") -> None:
        """Bleeding (MA-045, MA-G17), then each duelist catches its breath (MA-038, MA-G13)."""
        data: MaData = state.ext[self.name]
        in_lock = data.ladder.rung is Rung.TSUBAZERIAI
        for f in state.fighters:
            if f.defeated:
                continue
            injuries = data.injuries[f.seat]
            if injuries.bleeding:
                on_all = sum(d for _, d in state.check_modifiers(f))
                lost = injuries.bleed(state.dice, state.events, f.seat, f.sheet.physique + on_all,
                                      f.sheet.wits + on_all, f.sheet.skill("medicine"))
                f.wounds -= lost
                state.check_defeat(f)
            data.guards[f.seat].lull(in_lock, state.events, f.seat)

    # -- observation and rendering ---------------------------------------------------------------
    def observation_fields(self, num_fighters: int) -> Sequence[tuple[str, int, float, float]]:
        """The ``ma_*`` fields (``observe.py``)."""
        return observation_fields(num_fighters)

    def observation_encodings(self, slots: Sequence[str]) -> Sequence[FieldEncoding]:
        """What fills the ``ma_*`` fields (``observe.py``)."""
        return observation_encodings(slots)

    def describe_observation(self, state: "BreathState", order: Sequence[int | None]) -> dict[str, Any]:
        """The game values of the ``ma_*`` fields, read from the duel's data (what ``write_observation`` encodes)."""
        data = self.data(state)
        seats = [seat for seat in order if seat is not None]  # a duel: never a padded slot
        stack = state.stack
        half_step = stack[-1].context[1] if stack and stack[-1].owner is self else None
        me = seats[0]
        return {
            "ma_rung": {"rung": RUNG_NAMES[data.ladder.rung]},
            "ma_can_attack": [{"can_attack": self._can_attack(state, state.fighters[seat].weapon.key)[data.ladder.rung]}
                              for seat in seats],
            "ma_guard": [{"guard": [data.guards[seat].value, data.guards[seat].maximum]} for seat in seats],
            "ma_guard_open": [{"guard_open": data.guards[seat].is_open(state.round)} for seat in seats],
            "ma_window": [{"window": data.guards[seat].is_open(state.round) and data.guards[seat].window}
                          for seat in seats],
            "ma_injuries": [dict(zip(INJURY_FLAGS, injury_flags(data.injuries[seat]))) for seat in seats],
            "ma_points": [{"points": 0 if data.score is None else data.score.points[seat]} for seat in seats],
            "ma_loss_streak": [{"loss_streak": data.guards[seat].loss_streak} for seat in seats],
            "ma_stage_side": [{"stage_side": data.stage.side == seat} for seat in seats],
            "ma_step_in": {"step_in": data.step_in_from[me] >= 0},
            "ma_counter_owed": {"counter_owed": data.counter_owed == me},
            "ma_first_contest": {"first_contest": data.first_contest},
            "ma_half_step_declared": {"half_step": None if half_step is None else
                                      ("close" if half_step == CLOSER else "open")},
        }

    # ``order`` narrower than the module protocol's (whose empty skirmish slots are None): a duel's two slots are
    # both filled, and the hot loop below indexes by them unchecked.
    def write_observation(self, state: "BreathState", order: Sequence[int],  # type: ignore[override]
                          out: MutableSequence[float]) -> None:
        """Fill the ``ma_*`` fields of ``out`` (the observation being built, zeros where unwritten), ego first.

        Runs on every env step, so it is one function (no second call with the pieces): flags are
        written only when set, whether each weapon may attack at the rung is one lookup in a tuple of
        bools per weapon, and the guard's opening is read as ``GuardTrack.is_open`` reads it."""
        at = self._offsets
        if at is None:  # the module belongs to one ruleset, so to one observation layout
            at = self._offsets = Offsets(state.ruleset.observation_spec)
        data: MaData = state.ext[self.name]  # declared: compiled, the duel's fields are then read directly
        rung = data.ladder.rung
        rungs = self._attack_rungs
        fighters = state.fighters  # a duel: two fighters (MA-001, ``ma_duel``), by seat
        out[at.rung + rung] = 1.0
        guards, injuries, score, stage_side, round_no = (data.guards, data.injuries, data.score, data.stage.side,
                                                         state.round)
        can, guard_at, open_at, window_at = at.can_attack, at.guard, at.guard_open, at.window
        slot = -1
        for seat in order:
            slot += 1
            guard = guards[seat]
            weapon_key = fighters[seat].weapon.key
            try:  # a subscript, not ``rungs.get``: a method call costs more than the lookup
                can_attack = rungs[weapon_key]
            except KeyError:  # a weapon's first observation
                can_attack = self._can_attack(state, weapon_key)
            if can_attack[rung]:
                out[can + slot] = 1.0
            out[guard_at + slot] = guard.value / guard.maximum
            if round_no <= guard.open_through_round:  # guard.is_open(round_no)
                out[open_at + slot] = 1.0
                if guard.window:
                    out[window_at + slot] = 1.0
            hurt = injuries[seat]
            if hurt.wrist or hurt.arm or hurt.leg or hurt.face or hurt.bleeding or hurt.disarmed:  # rarely any
                base = at.injuries + slot * INJURY_COUNT
                for i, flag in enumerate(injury_flags(hurt)):
                    if flag:
                        out[base + i] = 1.0
            if score is not None:
                q = score.points[seat] / POINTS_TO_WIN
                out[at.points + slot] = q if q < 1.0 else 1.0
            if guard.loss_streak:
                q = guard.loss_streak / STREAK_SCALE
                out[at.loss_streak + slot] = q if q < 1.0 else 1.0
            if stage_side == seat:
                out[at.stage_side + slot] = 1.0
        me = order[0]
        if data.step_in_from[me] >= 0:
            out[at.step_in] = 1.0
        if data.counter_owed == me:
            out[at.counter_owed] = 1.0
        if data.first_contest:
            out[at.first_contest] = 1.0
        stack = state.stack
        if stack and stack[-1].owner is self:  # a half-step waiting for its answer
            out[at.half_step_declared + (0 if stack[-1].context[1] == CLOSER else 1)] = 1.0

    def render_line(self, state: "BreathState") -> str:
        """The ladder with both fighters, the guards, injuries, points and stage (``observe.render_line``)."""
        return render_line(self.data(state), state.round, state.ruleset.seat_names)


def ma_duel(config: MaDuelConfig = MaDuelConfig(), breath: BreathConfig = BreathConfig(), *,
            data: Sequence[str] | str | None = None, content: MaContent | None = None,
            more_modules: Sequence[BreathModule] = ()) -> BreathRuleset:
    """The Ma and Blade duel ruleset: the breath engine with :class:`MaModule` (1:1 only, MA-001), then
    ``more_modules`` (spells)."""
    if len(breath.fighters) != 2:
        raise ValueError("Ma and Blade is a 1:1 duel (MA-001): give exactly two fighters")
    return BreathRuleset(breath, data=data, modules=(MaModule(config, content), *more_modules), name="ma_duel")


__all__ = ["MaData", "MaDuelConfig", "MaModule", "ma_duel"]
