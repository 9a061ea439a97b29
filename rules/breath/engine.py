"""The breath fight in play: the count timeline, one breath at a time, attacks, reactions, the lull.

:class:`BreathState` implements the kernel's ``GameState`` protocol. Every decision is one ``apply``:

* ``breath`` — the fighter whose count it is plays one maneuver (attack, reserve, stance, [Kata], a
  module's maneuver), or ends its breath, or *stands* (BR-G09);
* ``defend`` — a fighter whose Defense an attack check met answers it: trigger a reservation (0 Energy,
  BR-019), improvise a defense technique at 1.5× (BR-020), or take the hit (BR-G03/BR-G08);
* ``counter`` — a fighter in the samurai guard stance whom an attack missed may counter at 0 Energy
  (BR-050, BR-G14);
* the decision kinds of modules (``resist`` under Ma and Blade).

Decisions that interrupt a breath wait on a small stack (``push``), so a counter to a counter resolves
in order and the breath resumes when the stack is empty. Rule IDs in the event log name the rule (or
our gap decision, ``BR-Gnn``) behind every number; ``docs/rules/breath.md`` records the decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr
import numpy as np

from issoku.rules.breath.content import Kata, Stance, Technique
from issoku.rules.breath.costs import (
    OVERLOAD_TN,
    OVERLOADED_LIMIT,
    Modifier,
    breath_limit,
    combo_fatigue,
    final_cost,
    improvised_base,
    speed_expansion,
)
from issoku.rules.breath.fighter import Fighter
from issoku.rules.breath.kinds import (ATTACK, ATTACK_TECHNIQUE, BREATH, COUNTER, DECLINE_COUNTER, DEFEND, END_BREATH,
                                        IMPROVISE, KATA, NOT_MANEUVERS, RELEASE_STANCE, RESERVE, STANCE, STAND,
                                        TAKE_HIT, USE_RESERVED)
from issoku.rules.breath.modules import BreathModule, Order, Pending
from issoku.rules.breath.observe import describe, encode
from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import EventLog
from issoku.rules.kernel.protocol import IllegalActionError

if TYPE_CHECKING:  # the ruleset builds its states from this module (BreathRuleset.new_initial_state)
    from issoku.rules.breath.ruleset import ActionSlot, BreathRuleset

CRITICAL_WOUNDS = 2
"""BR-G05: a Critical removes 2 Wounds (or the technique's damage, if higher)."""
UNARMORED_DEFENSE = 10
"""BR-G02: [Direct N] strips armor and stance Defense above this."""
# Groups and orders of the breath kinds, built once: the hot path tests membership in them.
_TECHNIQUE_ORDERS = (ATTACK, RESERVE)
_OWNED_ORDERS = (STANCE, KATA)
_TAKE_HIT_ORDER = (TAKE_HIT,)
_DECLINE_COUNTER_ORDER = (DECLINE_COUNTER,)
_ENGINE_MANEUVERS = frozenset({ATTACK, RESERVE, STANCE, RELEASE_STANCE, KATA, END_BREATH, STAND})
"""The breath maneuvers the engine itself prices and checks (:meth:`BreathState._maneuver_need`); the
only kinds among a fighter's core breath candidates (``BreathRuleset.breath_candidates``)."""
_NO_ENERGY_NEEDED = -(1 << 62)
"""The need of a maneuver legal at any Energy (below every count)."""
_PRICES = "prices"
"""First item of a price-list key in the legal memo (``BreathState._priced_breath_legal``)."""


class Attack:
    """One attack check in flight: who, with what, the roll, and what the target's Defense was."""

    __slots__ = ("attacker", "target", "technique", "dice", "modifiers", "total", "defense", "critical",
                 "counter", "extra", "reserved_only", "defense_legal")

    def __init__(self, attacker: Fighter, target: Fighter, technique: Technique, counter: bool,
                 extra: dict[str, Any] | None, reserved_only: bool = False) -> None:
        self.attacker = attacker
        self.target = target
        self.technique = technique
        self.dice: tuple[int, ...] = ()
        self.modifiers: list[Modifier] = []
        self.total = 0
        self.defense = 0
        self.critical = False
        self.defense_legal: tuple[int, ...] | None = None  # the target's answers, once the attack waits on them
        self.counter = counter
        self.extra: dict[str, Any] = extra or {}
        """Module data riding on this attack (a Ma-and-Blade hit location...)."""
        self.reserved_only = reserved_only
        """Only a reserved defense may meet it, no improvising (a module's rule: the slip-away counter, MA-G06)."""


def technique_cost_modifiers(fighter: Fighter, technique: Technique, improvised: bool = False) -> list[Modifier]:
    """The breath canon's own cost modifiers for a weapon technique (Rule 2, Rule 4, zones).

    Core Zone: long weapons +1 (BR-056), Seal of Shura −1 on melee attacks and on improvised defense
    (BR-053, BR-A09). A short weapon's Core Zone bonus never changes a cost: it only eases Combo Fatigue
    (BR-051, our reading BR-A12 of BR-033 against Rule 4). Takenouchi-ryu license −1 on spear
    techniques (BR-058). A discount never reaches a maneuver class it does not name (BR-046).
    """
    modifiers: list[Modifier] = []
    weapon = fighter.weapon
    traits = fighter.sheet.traits
    if fighter.in_core:
        if weapon.weapon_class == "long":
            modifiers.append(("core_zone_long", 1))
        if "seal_of_shura" in traits and weapon.weapon_class != "ranged" and (
                technique.kind == ATTACK_TECHNIQUE or improvised):
            modifiers.append(("seal_of_shura", -1))
    if "takenouchi_license" in traits and weapon.skill == "spearmanship":
        modifiers.append(("takenouchi_license", -1))
    return modifiers


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class BreathState:
    """One breath fight in progress (see the module docstring)."""

    __slots__ = ("ruleset", "events", "dice", "fighters", "round", "actor_seat", "stack", "ext", "_over",
                 "_truncated", "_winner_side", "_legal_cache", "_defeated")
    # The slots' types, for the type checker (a slotted class assigns them in ``initial`` and ``clone``).
    ruleset: BreathRuleset
    events: EventLog
    dice: Dice
    fighters: list[Fighter]
    round: int
    actor_seat: int | None
    stack: list[Pending]
    ext: dict[str, Any]
    _over: bool
    _truncated: bool
    _winner_side: int | None
    _legal_cache: list[int] | tuple[int, ...] | None
    _defeated: tuple[int, ...]

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def initial(cls, ruleset: BreathRuleset, seed: int | None, *, record_events: bool = True,
                dice: Dice | None = None) -> "BreathState":
        """Round 1 begins; ``dice`` may be scripted (worked-example tests)."""
        state = BreathState.__new__(cls)  # not cls.__new__: mypyc (2.4) fails to compile that form
        state.ruleset = ruleset
        state.events = EventLog(enabled=record_events)
        state.dice = dice if dice is not None else Dice(np.random.default_rng(seed))
        state.fighters = [Fighter(seat, sheet) for seat, sheet in enumerate(ruleset.sheets)]
        state.round = 0
        state.actor_seat = None
        state.stack = []
        state._over = False
        state._truncated = False
        state._winner_side = None
        state._legal_cache = None
        state._defeated = ()  # the seats defeated so far, ascending (the end check and situation keys read it)
        state.ext = {module.name: module.new_data(state) for module in ruleset.modules}
        if record_events:
            state.emit("BR-G19", "fight_start", None, seed=seed, fighters=tuple(
                (f.sheet.name, f.side, f.weapon.key, f.sheet.armor.key) for f in state.fighters))
        state._start_round()
        state._settle()
        return state

    def clone(self) -> "BreathState":
        """An independent copy, dice included."""
        copy = BreathState.__new__(BreathState)
        copy.ruleset = self.ruleset
        copy.events = self.events.clone()
        copy.dice = self.dice.clone()
        copy.fighters = [f.clone() for f in self.fighters]
        remap = {id(old): new for old, new in zip(self.fighters, copy.fighters)}
        copy.round = self.round
        copy.actor_seat = self.actor_seat
        copy.stack = [Pending(p.kind, p.seat, _remap_context(p.context, remap), p.owner) for p in self.stack]
        copy.ext = {name: (data.clone() if data is not None else None) for name, data in self.ext.items()}
        copy._over = self._over
        copy._truncated = self._truncated
        copy._winner_side = self._winner_side
        copy._legal_cache = self._legal_cache
        copy._defeated = self._defeated
        return copy

    # -- the kernel protocol -------------------------------------------------------------------------
    def current_seat(self) -> int | None:
        """The seat whose decision it is (None once over)."""
        if self._over:
            return None
        return self.stack[-1].seat if self.stack else self.actor_seat

    def decision_kind(self) -> str:
        """``breath`` unless an interrupting decision waits on the stack."""
        return self.stack[-1].kind if self.stack else BREATH

    def is_over(self) -> bool:
        """Terminal or truncated."""
        return self._over

    def is_terminal(self) -> bool:
        """A side has won (BR-G20)."""
        return self._over and not self._truncated

    def is_truncated(self) -> bool:
        """The round limit ended an undecided fight (BR-G20)."""
        return self._truncated

    def is_eliminated(self, seat: int) -> bool:
        """The fighter is defeated."""
        return self.fighters[seat].defeated

    def returns(self) -> tuple[float, ...]:
        """+1 to the winning side's seats, −1 to the others; 0 for all while undecided or drawn."""
        if self._winner_side is None:
            return tuple(0.0 for _ in self.fighters)
        return tuple(1.0 if f.side == self._winner_side else -1.0 for f in self.fighters)

    def winner_side(self) -> int | None:
        """The side that won, or None."""
        return self._winner_side

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` sees (``observe.encode``). A method, not ``observation = encode`` in the class body,
        which saved a call in Python: a compiled class cannot bind a module function as its method."""
        return encode(self, seat)

    def describe_observation(self, seat: int) -> dict[str, Any]:
        """The game values ``observation(seat)`` is made of (``observe.describe``), for an export's golden vectors."""
        return describe(self, seat)

    def action_cost(self, action: int) -> str | None:
        """What ``action`` costs the fighter deciding now (the optional menu hook, for a person choosing): the
        Energy the engine would charge (Rule 2 with every modifier, BR-020's 1.5x for an improvised defense);
        None for an action the rules give no price (ending a breath, a module's order, taking the hit)."""
        seat = self.current_seat()
        if seat is None:
            return None
        f, slot = self.fighters[seat], self.ruleset.slots[action]
        technique = slot.technique
        if slot.kind in _TECHNIQUE_ORDERS or slot.kind == IMPROVISE:
            assert technique is not None  # a technique order's slot carries its technique
            cost = self.cost_of(f, technique, slot.order, technique.cost, improvised=slot.kind == IMPROVISE)[0]
        elif slot.kind == USE_RESERVED:
            cost = 0  # paid when reserved (BR-018)
        elif slot.kind in _OWNED_ORDERS:
            assert slot.key is not None  # a stance or [Kata] order names its stance or [Kata]
            owned: Stance | Kata | None = (self.ruleset.own_stances if slot.kind == STANCE
                                           else self.ruleset.own_katas)[seat].get(slot.key)
            if owned is None:
                return None
            free = owned.cost == 0 if isinstance(owned, Stance) else owned.zero_energy
            cost = 0 if free else self.cost_of(f, None, slot.order, owned.cost)[0]
        else:
            return None
        return f"{cost} Energy"

    def render_text(self) -> str:
        """The text rendering the env's ``render_mode="ansi"`` shows."""
        from issoku.rules.breath.observe import render_text

        return render_text(self)

    def legal_actions(self) -> list[int]:
        """Legal flat actions for the current seat, ascending."""
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal() if not self._over else []
        return list(self._legal_cache)

    def apply(self, action: int) -> None:
        """Play ``action`` for the current seat."""
        legal = self._legal_cache if self._legal_cache is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(action, legal, self.ruleset.action_names,
                                     None if self._over else self.decision_kind())
        slot = self.ruleset.slots[action]
        if self.stack:
            pending = self.stack.pop()
            if pending.owner is not None:
                pending.owner.resolve_pending(self, pending, slot.order)
            elif pending.kind == DEFEND:
                self._resolve_defense(pending.context, slot)
            else:
                self._resolve_counter(pending.context, slot)
        else:
            assert self.actor_seat is not None  # no reply pending: a breath is in progress
            self._play_maneuver(self.fighters[self.actor_seat], slot)
        self._legal_cache = None
        self._settle()

    def invalidate_legal(self) -> None:
        """Forget the cached legal set: a set-up outside the rules (a test, the combo bench) moved the state."""
        self._legal_cache = None

    def set_dice(self, dice: Dice) -> None:
        """Draw chance from ``dice`` from now on: analysis tools count or enumerate the rolls of a piece of play
        (:mod:`issoku.rules.kernel.chance`) through this, never by replacing engine internals."""
        self.dice = dice

    def health_fractions(self) -> tuple[float, ...]:
        """Each seat's Wounds left as a share of its Wounds at the start (BR-G04), 0 for a defeated fighter."""
        return tuple(0.0 if f.defeated else max(0, f.wounds) / f.sheet.max_wounds for f in self.fighters)

    # -- helpers for modules -------------------------------------------------------------------------
    def emit(self, rule: str, kind: str, actor: int | None, **data: Any) -> None:
        """Append to the event log."""
        if self.events.enabled:
            self.events.emit(rule, kind, actor, **data)

    def push(self, pending: Pending) -> None:
        """Wait for a decision before the rules go on."""
        self.stack.append(pending)

    def target_in_slot(self, fighter: Fighter, slot: int) -> Fighter | None:
        """The ``slot``-th enemy by seat (defeated ones keep their slot), or None."""
        enemies = self.ruleset.enemy_seats[fighter.seat]
        return self.fighters[enemies[slot]] if slot < len(enemies) else None

    def incoming_attack(self, seat: int) -> Attack | None:
        """The attack ``seat`` is deciding how to answer, if any."""
        if self.stack and self.stack[-1].seat == seat and self.stack[-1].kind == DEFEND:
            return self.stack[-1].context
        return None

    def defense_of(self, fighter: Fighter, direct: int = 0, extra_bonus: int = 0) -> int:
        """BR-G02: armor + stance + [Kata] Defense; [Direct N] strips up to N of what lies above 10."""
        above = fighter.sheet.armor.defense - UNARMORED_DEFENSE + extra_bonus + fighter.kata_defense
        if fighter.stance is not None:
            above += fighter.stance.defense_bonus
        return UNARMORED_DEFENSE + max(0, above - direct) if above > 0 else UNARMORED_DEFENSE + above

    def check_modifiers(self, fighter: Fighter) -> list[Modifier]:
        """What every check ``fighter`` rolls carries from the modules ("all checks −2", glare...).

        Attack checks, defense rolls, the overload check and the modules' own checks all add these, so a
        penalty a text puts on "all checks" reaches each of them (BR-025 with MA-046/MA-G21).
        """
        modifiers: list[Modifier] = []
        for module in self.ruleset.modules:
            modifiers += module.check_modifiers(self, fighter)
        return modifiers

    def cost_of(self, fighter: Fighter, technique: Technique | None, order: Order, base: int,
                improvised: bool = False) -> tuple[int, list[Modifier]]:
        """Final Energy of an order (Rule 2): engine and module modifiers, the 1.5×, the floor."""
        modifiers = technique_cost_modifiers(fighter, technique, improvised) if technique is not None else []
        for module in self.ruleset.modules:
            modifiers += module.cost_modifiers(self, fighter, technique, order)
        if not modifiers:
            return (improvised_base(base) if improvised else base), modifiers
        return final_cost(base, modifiers, improvised=improvised)

    def pay(self, fighter: Fighter, cost: int, rule: str, what: str, modifiers: list[Modifier] | None = None,
            in_breath: bool = True) -> None:
        """Spend Energy (BR-002: every maneuver spends it); inside one's breath it counts toward the limit and
        may overload (BR-024; BR-066: the threshold is the current limit, ``fighter.limit``)."""
        before = fighter.energy
        fighter.energy -= cost
        if self.events.enabled:
            self.emit(rule, "energy_spent", fighter.seat, what=what, cost=cost, before=before, after=fighter.energy,
                      modifiers=tuple(modifiers or ()))
        if not in_breath:
            return
        fighter.spent += cost
        if fighter.spent > fighter.limit and not fighter.breath_closed:
            self._overload_check(fighter)

    def declare_attack(self, attacker: Fighter, target: Fighter, technique: Technique, *, counter: bool = False,
                       extra: dict[str, Any] | None = None, allow_defense: bool = True,
                       reserved_only: bool = False) -> Attack:
        """Roll an attack check against ``target`` and resolve it (possibly waiting on a ``defend``).

        ``allow_defense=False``: no defense at all; ``reserved_only``: only a reservation may meet it.
        """
        attack = Attack(attacker, target, technique, counter, extra, reserved_only)
        attacker.attack_checks += 1
        modifiers: list[Modifier] = [("finesse", attacker.sheet.finesse),
                                     ("skill", attacker.sheet.skill(attacker.weapon.skill))]
        if technique.check_bonus:
            modifiers.append(("technique", technique.check_bonus))
        if attacker.check_bonus:
            modifiers.append(("pending_bonus", attacker.check_bonus))
            attacker.check_bonus = 0
        fatigue = combo_fatigue(attacker.attack_checks,                      # BR-A08: attacks made in the Core
                                reduced=attacker.in_core and attacker.weapon.weapon_class == "short")
        if fatigue:
            modifiers.append(("combo_fatigue", fatigue))
        modules = self.ruleset.modules
        for module in modules:
            modifiers += module.attack_modifiers(self, attack)
        modifiers += self.check_modifiers(attacker)
        attack.modifiers = modifiers
        attack.dice = dice = self.dice.roll(2)
        attack.total = dice[0] + dice[1] + _total(modifiers)
        bonus, direct = 0, technique.direct
        closing = target.stance.closing_defense_bonus if target.stance is not None else 0
        if closing and attacker.closed_this_round:
            bonus += closing
        for module in modules:
            more_bonus, more_direct = module.defense_modifiers(self, attack)
            bonus += more_bonus
            if more_direct > direct:
                direct = more_direct
        attack.defense = self.defense_of(target, direct, bonus)
        attack.critical = dice[0] == dice[1] or self._forced_critical(attack)
        if self.events.enabled:
            self.emit("BR-G01", "attack_check", attacker.seat, technique=technique.key, target=target.seat,
                      dice=attack.dice, modifiers=tuple(modifiers), total=attack.total, defense=attack.defense,
                      direct=direct, critical=attack.critical, counter=counter)
        if attack.total < attack.defense:
            if self.events.enabled:
                self.emit("BR-G01", "miss", attacker.seat, target=target.seat, total=attack.total,
                          defense=attack.defense)
            self._attack_missed(attack)
        elif allow_defense and len(legal := self._defense_legal(target, technique, reserved_only)) > 1:
            # More than take_hit: the defender decides. The answers found here are that decision's legal set:
            # every caller returns once the attack waits (nothing the defender's key reads moves before it).
            attack.defense_legal = legal
            self.push(Pending(DEFEND, target.seat, attack))
        else:
            self._attack_hits(attack)
        return attack

    def _forced_critical(self, attack: Attack) -> bool:
        """Whether a module makes ``attack`` Critical without doubles (asked only when the dice differ)."""
        for module in self.ruleset.modules:
            if module.forces_critical(self, attack):
                return True
        return False

    # -- the count ------------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        if self.round > self.ruleset.config.round_limit:
            self.round -= 1
            self._over = True
            self._truncated = True
            self.emit("BR-G20", "round_limit", None, rounds=self.round)
            return
        for f in self.fighters:
            f.energy = f.sheet.max_energy
            f.standing = False
            f.defenseless = False
            f.attack_checks = 0
            f.zero_energy_used.clear()
            f.kata_used.clear()
            f.descent = 0
            f.guard_counter_used = False
            f.closed_this_round = False
        if self.events.enabled:
            self.emit("BR-004", "round_start", None, round=self.round, energy=tuple(f.energy for f in self.fighters))
        for module in self.ruleset.modules:
            module.on_round_start(self)

    def _lull(self) -> None:
        if self.events.enabled:
            self.emit("BR-006", "lull", None, round=self.round)
        for f in self.fighters:
            if f.reservations:
                if self.events.enabled:
                    self.emit("BR-021", "reservation_expired", f.seat, reserved=tuple(f.reservations), why="round_end")
                f.reservations.clear()
        for module in self.ruleset.modules:
            module.on_lull(self)
        if not self._over:
            self._check_end()
        if not self._over:
            self._start_round()

    def _next_actor(self) -> Fighter | None:
        """BR-003, BR-005, BR-007, BR-A06: highest remaining Energy; then higher Finesse; then the allies' side;
        then seat. BR-A11: no side phases, breaths interleave strictly by this count."""
        allies = self.ruleset.config.allies_side
        best: Fighter | None = None
        best_key: tuple[int, int, int, int] | None = None
        for f in self.fighters:
            if f.defeated or f.standing or f.energy <= 0:
                continue
            key = (f.energy, f.sheet.finesse, int(f.side == allies), -f.seat)
            if best_key is None or key > best_key:
                best, best_key = f, key
        return best

    def _begin_breath(self, fighter: Fighter) -> None:
        """BR-021 / BR-A05: reservations end at the start of the next breath or at the round's end, whichever
        comes first, unrefunded."""
        self.actor_seat = fighter.seat
        if fighter.reservations:
            if self.events.enabled:
                self.emit("BR-021", "reservation_expired", fighter.seat, reserved=tuple(fighter.reservations),
                          why="next_breath")
            fighter.reservations.clear()
        fighter.kata_defense = 0
        fighter.spent = 0
        fighter.breath_closed = False
        fighter.overload_failed = False
        fighter.check_bonus = 0
        if fighter.next_limit_override:
            fighter.limit = fighter.next_limit_override
            fighter.next_limit_override = 0
            rule = "BR-026"
        else:
            fighter.limit = self._limit_of(fighter)
            rule = "BR-008"
        if self.events.enabled:
            self.emit(rule, "breath_start", fighter.seat, count=fighter.energy, limit=fighter.limit)
        for module in self.ruleset.modules:
            module.on_breath_start(self, fighter)

    def _limit_of(self, fighter: Fighter) -> int:
        """BR-008/BR-009/BR-059, BR-060, BR-061, BR-062, BR-063, BR-064: the one-breath limit with every named
        expansion.

        Every breath start asks; with no module expanding the breath (``BreathModule.breath_expansions``)
        the limit depends only on the seat's sheet, the Core Zone flag and a [Kata]'s descent, so it is
        remembered per ruleset on those.
        """
        limits = self.ruleset.limits
        if limits is None:
            return self._expanded_limit(fighter)
        key = (fighter.seat, fighter.in_core, fighter.descent)
        limit = limits.get(key)
        if limit is None:
            limit = limits[key] = self._expanded_limit(fighter)
        return limit

    def _expanded_limit(self, fighter: Fighter) -> int:
        sheet = fighter.sheet
        expansions: list[Modifier] = [("speed", speed_expansion(sheet.skill("speed")))]
        if sheet.armor.breath_bonus:
            expansions.append((sheet.armor.key, sheet.armor.breath_bonus))
        if "asura" in sheet.traits and fighter.in_core:          # BR-Z07: set as the breath begins (BR-008)
            expansions.append(("asura", 2))
        if fighter.descent:
            expansions.append(("kamuy_descent", fighter.descent))
        for module in self.ruleset.modules:
            expansions += module.breath_expansions(self, fighter)
        return breath_limit(expansions)

    def _end_breath(self, fighter: Fighter, why: str) -> None:
        if self.events.enabled:
            self.emit("BR-005", "breath_end", fighter.seat, spent=fighter.spent, energy=fighter.energy, why=why)
        fighter.check_bonus = 0
        self.actor_seat = None

    def _settle(self) -> None:
        """Run the rules forward until someone must decide or the fight is over."""
        while not self._over and not self.stack:
            self._legal_cache = None
            if self._defeated:  # nobody defeated yet: nothing can have ended (``_check_end``'s own first test)
                self._check_end()
                if self._over:
                    return
            if self.actor_seat is not None:
                actor = self.fighters[self.actor_seat]
                why = self._breath_over(actor)
                if why is None:
                    return
                if why == "no_maneuver":
                    actor.standing = True
                    self.emit("BR-G09", "stand", actor.seat, energy=actor.energy, automatic=True)
                self._end_breath(actor, why)
                continue
            starting = self._next_actor()
            if starting is None:
                self._lull()
            else:
                self._begin_breath(starting)

    def _breath_over(self, actor: Fighter) -> str | None:
        if actor.defeated:
            return "defeated"
        if actor.breath_closed:
            return "overload"
        if actor.energy <= 0:
            return "no_energy"
        if actor.standing:
            return "stand"
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        slots = self.ruleset.slots
        for action in self._legal_cache:
            if slots[action].kind not in NOT_MANEUVERS:
                return None
        return "no_maneuver"

    def _check_end(self) -> None:
        if not self._defeated:
            return  # everyone stands: the ruleset guarantees at least two sides
        sides = {f.side for f in self.fighters if not f.defeated}
        if len(sides) <= 1:
            self._over = True
            self._winner_side = next(iter(sides)) if sides else None
            self.actor_seat = None
            self.stack.clear()
            self.emit("BR-G20", "fight_end", None, winner_side=self._winner_side, round=self.round)

    # -- legal actions -----------------------------------------------------------------------------
    def _compute_legal(self) -> list[int] | tuple[int, ...]:
        slots = self.ruleset.slots
        if self.stack:
            pending = self.stack[-1]
            owner = pending.owner
            if owner is not None:
                legal = [a for a in self.ruleset.module_actions[owner] if owner.pending_legal(self, pending, slots[a].order)]
                return self._without_vetoed(self.fighters[pending.seat], legal) if self.ruleset.vetoers else legal
            if pending.kind == DEFEND:
                attack = pending.context
                known = attack.defense_legal
                if known is not None:
                    return known
                return self._defense_legal(attack.target, attack.technique, attack.reserved_only)
            return self._legal_counter(pending.context)
        assert self.actor_seat is not None  # no reply pending: a breath is in progress
        actor = self.fighters[self.actor_seat]
        key = self._breath_situation(actor)
        if key is None:
            return self._scan_breath_legal(actor)
        memo = self.ruleset.legal_memo
        known_legal: tuple[int, ...] | None = memo.get(key)
        if known_legal is None:
            known_legal = self._remember(key, tuple(self._priced_breath_legal(actor, key)))
        return known_legal

    def _priced_breath_legal(self, actor: Fighter, key: tuple) -> list[int]:
        """What :meth:`_scan_breath_legal` gives, from the situation's price list when it is known.

        Energy is the only part of a breath situation that moves with every order, and the engine's
        candidates read it only as ``cost <= energy`` (:meth:`_maneuver_need`); so their price list is
        memoised on the situation without the Energy (``key`` less its third item) and filtered here,
        where a miss of the whole key used to scan thirty candidates. Modules' orders and vetoes are
        asked as the scan asks them.
        """
        memo = self.ruleset.legal_memo
        prices_key = (_PRICES, key[:2], key[3:])
        prices = memo.get(prices_key)
        if prices is None:
            slots = self.ruleset.slots
            needs = ((a, self._maneuver_need(actor, slots[a]))
                     for a in self.ruleset.breath_candidates(actor.seat, actor.weapon.key).core)
            prices = memo.remember(prices_key, tuple((a, need) for a, need in needs if need is not None))
        energy = actor.energy
        return self._with_module_orders(actor, [a for a, need in prices if need <= energy])

    def _remember(self, key: tuple, legal: tuple[int, ...]) -> tuple[int, ...]:
        """Memoise ``legal`` under ``key`` (bounded per ruleset and per process: :mod:`issoku.rules.breath.memo`)."""
        return self.ruleset.legal_memo.remember(key, legal)

    def _breath_situation(self, actor: Fighter) -> tuple | None:
        """Everything :meth:`_maneuver_legal` reads, as a key for the ruleset's memo of breath decisions
        (a fight revisits the same few situations, and scanning thirty candidates costs more than a
        lookup); None when a module's hooks cannot be keyed (:meth:`BreathModule.legal_key`)."""
        module_keys = self._module_keys(actor)
        if module_keys is None:
            return None
        stance = actor.stance
        return (actor.seat, actor.weapon.key, actor.energy, stance.key if stance is not None else None,
                actor.defenseless, actor.spent > 0, actor.in_core, tuple(actor.zero_energy_used),
                tuple(actor.kata_used), self._defeated, module_keys)

    def _module_keys(self, fighter: Fighter) -> tuple | None:
        """Every module's :meth:`BreathModule.legal_key` for ``fighter``, or None when one has none
        (a plain loop: it runs on every decision, and a comprehension's frame costs more than one module)."""
        keys: tuple = ()
        for module in self.ruleset.modules:
            key = module.legal_key(self, fighter)
            if key is None:
                return None
            keys += (key,)
        return keys

    def _scan_breath_legal(self, actor: Fighter) -> list[int]:
        """The breath decision's legal actions: the engine's candidates checked one by one, each module's
        against the orders it allows (asked once per module, not once per order)."""
        slots = self.ruleset.slots
        core = self.ruleset.breath_candidates(actor.seat, actor.weapon.key).core
        return self._with_module_orders(actor, [a for a in core if self._maneuver_legal(actor, slots[a])])

    def _with_module_orders(self, actor: Fighter, legal: list[int]) -> list[int]:
        """The engine's legal candidates ``legal`` plus each module's allowed orders, less what is vetoed."""
        for module, actions, orders in self.ruleset.breath_candidates(actor.seat, actor.weapon.key).modules:
            allowed = module.legal_orders(self, actor, orders)
            legal += [a for a, order in zip(actions, orders) if order in allowed]
        return self._without_vetoed(actor, legal) if self.ruleset.vetoers else legal

    def _without_vetoed(self, fighter: Fighter, legal: list[int]) -> list[int]:
        """``legal`` less what a module forbids ``fighter`` now (``BreathModule.vetoes_order``)."""
        vetoers = [m for m in self.ruleset.vetoers if m.may_veto(self, fighter)]
        if not vetoers:
            return legal
        slots = self.ruleset.slots
        return [a for a in legal if not any(m.vetoes_order(self, fighter, slots[a].order) for m in vetoers)]

    def _stance_ends(self, f: Fighter, why: str) -> None:
        """Tell the modules that ``f``'s stance ends (``BreathModule.on_stance_end``), before it is cleared."""
        for module in self.ruleset.modules:
            module.on_stance_end(self, f, why)

    def _maneuver_legal(self, f: Fighter, slot: ActionSlot) -> bool:
        """BR-G10: a maneuver whose final cost exceeds the Energy left is not legal; BR-011: a technique may be
        repeated within a breath, each execution paid (nothing here counts repeats)."""
        if slot.kind in _ENGINE_MANEUVERS:
            need = self._maneuver_need(f, slot)
            return need is not None and need <= f.energy
        module = self.ruleset.module_of_kind.get(slot.kind)
        return module is not None and module.order_legal(self, f, slot.order)

    def _maneuver_need(self, f: Fighter, slot: ActionSlot) -> int | None:
        """The Energy an engine maneuver (``_ENGINE_MANEUVERS``) needs now (``_NO_ENERGY_NEEDED`` for one
        that needs none), or None when it is not legal whatever the Energy: legal is ``need <= energy``.
        Nothing here reads the Energy, so the price list of a situation holds for every Energy. BR-034, the
        0-Energy whitelist, is decided here and in :meth:`cost_of`: a reserved technique's trigger, releasing a
        stance and a 0-Energy stance or [Kata] (capped, :meth:`zero_energy_allowed`) need none; every other
        price keeps Rule 2's floor of 1."""
        kind = slot.kind
        if kind == ATTACK:
            technique = slot.technique
            assert technique is not None  # an attack's slot carries its technique (and a reserve's, below)
            if technique.weapon != f.weapon.key:
                return None
            enemies = self.ruleset.enemy_seats[f.seat]
            if slot.target >= len(enemies):
                return None
            target = self.fighters[enemies[slot.target]]
            if target.defeated or not self._attack_allowed(f, target, technique):
                return None
            return self.cost_of(f, technique, slot.order, technique.cost)[0]
        if kind == RESERVE:
            technique = slot.technique
            assert technique is not None
            if technique.weapon != f.weapon.key or f.defenseless:
                return None
            return self.cost_of(f, technique, slot.order, technique.cost)[0]
        if kind == STANCE:
            assert slot.key is not None  # a stance or [Kata] order names it (below too)
            stance = self.ruleset.own_stances[f.seat].get(slot.key)
            if stance is None or f.stance is stance or (stance.weapons and f.weapon.key not in stance.weapons):
                return None
            if stance.cost == 0:
                return _NO_ENERGY_NEEDED if self.zero_energy_allowed(f, "stance:" + stance.key) else None
            return self.cost_of(f, None, slot.order, stance.cost)[0]
        if kind == RELEASE_STANCE:
            return _NO_ENERGY_NEEDED if f.stance is not None else None
        if kind == KATA:
            assert slot.key is not None
            kata = self.ruleset.own_katas[f.seat].get(slot.key)
            if kata is None:
                return None
            if kata.zero_energy:
                return _NO_ENERGY_NEEDED if self.zero_energy_allowed(f, "kata:" + kata.key) else None
            if f.kata_used.count(kata.key) >= kata.per_round:
                return None
            return self.cost_of(f, None, slot.order, kata.cost)[0]
        if kind == END_BREATH:
            return _NO_ENERGY_NEEDED if f.spent > 0 else None
        if kind == STAND:
            return _NO_ENERGY_NEEDED
        return None

    def _attack_allowed(self, attacker: Fighter, target: Fighter, technique: Technique) -> bool:
        for module in self.ruleset.modules:
            if not module.attack_allowed(self, attacker, target, technique):
                return False
        return True

    def zero_energy_allowed(self, f: Fighter, effect: str) -> bool:
        """BR-047/BR-048 (BR-A01): each 0-Energy effect once a round, all of them at most twice."""
        return effect not in f.zero_energy_used and len(f.zero_energy_used) < 2

    def _defense_options(self, f: Fighter, attack_technique: Technique,
                         reserved_only: bool = False) -> list[tuple[str, Technique, int]]:
        """BR-G03/BR-G08/BR-G11: reservations to trigger (0) and techniques to improvise (1.5×) that fit
        (improvising only when the attack allows it)."""
        if f.defenseless or f.defeated:
            return []
        options = []
        for technique in f.weapon.defenses:
            if attack_technique.ranged and not technique.ranged:
                continue
            if technique.key in f.reservations:
                options.append((USE_RESERVED, technique, 0))
            if reserved_only:
                continue
            cost = self.cost_of(f, technique, (IMPROVISE, technique.key), technique.cost, improvised=True)[0]
            if cost <= f.energy:
                options.append((IMPROVISE, technique, cost))
        return options

    def _defense_legal(self, defender: Fighter, attack_technique: Technique,
                       reserved_only: bool = False) -> tuple[int, ...]:
        """The answers ``defender`` has to an attack check with ``attack_technique`` (``take_hit`` always),
        memoised like a breath decision's on everything :meth:`_defense_options` reads."""
        module_keys = self._module_keys(defender)
        if module_keys is None:
            return self._scan_defense_legal(defender, attack_technique, reserved_only)
        key = (DEFEND, defender.seat, defender.weapon.key, defender.energy, tuple(defender.reservations),
               defender.defenseless, defender.defeated, defender.in_core, attack_technique.ranged, reserved_only,
               module_keys)
        memo = self.ruleset.legal_memo
        legal = memo.get(key)
        if legal is None:
            legal = self._remember(key, self._scan_defense_legal(defender, attack_technique, reserved_only))
        return legal

    def _scan_defense_legal(self, defender: Fighter, attack_technique: Technique,
                            reserved_only: bool) -> tuple[int, ...]:
        codec = self.ruleset.codec
        legal = [codec.encode((kind, technique.key)) for kind, technique, _ in
                 self._defense_options(defender, attack_technique, reserved_only)]
        legal.append(codec.encode(_TAKE_HIT_ORDER))
        return tuple(sorted(legal))

    def _legal_counter(self, attack: Attack) -> list[int]:
        codec = self.ruleset.codec
        counterer = attack.target
        legal = [codec.encode((COUNTER, t.key)) for t in counterer.weapon.attacks
                 if self._attack_allowed(counterer, attack.attacker, t)]
        legal.append(codec.encode(_DECLINE_COUNTER_ORDER))
        return sorted(legal)

    # -- maneuvers ---------------------------------------------------------------------------------
    def _play_maneuver(self, f: Fighter, slot: ActionSlot) -> None:
        kind = slot.kind
        catalog = self.ruleset.catalog
        if kind == ATTACK:
            assert slot.key is not None  # an attack or a reserve names its technique
            technique = catalog.techniques[slot.key]
            cost, modifiers = self.cost_of(f, technique, slot.order, technique.cost)
            self.pay(f, cost, "BR-045", technique.key, modifiers)
            target = self.target_in_slot(f, slot.target)
            assert target is not None  # a legal attack's slot holds an enemy
            self.declare_attack(f, target, technique)
        elif kind == RESERVE:
            assert slot.key is not None
            technique = catalog.techniques[slot.key]
            cost, modifiers = self.cost_of(f, technique, slot.order, technique.cost)
            self.pay(f, cost, "BR-018", "reserve " + technique.key, modifiers)
            f.reservations.append(technique.key)
            if self.events.enabled:
                self.emit("BR-018", "reserved", f.seat, technique=technique.key, reserved=tuple(f.reservations))
        elif kind == STANCE:
            self._declare_stance(f, slot)
        elif kind == RELEASE_STANCE:
            if self.events.enabled:
                assert f.stance is not None  # only a fighter in a stance may release it (BR-079)
                self.emit("BR-079", "stance_released", f.seat, stance=f.stance.key, cost=0)
            self._stance_ends(f, "released")
            f.stance = None
        elif kind == KATA:
            self._use_kata(f, slot)
        elif kind == END_BREATH:
            self._end_breath(f, "ended")
        elif kind == STAND:
            f.standing = True
            if self.events.enabled:
                self.emit("BR-G09", "stand", f.seat, energy=f.energy, automatic=False)
            self._end_breath(f, "stand")
        else:
            self.ruleset.module_of_kind[kind].apply_order(self, f, slot.order)
        if f.overload_failed and not f.defenseless and not f.defeated:
            # BR-027/BR-G12: the maneuver is performed, then Defenseless at once, before any answer to it
            # (a guard-stance counter) resolves, not only when the breath ends.
            self._make_defenseless(f, "BR-027")

    def _declare_stance(self, f: Fighter, slot: ActionSlot) -> None:
        stance = next(s for s in f.sheet.stances if s.key == slot.key)
        if stance.cost == 0:
            f.zero_energy_used.append("stance:" + stance.key)
            if self.events.enabled:
                self.emit("BR-030", "zero_energy", f.seat, what="stance " + stance.key,
                          used_this_round=len(f.zero_energy_used))
        else:
            cost, modifiers = self.cost_of(f, None, slot.order, stance.cost)
            self.pay(f, cost, "BR-078", "stance " + stance.key, modifiers)
        replaced = f.stance.key if f.stance is not None else None
        if replaced is not None:
            self._stance_ends(f, "replaced")
        f.stance = stance
        if self.events.enabled:
            self.emit("BR-078", "stance_declared", f.seat, stance=stance.key, replaced=replaced)

    def _use_kata(self, f: Fighter, slot: ActionSlot) -> None:
        kata = next(k for k in f.sheet.katas if k.key == slot.key)
        if kata.zero_energy:
            f.zero_energy_used.append("kata:" + kata.key)
            if self.events.enabled:
                self.emit("BR-030", "zero_energy", f.seat, what="kata " + kata.key,
                          used_this_round=len(f.zero_energy_used))
        else:
            cost, modifiers = self.cost_of(f, None, slot.order, kata.cost)
            self.pay(f, cost, "BR-010", "kata " + kata.key, modifiers)
        f.kata_used.append(kata.key)
        if kata.effect == "check_bonus":
            f.check_bonus += kata.amount
        elif kata.effect == "defense_until_next_breath":
            f.kata_defense = kata.amount
        else:
            f.descent = kata.amount
            f.limit = self._limit_of(f) if not f.breath_closed else f.limit
        if self.events.enabled:
            self.emit("BR-062" if kata.effect == "breath_limit_this_round" else "BR-010", "kata", f.seat, kata=kata.key,
                      effect=kata.effect, amount=kata.amount, limit=f.limit)

    def _overload_check(self, f: Fighter) -> None:
        """BR-024, BR-025, BR-026, BR-027 (BR-G12): one check when the breath's spending passes the limit; the breath
        closes.

        2d10 + Physique − excess ≥ 11, with whatever every check of the fighter carries (a face wound,
        glare: :meth:`check_modifiers`).
        """
        excess = f.spent - f.limit
        on_all_checks = self.check_modifiers(f)
        check = self.dice.check(f.sheet.physique - excess + _total(on_all_checks), OVERLOAD_TN)
        f.breath_closed = True
        success = check.success
        if self.events.enabled:
            extra = {"modifiers": tuple(on_all_checks)} if on_all_checks else {}
            self.emit("BR-025", "overload_check", f.seat, spent=f.spent, limit=f.limit, excess=excess,
                      dice=check.dice, physique=f.sheet.physique, **extra, total=check.total, target=OVERLOAD_TN,
                      success=success)
        if success:
            f.next_limit_override = OVERLOADED_LIMIT
            if self.events.enabled:
                self.emit("BR-026", "overload_success", f.seat, next_limit=OVERLOADED_LIMIT)
        else:
            f.overload_failed = True
            lost = f.energy
            f.energy = 0
            if self.events.enabled:
                self.emit("BR-027", "overload_failure", f.seat, energy_lost=lost)

    def _make_defenseless(self, f: Fighter, rule: str) -> None:
        """BR-G11: no defense techniques for the rest of the round; reservations and stance end."""
        f.defenseless = True
        if self.events.enabled:
            self.emit(rule, "defenseless", f.seat, reservations_lost=tuple(f.reservations),
                      stance_lost=f.stance.key if f.stance else None)
        if f.stance is not None:
            self._stance_ends(f, "defenseless")
        f.reservations.clear()
        f.stance = None

    # -- reactions ---------------------------------------------------------------------------------
    def _resolve_defense(self, attack: Attack, slot: ActionSlot) -> None:
        defender = attack.target
        if slot.kind == TAKE_HIT:
            if self.events.enabled:
                self.emit("BR-G03", "take_hit", defender.seat, total=attack.total)
            self._attack_hits(attack)
            return
        assert slot.key is not None  # a defense names its technique
        technique = self.ruleset.catalog.techniques[slot.key]
        if slot.kind == USE_RESERVED:
            defender.reservations.remove(technique.key)
            self.emit("BR-019", "reservation_triggered", defender.seat, technique=technique.key, cost=0)  # BR-029
        else:
            cost, modifiers = self.cost_of(defender, technique, slot.order, technique.cost, improvised=True)
            self.pay(defender, cost, "BR-020", "improvise " + technique.key, modifiers, in_breath=False)
        modifiers = [("finesse", defender.sheet.finesse), ("skill", defender.sheet.skill(defender.weapon.skill))]
        if technique.check_bonus:
            modifiers.append(("technique", technique.check_bonus))
        for module in self.ruleset.modules:
            modifiers += module.defense_roll_modifiers(self, attack, defender)
        modifiers += self.check_modifiers(defender)
        dice = self.dice.roll(2)
        total = dice[0] + dice[1] + _total(modifiers)
        blocked = attack.total <= total
        if self.events.enabled:
            self.emit("BR-G03", "defense_roll", defender.seat, technique=technique.key, dice=dice,
                      modifiers=tuple(modifiers), total=total, attack_total=attack.total, blocked=blocked)
        if blocked:
            self._attack_missed(attack)
        else:
            self._attack_hits(attack)

    def _attack_hits(self, attack: Attack) -> None:
        target = attack.target
        technique = attack.technique
        wounds = max(CRITICAL_WOUNDS, technique.damage) if attack.critical else technique.damage
        for module in self.ruleset.modules:
            wounds = module.hit_wounds(self, attack, wounds)
        before = target.wounds
        target.wounds -= wounds
        if self.events.enabled:
            self.emit("BR-G05" if attack.critical else "BR-G04", "hit", attack.attacker.seat, target=target.seat,
                      technique=technique.key, wounds=wounds, critical=attack.critical, before=before,
                      after=target.wounds)
        for module in self.ruleset.modules:
            module.after_attack(self, attack, True)
        self.check_defeat(target)

    def check_defeat(self, fighter: Fighter) -> None:
        """BR-G04/BR-G20: 0 Wounds (or a module's own condition) takes a fighter out of the fight."""
        if fighter.defeated:
            return
        if fighter.wounds <= 0 or any(m.is_defeated(self, fighter) for m in self.ruleset.modules):
            fighter.defeated = True
            self._defeated = tuple(sorted((*self._defeated, fighter.seat)))
            fighter.reservations.clear()
            if self.events.enabled:
                self.emit("BR-G20", "defeated", fighter.seat, wounds=fighter.wounds)

    def _attack_missed(self, attack: Attack) -> None:
        for module in self.ruleset.modules:
            module.after_attack(self, attack, False)
        target, attacker = attack.target, attack.attacker
        stance = target.stance
        if (stance is not None and stance.effect == "guard_counter" and not target.guard_counter_used
                and not target.defeated and not target.defenseless and not attacker.defeated
                and self.zero_energy_allowed(target, "guard_counter")
                and any(self._attack_allowed(target, attacker, t) for t in target.weapon.attacks)):
            self.push(Pending(COUNTER, target.seat, attack))

    def _resolve_counter(self, attack: Attack, slot: ActionSlot) -> None:
        counterer = attack.target
        if slot.kind == DECLINE_COUNTER:
            self.emit("BR-G14", "counter_declined", counterer.seat)
            return
        counterer.guard_counter_used = True
        counterer.zero_energy_used.append("guard_counter")
        assert slot.key is not None  # a counter names its attack
        technique = self.ruleset.catalog.techniques[slot.key]
        self.emit("BR-050", "guard_counter", counterer.seat, technique=technique.key, cost=0,
                  used_this_round=len(counterer.zero_energy_used))
        self.declare_attack(counterer, attack.attacker, technique, counter=True)


def _total(modifiers: list[Modifier]) -> int:
    """The sum of named modifiers' deltas (a plain loop: cheaper than ``sum`` over a generator on every check)."""
    total = 0
    for _, delta in modifiers:
        total += delta
    return total


def _remap_context(context: Any, remap: dict[int, Fighter]) -> Any:
    """Point a pending decision's attack at the cloned fighters."""
    if isinstance(context, Attack):
        copy = Attack(remap[id(context.attacker)], remap[id(context.target)], context.technique, context.counter,
                      dict(context.extra), context.reserved_only)
        for name in ("dice", "modifiers", "total", "defense", "critical", "defense_legal"):
            setattr(copy, name, getattr(context, name))
        return copy
    return context


__all__ = ["Attack", "BreathModule", "BreathState", "technique_cost_modifiers"]
