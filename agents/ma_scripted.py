"""Scripted duelists for Ma and Blade (``breath_duel_v0``): each fights for a distance, then cuts.

The breath engine's scripted fighters know nothing of the ladder: in a Ma and Blade duel they never
half-step and answer a half-step at random. Every duelist here composes one of them (its choices
inside the breath, its defense and counters) with a judgement of the distance, :class:`MaScripted`:

* outside the rungs it wants it half-steps towards them before anything else (MA-011), but never past
  its breath limit (an overload is not worth a rung);
* it resists a half-step that takes the ma further from what it wants and yields to the others (MA-G01);
* in tsubazeriai it breaks the lock towards the rungs it wants: a slip-away to issoku itto or a
  push-out to close fighting (MA-026, MA-027); a won slip-away's counterattack is always taken (MA-G06);
* a dropped weapon is picked up as soon as that is legal (at far range, MA-G15).

The four differ in the rungs they want and in how they cut:

``MaAggressive`` (``ma_aggressive``)
    presses to the closest rung of its weapon's ideal range and cuts with everything (breath Aggressive).
``MaDefensive`` (``ma_defensive``)
    reserve first: it holds one reservation at all times and cuts with what the breath has left, from
    the farthest rung of its ideal range; it improvises a defense only against a Critical or a last hit.
``MaDistanceKeeper`` (``ma_distance_keeper``)
    fights at its weapon's ideal range (MA-017..MA-022): it takes and holds a rung inside it, the one where
    the opponent's weapon is worst off, and cuts only from there (breath Heuristic).
``MaHeuristic`` (``ma_heuristic``)
    the whole ladder weighed for both weapons: it goes where it can cut and the opponent cannot, or
    cuts worse (a nodachi at far range against a short blade, an uchigatana in close fighting
    against a nodachi), and after a lost contest steps again only from a rung where it cannot cut
    (a second loss shaves its guard, MA-036). It never overloads, aims its cuts at the torso whenever
    the breath has room for the extra Energy (one more Wound and bleeding, MA-045), and improvises a
    defense only when the exact chance of blocking times the Wounds at stake is worth the Energy.
    It beats random-legal play in 94 % (ikkiuchi) and 95 % (hatashiai) of 500 seeded duels between the
    default fighters and in 96 % over random archetype pairings, seats alternating (docs/rules/ma.md).

Like the breath fighters they read only public knowledge: the action names, the observation schema and
the catalog; everything about the fight comes from the observation and the mask. A search's playouts call
them thousands of times a decision, so they also read the same facts straight from a state
(:meth:`MaScripted.choose`, :meth:`MaSight.read_state`): exactly what the observation shows, scaled and capped as
it is, without encoding it to decode it again (``tests/agents/test_ma_scripted_state_reading.py`` holds both ways
to the same views and the same choices).
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np

from issoku.agents.breath_scripted import Aggressive, BreathScripted, Defensive, Heuristic, View
from issoku.rules.breath.costs import improvised_base
from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.kinds import ATTACK, BREATH, DEFEND, IMPROVISE, KATA, RESERVE, STANCE, TAKE_HIT, USE_RESERVED
from issoku.rules.breath.observe import SCALE
from issoku.rules.breath.ruleset import BreathRuleset
from issoku.rules.kernel.dice import prob_check
from issoku.rules.ma.duel import AIM, ATTACK_SLOT_INDEX, RESIST, MaModule
from issoku.rules.ma.halfstep import HALF_STEP_COST
from issoku.rules.ma.ladder import CLOSER, OPENER, Rung
from issoku.rules.ma.locations import LOCATION_COST, TORSO_EXTRA_WOUNDS, Location
from issoku.rules.ma.observe import INJURY_FLAGS, STREAK_SCALE, injury_flags
from issoku.rules.ma.reach import RangeVerdict, WeaponReach, range_table

INCOMING_TOTAL_SCALE = 40.0
INCOMING_DAMAGE_SCALE = 2.0
"""How the breath observation scales an incoming attack's total and damage (``rules/breath/observe.py``)."""
RUNGS = tuple(Rung)
"""Every rung by its index in the ``ma_rung`` one-hot."""
ORDINARY_RUNGS = (Rung.FAR, Rung.ISSOKU_ITTO, Rung.NEAR, Rung.CLOSE)
"""Rungs where ordinary cuts exist; nobody wants tsubazeriai for its own sake (MA-025)."""


@dataclass(frozen=True, slots=True)
class MaView:
    """The duel's public facts a scripted duelist reads, beside the breath :class:`View`."""

    breath: View
    rung: Rung
    mine: WeaponReach
    foe: WeaponReach
    declared: int
    """Direction of the half-step awaiting this seat's resist/yield answer (0 when none)."""
    own_injuries: frozenset[str]
    """This duelist's ``ma_injuries`` flags that are set (wrist, arm, leg, face, bleeding, disarmed)."""
    foe_injuries: frozenset[str]
    """The opponent's."""
    loss_streak: int
    """Half-step contests this duelist has lost in a row (MA-036)."""
    finesse: int
    incoming_total: int
    """The attack check total of the attack this duelist must answer (0 when none)."""
    incoming_critical: bool
    incoming_damage: int
    """The incoming technique's damage (a location's extra Wound is not shown)."""

    @property
    def room(self) -> int:
        """Energy the breath can still take before it overloads (BR-024)."""
        return round(self.breath.limit - self.breath.spent)


class MaSight:
    """Decodes the ``ma_*`` fields and both weapons in hand from an observation."""

    def __init__(self, ruleset: BreathRuleset, reader: BreathScripted) -> None:
        self.reader = reader
        spec = ruleset.observation_spec
        if "ma_rung" not in spec.names:
            raise ValueError(f"the Ma duelists need the Ma and Blade duel (breath_duel_v0 with ma=True), "
                             f"not {ruleset.name!r}")
        catalog = ruleset.catalog
        by_index = sorted(catalog.weapon_index.items(), key=lambda item: item[1])
        self.reaches = [WeaponReach.of(catalog.weapons[key]) for key, _ in by_index]
        self.weapon, self.width = spec.slice("weapon"), len(by_index)
        self.rung = spec.slice("ma_rung")
        self.declared = spec.slice("ma_half_step_declared")
        injuries = spec.slice("ma_injuries")
        self.own_injuries = slice(injuries.start, injuries.start + len(INJURY_FLAGS))
        self.foe_injuries = slice(injuries.start + len(INJURY_FLAGS), injuries.start + 2 * len(INJURY_FLAGS))
        self.loss_streak = spec.slice("ma_loss_streak").start
        self.finesse = spec.slice("finesse").start
        self.incoming = spec.slice("incoming_attack").start
        self.module = next(module for module in ruleset.modules if isinstance(module, MaModule))
        self.weapon_index = catalog.weapon_index
        self.decision_kinds = ruleset.decision_kinds

    def read(self, observation: np.ndarray) -> MaView:
        """The duel's facts in ``observation``, read from one ``tolist()`` by offsets fixed at set-up."""
        values = observation.tolist()
        weapons = values[self.weapon]
        mine, foe = weapons[:self.width], weapons[self.width:2 * self.width]
        rung = values[self.rung]
        declared = values[self.declared]
        return MaView(breath=self.reader.view_of(values), rung=RUNGS[rung.index(max(rung))],
                      mine=self.reaches[mine.index(max(mine))], foe=self.reaches[foe.index(max(foe))],
                      declared=CLOSER if declared[0] else (OPENER if declared[1] else 0),
                      own_injuries=self._flags(values[self.own_injuries]),
                      foe_injuries=self._flags(values[self.foe_injuries]),
                      loss_streak=round(values[self.loss_streak] * STREAK_SCALE),
                      finesse=round(values[self.finesse] * SCALE["finesse"]),
                      incoming_total=round(values[self.incoming] * INCOMING_TOTAL_SCALE),
                      incoming_critical=bool(values[self.incoming + 1]),
                      incoming_damage=round(values[self.incoming + 2] * INCOMING_DAMAGE_SCALE))

    @staticmethod
    def _flags(values: list[float]) -> frozenset[str]:
        return frozenset(flag for flag, on in zip(INJURY_FLAGS, values) if on)

    def read_state(self, state: BreathState, seat: int) -> MaView:
        """:meth:`read` of ``seat``'s observation of ``state``, read from the state: each count capped at its
        observation scale as the observation caps it (``min(1, n / S)`` read back as ``min(n, S)``)."""
        me, foe = state.fighters[seat], state.fighters[1 - seat]  # a duel (MA-001): the first enemy is the other
        stack = state.stack
        top = stack[-1] if stack else None
        kind = self.decision_kinds[0] if state.is_over() else (BREATH if top is None else top.kind)
        incoming = top.context if top is not None and top.seat == seat and top.kind == DEFEND else None
        data = state.ext[self.module.name]
        declared = 0  # the half-step awaiting an answer (its owner is the Ma module), as its one-hot shows it
        if top is not None and top.owner is self.module:
            declared = CLOSER if top.context[1] == CLOSER else OPENER
        energy, limit, spent, wounds, reservations = _CAPS
        breath = View(kind=kind, energy=float(min(me.energy, energy)), limit=float(min(me.limit, limit)),
                      spent=float(min(me.spent, spent)), wounds=float(min(max(me.wounds, 0), wounds)),
                      reservations=float(min(len(me.reservations), reservations)),
                      foe_energy=float(min(foe.energy, energy)), foe_wounds=float(min(max(foe.wounds, 0), wounds)),
                      incoming_critical=incoming is not None and bool(incoming.critical))
        return MaView(breath=breath, rung=RUNGS[data.ladder.rung],
                      mine=self.reaches[self.weapon_index[me.weapon.key]],
                      foe=self.reaches[self.weapon_index[foe.weapon.key]],
                      declared=declared,
                      own_injuries=self._injured(data.injuries[seat]),
                      foe_injuries=self._injured(data.injuries[1 - seat]),
                      loss_streak=min(data.guards[seat].loss_streak, round(STREAK_SCALE)),
                      finesse=min(me.sheet.finesse, _FINESSE_CAP),
                      incoming_total=0 if incoming is None else min(incoming.total, round(INCOMING_TOTAL_SCALE)),
                      incoming_critical=incoming is not None and bool(incoming.critical),
                      incoming_damage=0 if incoming is None else incoming.technique.damage)

    @staticmethod
    def _injured(injuries: object) -> frozenset[str]:
        flags = injury_flags(injuries)
        found = _INJURED.get(flags)
        if found is None:
            found = _INJURED[flags] = frozenset(flag for flag, on in zip(INJURY_FLAGS, flags) if on)
        return found


_CAPS = tuple(round(SCALE[field]) for field in ("energy", "breath_limit", "spent", "wounds", "reservations"))
"""The counts :meth:`MaSight.read_state` reads, each capped as the observation caps it: ``min(1, n / S)`` is read
back as ``min(n, S)``."""
_FINESSE_CAP = round(SCALE["finesse"])
_INJURED: dict[tuple, frozenset[str]] = {}
"""Each tuple of injury flags as the set of those set (at most 2**6 of them)."""


NO_ATTACK = -8
"""How a rung where a weapon cannot cut at all counts against it, beside −2 one rung off (MA-022)."""


def reach_worth(verdict: RangeVerdict) -> int:
    """A range verdict as a number: 0 at the ideal range, −2 one rung off, :data:`NO_ATTACK` beyond."""
    return NO_ATTACK if verdict.modifier is None else verdict.modifier


def distance(rung: Rung, wanted: tuple[Rung, ...]) -> int:
    """Half-steps from ``rung`` to the nearest wanted rung."""
    return min(abs(rung - other) for other in wanted)


class MaScripted:
    """A breath fighter (``breath_class``) with a judgement of the distance; subclasses pick the rungs."""

    breath_class: type[BreathScripted] = Heuristic

    def __init__(self, ruleset: BreathRuleset, seed: int | None = None) -> None:
        self.breath_fighter = self.breath_class(ruleset, seed)
        self.sight = MaSight(ruleset, self.breath_fighter)
        self.names = ruleset.action_names
        self.action = {name: a for a, name in enumerate(self.names)}
        self._tables: dict[str, tuple[RangeVerdict, ...]] = {}

    def verdicts(self, reach: WeaponReach) -> tuple[RangeVerdict, ...]:
        """A weapon's range verdict at every rung (MA-022..MA-025), cached."""
        table = self._tables.get(reach.weapon)
        if table is None:
            table = self._tables[reach.weapon] = range_table(reach)
        return table

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        """The rungs this duelist wants to fight at (never empty)."""
        raise NotImplementedError

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        ordered = np.flatnonzero(action_mask).tolist()
        if not ordered:
            raise ValueError(f"{type(self).__name__} got an all-zero action mask")
        return self._decide(self.sight.read(observation), observation, ordered)

    def choose(self, state: BreathState, seat: int) -> int:
        """The action :meth:`__call__` picks given ``seat``'s observation and mask of ``state`` (whose decision it
        is), read from the state (:meth:`MaSight.read_state`): what a search's playouts call."""
        ordered = sorted(state.legal_actions())
        if not ordered:
            raise ValueError(f"{type(self).__name__} got a state with no legal action")
        observation = state.observation(seat) if self.breath_fighter.approach.active else None
        return self._decide(self.sight.read_state(state, seat), observation, ordered)

    def _decide(self, view: MaView, observation: np.ndarray | None, ordered: list[int]) -> int:
        legal = set(ordered)
        if view.breath.kind == RESIST:
            return self.answer(view, legal)
        if view.breath.kind == BREATH:
            move = self.duel_move(view, legal)
            if move is not None:
                return move
            return self.cut(view, observation, ordered, legal)
        if view.breath.kind == DEFEND:
            return self.defend(view, observation, ordered, legal)
        return self.breath_fighter.decide(view.breath, ordered, observation)

    # -- the distance -------------------------------------------------------------------------------------
    def answer(self, view: MaView, legal: set[int]) -> int:
        """Resist a half-step away from the wanted rungs, yield to the rest (MA-G01)."""
        wanted = self.wanted(view)
        after = Rung(min(Rung.TSUBAZERIAI, max(Rung.FAR, view.rung + view.declared)))
        resist = self.action["resist"]
        if resist in legal and distance(after, wanted) > distance(view.rung, wanted):
            return resist
        return self.action["yield"]

    def duel_move(self, view: MaView, legal: set[int]) -> int | None:
        """A dropped weapon picked up, a slip-away counterattack, a way out of tsubazeriai, or a half-step
        towards the wanted rungs."""
        pick_up = self.action["pick_up"]
        if pick_up in legal:
            return pick_up
        for slot in ATTACK_SLOT_INDEX:
            counter = self.action.get(f"slip_counter:{slot}")
            if counter is None:
                break
            if counter in legal:
                return counter
        wanted = self.wanted(view)
        if view.rung in wanted:
            return None
        if view.rung is Rung.TSUBAZERIAI:
            ways = {"slip_away": Rung.ISSOKU_ITTO, "push_out": Rung.CLOSE}
            way = min(ways, key=lambda name: (distance(ways[name], wanted), name))
            return self.action[way] if self.action[way] in legal else None
        room = view.room
        if room < HALF_STEP_COST:
            return None
        step = self.action["half_step:close"] if view.rung < min(wanted) else self.action["half_step:open"]
        return step if step in legal else None

    # -- the breath -----------------------------------------------------------------------------------------
    def cut(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """The breath fighter's maneuver (subclasses may sharpen it)."""
        return self.breath_fighter.decide(view.breath, ordered, observation)

    def defend(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """The breath fighter's answer to an attack (subclasses may sharpen it)."""
        return self.breath_fighter.decide(view.breath, ordered, observation)


class MaAggressive(MaScripted):
    """Presses to the closest rung of its ideal range and cuts with everything."""

    breath_class = Aggressive

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        return (min(view.mine.ideal_near, Rung.CLOSE),)


class MaDefensive(MaScripted):
    """Reserve first, from the farthest rung of its ideal range."""

    breath_class = Defensive

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        return (min(view.mine.ideal_far, Rung.CLOSE),)

    def cut(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """One reservation held at all times, then the best cut the breath still has room for.

        (The breath Defensive holds two, which leaves a 2-Energy parry no room to cut in a breath of 5.)
        """
        fighter = self.breath_fighter
        room = view.room
        reserves = [a for a in fighter.of_kind(ordered, RESERVE) if fighter.cost(a) <= room]
        if reserves and view.breath.reservations < 1:
            return min(reserves, key=fighter.cost)
        choice = fighter.best_attack(fighter.of_kind(ordered, ATTACK), room)
        return choice if choice is not None else fighter.finish(ordered)

    def defend(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """Its reservation first; an improvised defense (1.5×) only against a Critical or a hit that could
        be the last, so that parrying does not eat the Energy its own cuts need."""
        fighter = self.breath_fighter
        reserved = fighter.of_kind(ordered, USE_RESERVED)
        if reserved:
            return reserved[0]
        improvise = fighter.of_kind(ordered, IMPROVISE)
        wounds_in = 2 if view.incoming_critical else max(1, view.incoming_damage)
        if improvise and (view.incoming_critical or wounds_in >= view.breath.wounds):
            return min(improvise, key=fighter.cost)
        return (fighter.of_kind(ordered, TAKE_HIT) or improvise or ordered)[0]  # a restricted mask may lack it


class MaDistanceKeeper(MaScripted):
    """Fights at its weapon's ideal range: holds a rung inside it and cuts only from there."""

    breath_class = Heuristic

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        ideal = [r for r in ORDINARY_RUNGS if self.verdicts(view.mine)[r].modifier == 0]
        foe = self.verdicts(view.foe)
        worst_for_foe = min(reach_worth(foe[r]) for r in ideal)
        return tuple(r for r in ideal if reach_worth(foe[r]) == worst_for_foe)

    def cut(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """Outside its ideal range (a step it could not take) it only guards and ends the breath."""
        if self.verdicts(view.mine)[view.rung].modifier == 0:
            return self.breath_fighter.decide(view.breath, ordered, observation)
        kinds = self.breath_fighter.of_kind
        reserves = [a for a in kinds(ordered, RESERVE)
                    if self.breath_fighter.cost(a) <= view.room]
        if reserves and view.breath.reservations < 1:
            return min(reserves, key=self.breath_fighter.cost)
        return self.breath_fighter.finish(ordered)


ASSUMED_SKILL = 3
"""The weapon skill a duelist assumes for its own defense roll: the sheet's skills are not observed,
and the shipped archetypes all hold a license (3) in their weapon."""
ENERGY_WORTH = 0.25
"""Wounds one Energy is taken to be worth when weighing an improvised defense. An aimed cut buys about
0.6 per Energy, but Energy left at the round's end is lost and the count goes to whoever has more, so
parrying is cheaper than that: 0.2–0.3 measured best against random-legal play (0.1 or 0.45 lose 3–8 %)."""
OWN_REACH_WEIGHT = 0.5
"""How much a rung's own range verdict counts beside the difference of the two (see ``advantage``)."""
WORTH_A_STEP = 2
"""The gain in :meth:`MaHeuristic.advantage` a rung must offer over the current one to step for it."""
TORSO_BLEED_WORTH = 0.5
"""Extra worth of a torso cut on a foe that is not yet bleeding: about a Wound lost at a lull (MA-045)."""


class MaHeuristic(MaScripted):
    """The whole ladder weighed for both weapons; torso cuts; no overload (see the module docstring)."""

    breath_class = Heuristic

    def __init__(self, ruleset: BreathRuleset, seed: int | None = None) -> None:
        super().__init__(ruleset, seed)
        self._slots = ruleset.slots
        self._aims = [(a, self._slots[a].order) for a in range(len(self.names)) if self._slots[a].order[0] == AIM]
        self._catalog = ruleset.catalog
        self._wanted: dict[tuple[WeaponReach, WeaponReach, Rung], tuple[Rung, ...]] = {}

    def _costs_nothing(self, action: int) -> bool:
        """A 0-Energy stance or [Kata]: a free edge, always taken first (as the breath heuristic does)."""
        slot = self._slots[action]
        table = self._catalog.stances if slot.kind == STANCE else self._catalog.katas
        return table[slot.key].cost == 0

    def advantage(self, view: MaView, rung: Rung) -> float:
        """How much better this duelist cuts than the opponent at ``rung`` (both weapons' MA-022 verdicts),
        plus half its own reach there: among equal rungs it wants one where it can cut at all, since a
        duel nobody can win ends drawn at the round limit."""
        mine = reach_worth(self.verdicts(view.mine)[rung])
        return mine - reach_worth(self.verdicts(view.foe)[rung]) + OWN_REACH_WEIGHT * mine

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        """Read from :attr:`_wanted` when known: what is wanted depends on the two weapons and the rung alone
        (a playout asks it at every decision)."""
        key = (view.mine, view.foe, view.rung)
        found = self._wanted.get(key)
        if found is None:
            found = self._wanted[key] = self._weigh_rungs(view)
        return found

    def _weigh_rungs(self, view: MaView) -> tuple[Rung, ...]:
        scores = {r: self.advantage(view, r) for r in ORDINARY_RUNGS}
        best = max(scores.values())
        if view.rung in scores and best - scores[view.rung] < WORTH_A_STEP:
            return tuple(r for r in ORDINARY_RUNGS if scores[r] >= scores[view.rung])
        return tuple(r for r in ORDINARY_RUNGS if scores[r] == best)

    def duel_move(self, view: MaView, legal: set[int]) -> int | None:
        """As :class:`MaScripted`, but after a lost contest it steps again only from a rung where it cannot
        cut at all: a second loss in a row would shave its guard (MA-036)."""
        move = super().duel_move(view, legal)
        if (move is not None and view.loss_streak >= 1 and self.names[move].startswith("half_step")
                and self.verdicts(view.mine)[view.rung].can_attack):
            return None
        return move

    def defend(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """A reservation when one fits; an improvised defense only when the Wounds it is likely to save
        are worth the Energy it costs (or the hit would be the last); otherwise take it."""
        fighter = self.breath_fighter
        reserved = fighter.of_kind(ordered, USE_RESERVED)
        if reserved:
            return reserved[0]
        taking = fighter.of_kind(ordered, TAKE_HIT)  # absent only from a restricted mask (restricted play)
        wounds_in = 2 if view.incoming_critical else max(1, view.incoming_damage)
        modifier = view.finesse + ASSUMED_SKILL - (2 if "face" in view.own_injuries else 0)
        best, best_margin = (taking[0], 0.0) if taking else (ordered[0], -math.inf)
        for action in fighter.of_kind(ordered, IMPROVISE):
            technique = self._slots[action].technique
            chance = float(prob_check(modifier + technique.check_bonus, view.incoming_total))
            cost = improvised_base(technique.cost)
            lethal = wounds_in >= view.breath.wounds
            margin = chance * wounds_in - ENERGY_WORTH * cost if not lethal else chance
            if margin > best_margin:
                best, best_margin = action, margin
        return best

    def cut(self, view: MaView, observation: np.ndarray, ordered: list[int], legal: set[int]) -> int:
        """Free edges first, then the best cut (plain or at the torso) that fits the breath, else end it."""
        fighter = self.breath_fighter
        free = [a for a in fighter.of_kind(ordered, STANCE) + fighter.of_kind(ordered, KATA) if self._costs_nothing(a)]
        if free:
            return free[0]
        room = view.room
        best, best_worth = None, 0.0
        for action in fighter.of_kind(ordered, ATTACK):
            if fighter.cost(action) <= room:
                worth = fighter.attack_value(action)
                if worth > best_worth:
                    best, best_worth = action, worth
        weapon = self._catalog.weapons[view.mine.weapon]
        extra = TORSO_EXTRA_WOUNDS + (0 if "bleeding" in view.foe_injuries else TORSO_BLEED_WORTH)
        for action, order in self._aims:
            if order[2] != Location.TORSO.value or action not in legal:
                continue
            technique = weapon.attacks[ATTACK_SLOT_INDEX[order[1]]]
            cost = technique.cost + LOCATION_COST
            if cost <= room:
                plain = fighter.attack_value(self.action[f"attack:{technique.key}"]) * technique.cost
                worth = (plain + extra) / cost
                if worth > best_worth:
                    best, best_worth = action, worth
        return best if best is not None else fighter.finish(ordered)
