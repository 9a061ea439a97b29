"""Spells (seed 004) as a breath-engine module: casting inside breaths, preparation as a [stance], units.

The breath engine keeps the count, the breath, Energy, overload, reservations, attacks and Wounds; seed 004
is "a sub-application of the Energy-dispersal structure", so :class:`SpellsModule` adds through the hooks:

* orders ``cast:<spell>[:enemyN]`` (pays the first stage; a one-stage spell activates at once),
  ``channel`` (a middle stage of a great or mixed spell), ``activate`` (the last stage and the casting
  check, SP-035), ``abandon`` (SP-G06), ``command[:enemyN]`` (a shikigami or puppet strikes, BR-040, BR-041),
  ``squad:<order>`` (a squad order, BR-042, BR-077), ``transfer:allyN`` (a scholar's Energy, BR-031/BR-044);
* the ``spell_reaction`` decision: ``react:<spell>`` or ``no_reaction`` to an enemy spell (SP-G13);
* the preparation stance (SP-017, SP-036, SP-037, SP-038, SP-039): it holds the fighter's stance slot, forbids
  another stance and every relocation (a half-step or resisting one under Ma and Blade, SP-G10; a zone move), and its
  end
  by any stance-removal effect interrupts the spell (SP-047), as does failed focus resistance (SP-040);
* the casting check, failure, Karmic Retribution, forced dispersed spells and exhaustion (SP-028..SP-049);
* the effects of the spell catalog (SP-G01): attack, ward, dispel, buff, summon;
* observation fields ``sp_*`` and a rendering line.

Slots and known spells come from each caster's sheet (:mod:`.build`), fixed before the fight. Gap
decisions: ``docs/rules/spells.md``.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from issoku.rules.breath.content import Catalog
from issoku.rules.breath.costs import Modifier, final_cost
from issoku.rules.breath.modules import BreathModule, Order, Pending
from issoku.rules.breath.zones import ZonesModule
from issoku.rules.kernel.encoding import FieldEncoding, field, flag, one_hot, per_slot, ratio, scaled
from issoku.rules.ma.duel import HALF_STEP, RESIST
from issoku.rules.kernel.dice import CheckResult
from issoku.rules.spells.build import slot_pools
from issoku.rules.spells.casting import (BACKLASH_WOUNDS, EXHAUSTED_ENERGY, CastingCheck, focus_tn, is_forced,
                                         needs_focus, roll_casting_check, stage_timing_ok, structure_rule)
from issoku.rules.spells.content import SPELL_DANS, Caster, Spell, SpellContent, default_spell_content

if TYPE_CHECKING:
    from issoku.rules.breath.engine import Attack, BreathState
    from issoku.rules.breath.fighter import Fighter

CAST, CHANNEL, ACTIVATE, ABANDON, COMMAND, SQUAD, TRANSFER = ("cast", "channel", "activate", "abandon", "command",
                                                         "squad", "transfer")
REACT, NO_REACTION = "react", "no_reaction"
"""The answers to a spell aimed at a caster who knows a reactive spell (SP-G13)."""
SPELL_REACTION = "spell_reaction"
"""The module's decision kind: the target of a succeeding enemy spell may answer it (SP-G13)."""
"""The module's order kinds, named once."""
PREPARATION_STANCE = "spell_preparation"
"""The catalog stance a preparing caster holds (SP-017), from ``rules/spells/data/archetypes.toml``."""
TARGETED = frozenset({"attack", "dispel"})
"""Effects aimed at an enemy (SP-G13); the others act on the caster."""
RELOCATIONS = frozenset({HALF_STEP, RESIST, *ZonesModule.order_kinds})
"""Orders that relocate their fighter: forbidden while preparing (SP-037, SP-G10)."""
STANCE_ORDERS = frozenset({"stance", "release_stance"})
"""The engine's stance orders: the preparation holds the slot (SP-036); leaving it is ``abandon`` (SP-G06)."""
UNIT_ACTION_COST = 1
"""BR-032 / BR-G18: the Energy a caster pays for a summoned unit to strike (a control action)."""
UNIT_WOUNDS = 1
"""BR-G18: a unit's strike removes 1 Wound."""
MAX_UNITS = 2
"""BR-041: at most two control actions a round, so more than two units could never all act; a caster keeps two."""
ADVANCE, VOLLEY_FIRE, SHIELD_WALL = "advance", "volley_fire", "shield_wall"
"""BR-016/BR-077: the squad orders the seed names (SP-G14 gives them their effects)."""
SQUAD_ORDER_COST = 2
"""BR-077: a squad order costs 2 Energy..."""
WISE_SQUAD_ORDER_COST = 1
"""...or 1 when the orderer's Wisdom is 2 or more (BR-A03)."""
SQUAD_WISDOM = 2
"""BR-A03: the Wisdom that lowers a squad order to 1 Energy."""
ADVANCE_BONUS = 1
"""SP-G14: an advancing squad's volleys get +1 until the round ends (twice keeps one, BR-036)."""
SHIELD_WALL_DEFENSE = 1
"""SP-G14: a shield wall gives its commander +1 Defense until the round ends (stacks with a ward, BR-036)."""
TRANSFER_AMOUNT = 1
"""BR-031/BR-044: one order moves 1 Energy from the scholar to an ally, 1:1."""
FLEXIBLE = 0
"""The dan key of flexible slots (SP-G11) in a slot pool."""
WARD_SCALE = 5
"""The observation's divisor of ward and buff bonuses."""
SLOT_SCALE = 5
"""The observation's divisor of spell slots left."""


def _dan_name(dan: int) -> str:
    """A dan's part name in ``sp_own_slots`` (``dan_1``, ..., ``dan_10``: tatsujin)."""
    return f"dan_{dan}"



class Casting:
    """A spell in progress: which, at whom, how many stages paid, when, and the slot it took."""

    __slots__ = ("spell", "target", "paid", "rounds", "last_breath", "energy")

    def __init__(self, spell: Spell, target: int, round_no: int, breath_no: int, energy: int) -> None:
        self.spell = spell
        self.target = target
        self.paid = 1
        self.rounds = [round_no]
        self.last_breath = breath_no
        self.energy = energy

    def clone(self) -> "Casting":
        twin = Casting(self.spell, self.target, 0, self.last_breath, self.energy)
        twin.paid, twin.rounds = self.paid, list(self.rounds)
        return twin

    @property
    def next_is_last(self) -> bool:
        return self.paid == len(self.spell.stages) - 1


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class SpellsData:
    """Per-fight state, kept at ``state.ext[module.name]``; lists are by seat."""

    __slots__ = ("casters", "slots", "casting", "breath_no", "wards", "buffs", "exhausted", "units", "last_hit",
                 "squads", "advance", "shield")

    def __init__(self, casters: list[Caster | None], slots: list[dict[tuple[str, int], int] | None]) -> None:
        n = len(casters)
        self.casters = casters
        self.slots = slots
        """Remaining slots by (list, dan); dan 0 holds a list's flexible slots (SP-016, SP-G11)."""
        self.casting: list[Casting | None] = [None] * n
        self.breath_no = [0] * n
        """Breaths each fighter has begun: the beat a preparation stage must keep (SP-G05)."""
        self.wards = [0] * n
        self.buffs = [0] * n
        self.exhausted = [False] * n
        self.units: list[list[Spell]] = [[] for _ in range(n)]
        """Shikigami and puppets: moved by control actions (BR-041)."""
        self.last_hit = [0] * n
        self.squads: list[Spell | None] = [None] * n
        """A commander's squad: moved by squad orders (BR-042); one, since the orders name no squad (SP-G14)."""
        self.advance = [0] * n
        self.shield = [0] * n

    def clone(self) -> "SpellsData":
        twin = SpellsData.__new__(SpellsData)
        twin.casters = self.casters
        twin.slots = [dict(s) if s is not None else None for s in self.slots]
        twin.casting = [c.clone() if c is not None else None for c in self.casting]
        twin.breath_no = list(self.breath_no)
        twin.wards, twin.buffs = list(self.wards), list(self.buffs)
        twin.exhausted = list(self.exhausted)
        twin.units = [list(u) for u in self.units]
        twin.last_hit = list(self.last_hit)
        twin.squads, twin.advance, twin.shield = list(self.squads), list(self.advance), list(self.shield)
        return twin


class SpellsModule(BreathModule):
    """Seed 004 on the breath engine (see the module docstring)."""

    order_kinds: ClassVar[tuple[str, ...]] = (CAST, CHANNEL, ACTIVATE, ABANDON, COMMAND, SQUAD, TRANSFER, REACT, NO_REACTION)
    decision_kinds: ClassVar[tuple[str, ...]] = (SPELL_REACTION,)
    version = 1
    """Part of the module's name, so of every caster ruleset's fingerprint: stored games of older spell rules are
    not reused. 1: a preparing caster may cast an instant spell (SP-036)."""

    def __init__(self, content: SpellContent | None = None) -> None:
        self.content = content or default_spell_content()
        self.name = f"spells:{self.content.digest}:v{self.version}"
        self._orders: tuple[Order, ...] = ()
        self._spell_index = {key: i for i, key in enumerate(self.content.spells)}
        self._offsets: dict[str, int] = {}
        """Where each ``sp_*`` field starts in this ruleset's observation (a module serves one ruleset)."""
        self._known: dict[Caster, frozenset[str]] = {}
        """Each caster sheet's spells and studied spells, the only ones it may cast (sheets never change)."""

    # -- setup -----------------------------------------------------------------------------------
    def extra_orders(self, catalog: Catalog, max_targets: int) -> list[Order]:
        """Every catalog spell (one policy plays any caster), then the casting and control orders."""
        if PREPARATION_STANCE not in catalog.stances:
            raise ValueError("spells need the preparation stance: add rules/spells/data/archetypes.toml "
                             "to the breath data (issoku.rules.spells.spell_data)")
        targets = [()] if max_targets == 1 else [(f"enemy{i}",) for i in range(max_targets)]
        orders: list[Order] = []
        reactive = [spell.key for spell in self.content.spells.values() if spell.reactive]
        for spell in self.content.spells.values():
            if spell.reactive:
                continue
            orders += [(CAST, spell.key, *t) for t in targets] if spell.effect in TARGETED else [(CAST, spell.key)]
        orders += [(CHANNEL,), (ACTIVATE,), (ABANDON,)] + [(COMMAND, *t) for t in targets]
        if any(spell.unit == "squad" for spell in self.content.spells.values()):
            orders += [(SQUAD, ADVANCE), *[(SQUAD, VOLLEY_FIRE, *t) for t in targets], (SQUAD, SHIELD_WALL)]
        if max_targets > 1 and any(caster.transfer for caster in self.content.casters.values()):
            orders += [(TRANSFER, f"ally{i}") for i in range(max_targets - 1)]
        if reactive:
            orders += [(REACT, key) for key in reactive] + [(NO_REACTION,)]
        self._orders = tuple(orders)
        return orders

    def order_content(self, order: Order) -> tuple[str, ...]:
        """A cast or a reaction exercises its spell (``spell:<key>``)."""
        return (f"spell:{order[1]}",) if order[0] in (CAST, REACT) else ()

    def new_data(self, state: "BreathState") -> SpellsData:
        """Each caster's sheet and full slot pools (SP-009: a fight starts rested)."""
        casters = [self.content.casters.get(f.sheet.name) for f in state.fighters]
        slots: list[dict[tuple[str, int], int] | None] = []
        for caster in casters:
            if caster is None:
                slots.append(None)
                continue
            pools = slot_pools(caster, self.content.schools, self.content.classes)
            table: dict[tuple[str, int], int] = {}
            for name, pool in pools.items():
                for dan, count in pool.by_dan:
                    table[(name, dan)] = count
                table[(name, FLEXIBLE)] = pool.flexible
            slots.append(table)
        return SpellsData(casters, slots)

    # -- legality ----------------------------------------------------------------------------------
    def legal_key(self, state: "BreathState", fighter: "Fighter") -> tuple:
        """Slots left, the spell in progress and whether this breath already paid a stage, the units."""
        data: SpellsData = state.ext[self.name]
        seat = fighter.seat
        slots = data.slots[seat]
        casting = data.casting[seat]
        progress = None if casting is None else (casting.spell.key, casting.paid,
                                                 casting.last_breath == data.breath_no[seat])
        return (tuple(slots.values()) if slots is not None else None, progress, len(data.units[seat]),
                data.squads[seat] is not None)

    def legal_orders(self, state: "BreathState", fighter: "Fighter", orders: Sequence[Order]) -> set[Order]:
        """What ``fighter`` may cast, continue, activate, abandon or command now."""
        data: SpellsData = state.ext[self.name]
        seat = fighter.seat
        caster = data.casters[seat]
        if caster is None:
            return set()
        legal: set[Order] = set()
        casting = data.casting[seat]
        known = self._known.get(caster)
        if known is None:
            known = self._known[caster] = frozenset(caster.spells) | frozenset(caster.studied)
        for order in orders:  # a spell the caster does not know is never legal (``_can_cast``): not asked
            if order[0] == CAST and order[1] in known and self._can_cast(state, data, fighter, caster, order,
                                                                          preparing=casting is not None):
                legal.add(order)
        if casting is not None:
            legal.add((ABANDON,))
            stage = casting.spell.stages[casting.paid]
            if (stage_timing_ok(stage.mode, casting.last_breath, data.breath_no[seat])
                    and self._stage_price(state, fighter, caster, casting.spell, casting.paid)[0] <= fighter.energy):
                legal.add((ACTIVATE,) if casting.next_is_last else (CHANNEL,))
        if data.units[seat]:
            legal.update(o for o in orders if o[0] == COMMAND and self._can_command(state, data, fighter, o))
        if data.squads[seat] is not None:
            legal.update(o for o in orders if o[0] == SQUAD and self._can_order_squad(state, fighter, o))
        if caster.transfer and fighter.energy >= TRANSFER_AMOUNT:
            legal.update(o for o in orders if o[0] == TRANSFER and self._ally(state, fighter, o) is not None)
        return legal

    def order_legal(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """Whether ``fighter`` may play ``order`` now."""
        return order in self.legal_orders(state, fighter, (order,))

    def _can_cast(self, state: "BreathState", data: SpellsData, fighter: "Fighter", caster: Caster,
                  order: Order, preparing: bool = False) -> bool:
        """Whether ``fighter`` may begin ``order``'s spell; while ``preparing`` another, only a one-stage
        (instant) spell: a second preparation would be a second [stance] (SP-036), an instant one is none,
        and the text forbids nothing else (SP-036 decision in docs/rules/spells.md)."""
        spell = self.content.spells[order[1]]
        if preparing and len(spell.stages) > 1:
            return False
        if spell.key not in caster.spells and spell.key not in caster.studied:
            return False
        if self._slot_for(data, fighter.seat, spell) is None:
            return False
        if len(spell.stages) > 1 and fighter.defenseless:
            return False  # SP-039: a Defenseless fighter cannot hold the preparation stance
        if spell.effect in TARGETED and self._target(state, fighter, order) is None:
            return False
        if spell.unit == "squad" and data.squads[fighter.seat] is not None:
            return False
        if spell.unit in ("shikigami", "puppet") and len(data.units[fighter.seat]) >= MAX_UNITS:
            return False
        return self._stage_price(state, fighter, caster, spell, 0)[0] <= fighter.energy

    def _can_command(self, state: "BreathState", data: SpellsData, fighter: "Fighter", order: Order) -> bool:
        if self._target(state, fighter, order) is None:
            return False
        if self._unit_to_command(state, data, fighter) is None:
            return False
        return self._stage_cost(state, fighter, UNIT_ACTION_COST) <= fighter.energy

    def _can_order_squad(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """BR-042/BR-043: only a squad takes squad orders (a puppet never does); volley fire needs a target."""
        if order[1] == VOLLEY_FIRE and self._target(state, fighter, order) is None:
            return False
        return self._squad_order_price(state, fighter, order)[0] <= fighter.energy

    def _squad_order_price(self, state: "BreathState", fighter: "Fighter", order: Order) -> tuple[int, list[Modifier]]:
        """BR-077 (BR-A03): 2 Energy, 1 with Wisdom 2+; then Rule 2 with the modifiers (BR-045), the retainer
        command's −1 among them: it names squad orders, so it reaches them and nothing else (BR-046)."""
        base = WISE_SQUAD_ORDER_COST if fighter.sheet.wits >= SQUAD_WISDOM else SQUAD_ORDER_COST
        cost, modifiers = state.cost_of(fighter, None, order, base)
        sheet = state.ext[self.name].casters[fighter.seat]
        if sheet is None or not sheet.retainer_command:
            return cost, modifiers
        return final_cost(base, [*modifiers, ("retainer_command", -1)])

    @staticmethod
    def _ally(state: "BreathState", fighter: "Fighter", order: Order) -> "Fighter | None":
        """BR-044: the ``allyN``-th other fighter of the scholar's side, standing (a fighter has Energy of its
        own; units are never fighters, so no order can name one)."""
        sheets = state.ruleset.sheets
        allies = [seat for seat, sheet in enumerate(sheets)
                  if sheet.side == sheets[fighter.seat].side and seat != fighter.seat]
        slot = int(order[1][4:])
        ally = state.fighters[allies[slot]] if slot < len(allies) else None
        return None if ally is None or ally.defeated else ally

    def _unit_to_command(self, state: "BreathState", data: SpellsData, fighter: "Fighter") -> int | None:
        """BR-041: the first unit not yet controlled this round, within the shared 0-Energy cap."""
        for index in range(len(data.units[fighter.seat])):
            if state.zero_energy_allowed(fighter, f"control:{index}"):
                return index
        return None

    def _target(self, state: "BreathState", fighter: "Fighter", order: Order) -> "Fighter | None":
        slot = int(order[-1][5:]) if len(order) > 1 and str(order[-1]).startswith("enemy") else 0
        target = state.target_in_slot(fighter, slot)
        return None if target is None or not self._in_reach(state, fighter, target) else target

    @staticmethod
    def _in_reach(state: "BreathState", caster: "Fighter", target: "Fighter") -> bool:
        """SP-G13: a standing enemy in the caster's zone (on the skirmish's zone line); any rung under Ma."""
        zones = state.ext.get("zones")
        return not target.defeated and (zones is None or zones.zone[target.seat] == zones.zone[caster.seat])

    def _slot_for(self, data: SpellsData, seat: int, spell: Spell) -> tuple[str, int] | None:
        """SP-G04: a slot of exactly the spell's dan, else a flexible slot of its list (SP-G11)."""
        slots = data.slots[seat]
        if slots is None:
            return None
        for key in ((spell.list, spell.dan), (spell.list, FLEXIBLE)):
            if slots.get(key, 0) > 0:
                return key
        return None

    def _stage_cost(self, state: "BreathState", fighter: "Fighter", energy: int) -> int:
        return state.cost_of(fighter, None, (CAST,), energy)[0]

    def _stage_price(self, state: "BreathState", fighter: "Fighter", caster: Caster, spell: Spell,
                     index: int) -> tuple[int, list[Modifier]]:
        """A stage's Energy by Rule 2 (BR-045): the engine's and modules' modifiers, and on the activation
        stage the school perk the spell's body names (SP-063), then the floor of 1."""
        energy = spell.stages[index].energy
        cost, modifiers = state.cost_of(fighter, None, (CAST,), energy)
        discount = spell.perk_discount
        if discount is None or index != len(spell.stages) - 1 or caster.school != discount[0]:
            return cost, modifiers
        return final_cost(energy, [*modifiers, ("school_perk", -discount[1])])

    def may_veto(self, state: "BreathState", fighter: "Fighter") -> bool:
        """Only a caster preparing a spell is forbidden anything (:meth:`vetoes_order`)."""
        return state.ext[self.name].casting[fighter.seat] is not None

    def vetoes_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """While preparing: no other stance (SP-036), no release but ``abandon`` (SP-G06), no relocation
        (SP-037, SP-G10)."""
        if not self.may_veto(state, fighter):
            return False
        kind = order[0]
        return kind in STANCE_ORDERS or kind in RELOCATIONS

    # -- orders --------------------------------------------------------------------------------------
    def apply_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> None:
        """Carry out a casting or control order in ``fighter``'s breath."""
        data: SpellsData = state.ext[self.name]
        kind = order[0]
        if kind == CAST:
            self._begin(state, data, fighter, order)
        elif kind in (CHANNEL, ACTIVATE):
            casting = data.casting[fighter.seat]
            assert casting is not None
            self._pay_stage(state, data, fighter, casting, casting.paid)
            casting.paid += 1
            casting.rounds.append(state.round)
            casting.last_breath = data.breath_no[fighter.seat]
            if kind == ACTIVATE:
                self._activate(state, data, fighter, casting)
        elif kind == ABANDON:
            self._interrupt(state, data, fighter, "abandoned", "SP-G06")
        elif kind == SQUAD:
            self._squad_order(state, data, fighter, order)
        elif kind == TRANSFER:
            self._transfer(state, fighter, order)
        else:
            self._command(state, data, fighter, order)

    def _pay_stage(self, state: "BreathState", data: SpellsData, fighter: "Fighter", casting: Casting | None,
                   index: int, spell: Spell | None = None) -> int:
        spell = spell or casting.spell  # type: ignore[union-attr]
        stage = spell.stages[index]
        caster = data.casters[fighter.seat]
        assert caster is not None
        cost, modifiers = self._stage_price(state, fighter, caster, spell, index)
        # SP-045 / SP-G07 / SP-A02: the engine's pay runs its own overload check against the current limit
        what = f"{spell.key} stage {index + 1}/{len(spell.stages)} ({stage.mode})"
        perk = any(name == "school_perk" for name, _ in modifiers)
        state.pay(fighter, cost, "SP-063" if perk else structure_rule(spell), what, modifiers)
        if casting is not None:
            casting.energy += cost
        return cost

    def _begin(self, state: "BreathState", data: SpellsData, fighter: "Fighter", order: Order) -> None:
        spell = self.content.spells[order[1]]
        seat = fighter.seat
        slot = self._slot_for(data, seat, spell)
        assert slot is not None
        data.slots[seat][slot] -= 1  # type: ignore[index]
        target = self._target(state, fighter, order) if spell.effect in TARGETED else fighter
        state.emit("SP-G04", "slot_committed", seat, spell=spell.key, list=spell.list, dan=spell.dan,
                   flexible=slot[1] == FLEXIBLE, left=data.slots[seat][slot])  # type: ignore[index]
        cost = self._pay_stage(state, data, fighter, None, 0, spell)
        casting = Casting(spell, target.seat if target is not None else seat, state.round, data.breath_no[seat], cost)
        if len(spell.stages) == 1:
            self._activate(state, data, fighter, casting)
            return
        if fighter.stance is not None:
            state.emit("SP-036", "stance_replaced_by_preparation", seat, stance=fighter.stance.key)
        fighter.stance = state.ruleset.catalog.stances[PREPARATION_STANCE]
        data.casting[seat] = casting
        state.emit("SP-017", "preparation_begun", seat, spell=spell.key, notation=spell.notation,
                   stages=len(spell.stages))

    def _activate(self, state: "BreathState", data: SpellsData, caster: "Fighter", casting: Casting) -> None:
        """SP-035: the check at activation; then the effect, or failure (SP-046) and backlash (SP-048)."""
        seat = caster.seat
        spell = casting.spell
        if data.casting[seat] is casting:
            data.casting[seat] = None
            if caster.stance is not None and caster.stance.key == PREPARATION_STANCE:
                caster.stance = None
        check = self._casting_check(state, data, caster, spell)
        if check.success:
            state.emit("SP-035", "spell_activated", seat, spell=spell.key, energy=casting.energy)
            target = state.fighters[casting.target]
            if self._reactions(state, data, caster, target, spell):
                state.push(Pending(SPELL_REACTION, target.seat, (seat, spell.key), self))
            else:
                self._effect(state, data, caster, spell, target)
        else:
            state.emit("SP-046", "casting_failed", seat, spell=spell.key, energy_lost=casting.energy,
                       slot="consumed")
            if check.karmic:
                self._backlash(state, caster, spell)
        if is_forced(spell, casting.rounds):
            self._exhaust(state, data, caster, spell)

    @staticmethod
    def _casting_check(state: "BreathState", data: SpellsData, caster: "Fighter", spell: Spell) -> CastingCheck:
        """SP-028: 2d10 + Wisdom + the list's skill against the dan's TN (SP-029, SP-030, SP-031, SP-032, SP-033,
        SP-034), logged."""
        sheet = data.casters[caster.seat]
        assert sheet is not None
        check = roll_casting_check(state.dice, caster.sheet.wits, sheet.skill(spell.list), spell.dan,
                                   state.check_modifiers(caster))
        state.emit("SP-028", "casting_check", caster.seat, spell=spell.key, dice=check.dice,
                   modifiers=check.modifiers, total=check.total, target=check.target, tn_rule=_TN_RULE[spell.dan],
                   success=check.success)
        return check

    def _backlash(self, state: "BreathState", caster: "Fighter", spell: Spell) -> None:
        """SP-048 / SP-G08: 3 Wounds, and half an attack spell's Wounds (rounded down) turned on the caster;
        SP-049's GM side effects and the madness are logged, not played."""
        partial = spell.amount // 2 if spell.effect == "attack" else 0
        before = caster.wounds
        caster.wounds -= BACKLASH_WOUNDS + partial
        state.emit("SP-048", "karmic_retribution", caster.seat, spell=spell.key, wounds=BACKLASH_WOUNDS,
                   partial_effect=partial, before=before, after=caster.wounds)
        state.emit("SP-049", "gm_side_effect", caster.seat, spell=spell.key, played=False)
        state.check_defeat(caster)

    def _exhaust(self, state: "BreathState", data: SpellsData, caster: "Fighter", spell: Spell) -> None:
        """SP-041/SP-043: a forced dispersed spell exhausts its caster: stances and reservations vanish now;
        Energy 1 and Defenseless come with the next round (SP-042, SP-A05)."""
        data.exhausted[caster.seat] = True
        state.emit("SP-041", "exhaustion", caster.seat, spell=spell.key, reservations_lost=tuple(caster.reservations),
                   stance_lost=caster.stance.key if caster.stance is not None else None)
        caster.reservations.clear()
        caster.stance = None

    def _interrupt(self, state: "BreathState", data: SpellsData, caster: "Fighter", why: str, rule: str) -> None:
        """SP-047: the preparation Energy is lost, the effect never comes, the slot stays consumed (SP-A01:
        nothing recovers it within a fight)."""
        casting = data.casting[caster.seat]
        if casting is None:
            return
        data.casting[caster.seat] = None
        if caster.stance is not None and caster.stance.key == PREPARATION_STANCE:
            caster.stance = None
        state.emit(rule, "casting_interrupted", caster.seat, spell=casting.spell.key, why=why,
                   energy_lost=casting.energy, slot="consumed")
        if rule != "SP-047":
            state.emit("SP-047", "interruption_failure", caster.seat, spell=casting.spell.key)

    # -- reactions (SP-G13, SP-024) -------------------------------------------------------------------
    def _reactions(self, state: "BreathState", data: SpellsData, caster: "Fighter", target: "Fighter",
                   spell: Spell) -> list[Spell]:
        """The reactive spells ``target`` may answer ``spell`` with: an enemy's attack or dispel aimed at it
        and in reach; a known reactive spell with a slot and its improvised 1.5× Energy (BR-020, BR-G03);
        not while Defenseless (SP-043). A ward answers only an attack."""
        sheet = data.casters[target.seat]
        if (sheet is None or target is caster or spell.effect not in TARGETED or target.defenseless
                or not self._in_reach(state, caster, target)):
            return []
        return [r for r in self.content.spells.values()
                if r.reactive and (r.key in sheet.spells or r.key in sheet.studied)
                and (r.effect == "dispel" or spell.effect == "attack")
                and self._slot_for(data, target.seat, r) is not None
                and self._reaction_price(state, target, r)[0] <= target.energy]

    @staticmethod
    def _reaction_price(state: "BreathState", fighter: "Fighter", spell: Spell) -> tuple[int, list[Modifier]]:
        return state.cost_of(fighter, None, (REACT, spell.key), spell.stages[0].energy, improvised=True)

    def pending_legal(self, state: "BreathState", pending: Pending, order: Order) -> bool:
        """``no_reaction`` always; ``react:<spell>`` for a reactive spell the target may cast now."""
        if order[0] == NO_REACTION:
            return True
        if order[0] != REACT:
            return False
        data: SpellsData = state.ext[self.name]
        caster_seat, key = pending.context
        reactions = self._reactions(state, data, state.fighters[caster_seat], state.fighters[pending.seat],
                                    self.content.spells[key])
        return any(r.key == order[1] for r in reactions)

    def resolve_pending(self, state: "BreathState", pending: Pending, order: Order) -> None:
        """The reaction (SP-G13): commit its slot (SP-G04), pay 1.5× out of the breath (BR-020), roll its
        casting check (SP-028); a dispel that succeeds stops the enemy spell, a ward takes its amount off
        the attack's Wounds; then the enemy spell lands as it is left."""
        data: SpellsData = state.ext[self.name]
        caster_seat, key = pending.context
        caster, target, spell = state.fighters[caster_seat], state.fighters[pending.seat], self.content.spells[key]
        if order[0] == NO_REACTION:
            self._effect(state, data, caster, spell, target)
            return
        reaction = self.content.spells[order[1]]
        seat = target.seat
        slot = self._slot_for(data, seat, reaction)
        assert slot is not None
        data.slots[seat][slot] -= 1  # type: ignore[index]
        state.emit("SP-G04", "slot_committed", seat, spell=reaction.key, list=reaction.list, dan=reaction.dan,
                   flexible=slot[1] == FLEXIBLE, left=data.slots[seat][slot])  # type: ignore[index]
        cost, modifiers = self._reaction_price(state, target, reaction)
        state.pay(target, cost, "SP-G13", f"react {reaction.key} (improvised)", modifiers, in_breath=False)
        check = self._casting_check(state, data, target, reaction)
        ward = 0
        if not check.success:
            state.emit("SP-046", "casting_failed", seat, spell=reaction.key, energy_lost=cost, slot="consumed")
            if check.karmic:
                self._backlash(state, target, reaction)
        elif reaction.effect == "dispel":
            state.emit("SP-G13", "spell_countered", seat, spell=spell.key, caster=caster_seat, by=reaction.key)
            return
        else:
            ward = reaction.amount
            state.emit("SP-G13", "spell_warded", seat, spell=spell.key, caster=caster_seat, by=reaction.key,
                       wounds_stopped=min(ward, spell.amount))
        if not target.defeated:
            self._effect(state, data, caster, spell, target, ward)

    # -- effects (SP-G01) ------------------------------------------------------------------------------
    def _effect(self, state: "BreathState", data: SpellsData, caster: "Fighter", spell: Spell,
                target: "Fighter", ward: int = 0) -> None:
        """Apply ``spell``'s effect; ``ward``: Wounds a reactive ward took off an attack (SP-G13)."""
        effect = spell.effect
        if effect in TARGETED and target is not caster and not self._in_reach(state, caster, target):
            state.emit("SP-G13", "spell_no_target", caster.seat, spell=spell.key, target=target.seat)
            return
        if effect == "attack":
            wounds = max(0, spell.amount - ward)
            before = target.wounds
            target.wounds -= wounds
            state.emit("SP-G01", "spell_hit", caster.seat, spell=spell.key, target=target.seat, wounds=wounds,
                       before=before, after=target.wounds)
            state.check_defeat(target)
            if not target.defeated and data.casting[target.seat] is not None and needs_focus(wounds, False):
                self._focus(state, data, target, wounds)
        elif effect == "ward":
            data.wards[caster.seat] = max(data.wards[caster.seat], spell.amount)
            state.emit("SP-G01", "ward", caster.seat, spell=spell.key, defense=data.wards[caster.seat])
        elif effect == "buff":
            data.buffs[caster.seat] = max(data.buffs[caster.seat], spell.amount)
            state.emit("SP-G01", "buff", caster.seat, spell=spell.key, bonus=data.buffs[caster.seat])
        elif effect == "dispel":
            if data.casting[target.seat] is not None:
                self._interrupt(state, data, target, "dispelled", "SP-039")
            else:
                state.emit("SP-G01", "dispel", caster.seat, spell=spell.key, target=target.seat,
                           ward_lost=data.wards[target.seat], buff_lost=data.buffs[target.seat])
                data.wards[target.seat] = data.buffs[target.seat] = 0
        elif spell.unit == "squad":
            data.squads[caster.seat] = spell
            state.emit("BR-042", "unit_summoned", caster.seat, spell=spell.key, unit="squad", unit_energy=0,
                       units=1)
        else:
            data.units[caster.seat].append(spell)
            state.emit("BR-032", "unit_summoned", caster.seat, spell=spell.key, unit=spell.unit, unit_energy=0,
                       units=len(data.units[caster.seat]))

    def _focus(self, state: "BreathState", data: SpellsData, caster: "Fighter", wounds: int) -> None:
        """SP-040: 2d10 + Physique + Hardiness ≥ 10 + breach Wounds, or the casting is interrupted."""
        sheet = data.casters[caster.seat]
        hardiness = sheet.skill("hardiness") if sheet is not None else 0
        extra = state.check_modifiers(caster)
        check: CheckResult = state.dice.check(caster.sheet.physique + hardiness + sum(d for _, d in extra),
                                             focus_tn(wounds))
        state.emit("SP-040", "focus_resistance", caster.seat, dice=check.dice, physique=caster.sheet.physique,
                   hardiness=hardiness, total=check.total, target=check.target, success=check.success)
        if not check.success:
            self._interrupt(state, data, caster, "focus", "SP-047")

    def _command(self, state: "BreathState", data: SpellsData, fighter: "Fighter", order: Order) -> None:
        """BR-040/BR-041/BR-032: a control action; the caster pays the unit's Energy, the unit has none; the
        strike is 2d10 + the unit's bonus against Defense, no defense technique meets it (BR-G18)."""
        index = self._unit_to_command(state, data, fighter)
        assert index is not None
        unit = data.units[fighter.seat][index]
        cost, modifiers = state.cost_of(fighter, None, order, UNIT_ACTION_COST)
        state.pay(fighter, cost, "BR-032", f"command {unit.key}", modifiers)
        effect = f"control:{index}"
        fighter.zero_energy_used.append(effect)
        state.emit("BR-041", "control_action", fighter.seat, unit=unit.key, used_this_round=len(fighter.zero_energy_used))
        self._unit_strike(state, data, fighter, order, unit, unit.amount)

    def _squad_order(self, state: "BreathState", data: SpellsData, fighter: "Fighter", order: Order) -> None:
        """BR-042: a squad order on its own track (no 0-Energy cap), paid in the breath (BR-016, BR-077);
        its effect is SP-G14's."""
        squad = data.squads[fighter.seat]
        assert squad is not None
        cost, modifiers = self._squad_order_price(state, fighter, order)
        state.pay(fighter, cost, "BR-077", f"squad order {order[1]}", modifiers)
        state.emit("BR-042", "squad_order", fighter.seat, unit=squad.key, order=order[1], cost=cost)
        seat = fighter.seat
        if order[1] == ADVANCE:
            data.advance[seat] = ADVANCE_BONUS
        elif order[1] == SHIELD_WALL:
            data.shield[seat] = SHIELD_WALL_DEFENSE
        else:
            self._unit_strike(state, data, fighter, order, squad, squad.amount + data.advance[seat])

    def _transfer(self, state: "BreathState", fighter: "Fighter", order: Order) -> None:
        """BR-031/BR-044 (BR-G18): the scholar pays in its breath, the ally gains the same as normal Energy,
        and the ally's 0-Energy cap stays its own."""
        ally = self._ally(state, fighter, order)
        assert ally is not None
        state.pay(fighter, TRANSFER_AMOUNT, "BR-031", f"transfer to {state.ruleset.seat_names[ally.seat]}")
        before = ally.energy
        ally.energy += TRANSFER_AMOUNT
        state.emit("BR-044", "energy_transferred", fighter.seat, to=ally.seat, amount=TRANSFER_AMOUNT,
                   before=before, after=ally.energy)

    def _unit_strike(self, state: "BreathState", data: SpellsData, fighter: "Fighter", order: Order, unit: Spell,
                     bonus: int) -> None:
        """BR-040 / BR-G18: 2d10 + the unit's bonus against Defense (ward and shield wall in); a hit removes
        1 Wound and no defense technique meets it (a unit carries no weapon)."""
        target = self._target(state, fighter, order)
        assert target is not None
        defense = state.defense_of(target, 0, data.wards[target.seat] + data.shield[target.seat])
        check = state.dice.check(bonus, defense)
        state.emit("BR-040", "unit_strike", fighter.seat, unit=unit.key, target=target.seat, dice=check.dice,
                   bonus=bonus, total=check.total, defense=defense, hit=check.success)
        if check.success:
            before = target.wounds
            target.wounds -= UNIT_WOUNDS
            state.emit("BR-G18", "hit", fighter.seat, target=target.seat, technique=unit.key, wounds=UNIT_WOUNDS,
                       critical=False, before=before, after=target.wounds)
            state.check_defeat(target)

    # -- the rules' arithmetic ---------------------------------------------------------------------------
    def attack_modifiers(self, state: "BreathState", attack: "Attack") -> list[Modifier]:
        """A buff spell's bonus on the caster's attack checks this round (SP-G01)."""
        bonus = state.ext[self.name].buffs[attack.attacker.seat]
        return [("spell_buff", bonus)] if bonus else []

    def defense_modifiers(self, state: "BreathState", attack: "Attack") -> tuple[int, int]:
        """A ward spell's Defense and a squad's shield wall this round (SP-G01, SP-G14; different names
        stack, BR-036)."""
        data: SpellsData = state.ext[self.name]
        return data.wards[attack.target.seat] + data.shield[attack.target.seat], 0

    def hit_wounds(self, state: "BreathState", attack: "Attack", wounds: int) -> int:
        """Remember the breach Wounds for focus resistance (SP-040, SP-G09); the module runs last."""
        state.ext[self.name].last_hit[attack.target.seat] = wounds
        return wounds

    def after_attack(self, state: "BreathState", attack: "Attack", hit: bool) -> None:
        """SP-040: a Critical or a 2+ Wound hit on a preparing caster calls for focus resistance."""
        data: SpellsData = state.ext[self.name]
        target = attack.target
        if hit and not target.defeated and data.casting[target.seat] is not None:
            wounds = data.last_hit[target.seat]
            if needs_focus(wounds, attack.critical):
                self._focus(state, data, target, wounds)

    def on_stance_end(self, state: "BreathState", fighter: "Fighter", why: str) -> None:
        """SP-039: a stance-removal effect (Defenseless...) interrupts the casting (SP-047)."""
        data: SpellsData = state.ext[self.name]
        if data.casting[fighter.seat] is not None:
            self._interrupt(state, data, fighter, why, "SP-039")

    # -- the timeline --------------------------------------------------------------------------------------
    def on_breath_start(self, state: "BreathState", fighter: "Fighter") -> None:
        """Count the fighter's breaths: the beat of preparation stages (SP-G05)."""
        state.ext[self.name].breath_no[fighter.seat] += 1

    def on_lull(self, state: "BreathState") -> None:
        """Wards and buffs last until the round ends (SP-G01)."""
        data: SpellsData = state.ext[self.name]
        for seat in range(len(data.wards)):
            data.wards[seat] = data.buffs[seat] = data.advance[seat] = data.shield[seat] = 0

    def on_round_start(self, state: "BreathState") -> None:
        """SP-042/SP-043 (SP-A05): an exhausted caster starts this round at Energy 1, Defenseless; the next
        round resets as usual."""
        data: SpellsData = state.ext[self.name]
        for seat, exhausted in enumerate(data.exhausted):
            if exhausted:
                fighter = state.fighters[seat]
                data.exhausted[seat] = False
                before = fighter.energy
                fighter.energy = EXHAUSTED_ENERGY
                state.emit("SP-042", "exhausted_round", seat, energy_before=before, energy=fighter.energy)
                fighter.defenseless = True
                fighter.reservations.clear()
                fighter.stance = None
                state.emit("SP-043", "defenseless", seat, rounds=1)

    # -- observation -------------------------------------------------------------------------------------
    def observation_fields(self, num_fighters: int) -> Sequence[tuple[str, int, float, float]]:
        """Per fighter, ego first: preparing, progress, ward (with a shield wall), buff, units, squad, exhausted (what the table sees:
        the stance and its beat, not the spell); then the observer's own spell in progress (one-hot over
        the catalog) and slots left per dan (SP-016: summed over lists; flexible last)."""
        n = num_fighters
        return (("sp_preparing", n, 0.0, 1.0), ("sp_progress", n, 0.0, 1.0), ("sp_ward", n, 0.0, 1.0),
                ("sp_buff", n, 0.0, 1.0), ("sp_units", n, 0.0, 1.0), ("sp_squad", n, 0.0, 1.0),
                ("sp_exhausted", n, 0.0, 1.0),
                ("sp_own_spell", len(self.content.spells), 0.0, 1.0), ("sp_own_slots", len(SPELL_DANS) + 1, 0.0, 1.0))

    def observation_encodings(self, slots: Sequence[str]) -> Sequence[FieldEncoding]:
        """What fills the ``sp_*`` fields; ``sp_own_slots`` sums a dan's slots over the caster's lists (SP-016)."""
        return (
            per_slot(flag("preparing", "preparing a spell (SP-017)"), "preparing a spell", slots),
            per_slot(ratio("progress", "[stages paid, the spell's stages]; [0, 0] when not preparing", clip=False),
                     "the preparation's progress", slots),
            per_slot(scaled("ward", WARD_SCALE, "ward bonus, a shield wall's included (until the round ends)"),
                     "ward", slots),
            per_slot(scaled("buff", WARD_SCALE, "buff bonus (until the round ends)"), "buff", slots),
            per_slot(scaled("units", MAX_UNITS, "shikigami and puppets summoned", clip=False), "units", slots),
            per_slot(flag("squad", "commands a squad"), "a squad", slots),
            per_slot(flag("exhausted", "exhausted: the next round starts at Energy 1 (SP-042)"), "exhausted", slots),
            field("the observer's spell in preparation (none otherwise)",
                  one_hot("spell", tuple(self._spell_index), "the spell's key")),
            field("the observer's spell slots left per dan, summed over its lists (all 0: not a caster)",
                  *(scaled(_dan_name(dan), SLOT_SCALE, f"slots of dan {dan} left") for dan in SPELL_DANS),
                  scaled("flexible", SLOT_SCALE, "flexible slots left (SP-G11)")),
        )

    def describe_observation(self, state: "BreathState", order: Sequence[int | None]) -> dict[str, Any]:
        """The game values of the ``sp_*`` fields for the observer whose slots are ``order``."""
        data: SpellsData = state.ext[self.name]
        castings = [None if seat is None else data.casting[seat] for seat in order]

        def each(name: str, value: Callable[[int], Any]) -> list[dict[str, Any] | None]:
            return [None if seat is None else {name: value(seat)} for seat in order]

        values: dict[str, Any] = {
            "sp_preparing": each("preparing", lambda seat: data.casting[seat] is not None),
            "sp_progress": [None if seat is None else {"progress": [0, 0] if casting is None else
                                                       [casting.paid, len(casting.spell.stages)]}
                            for seat, casting in zip(order, castings)],
            "sp_ward": each("ward", lambda seat: data.wards[seat] + data.shield[seat]),
            "sp_buff": each("buff", lambda seat: data.buffs[seat]),
            "sp_units": each("units", lambda seat: len(data.units[seat])),
            "sp_squad": each("squad", lambda seat: data.squads[seat] is not None),
            "sp_exhausted": each("exhausted", lambda seat: data.exhausted[seat]),
        }
        me = order[0]  # the observer's slot is never empty
        casting = data.casting[me]  # type: ignore[index]
        values["sp_own_spell"] = {"spell": None if casting is None else casting.spell.key}
        left = {name: 0 for name in (*map(_dan_name, SPELL_DANS), "flexible")}
        for (_, dan), count in (data.slots[me] or {}).items():  # type: ignore[index]
            left["flexible" if dan == FLEXIBLE else _dan_name(dan)] += count
        values["sp_own_slots"] = left
        return values

    def write_observation(self, state: "BreathState", order: Sequence[int | None], out: MutableSequence[float]) -> None:
        """Fill the ``sp_*`` fields."""
        at = self._offsets
        if not at:
            spec = state.ruleset.observation_spec
            at.update({name: spec.slice(name).start for name, *_ in self.observation_fields(0)})
        data: SpellsData = state.ext[self.name]
        # Runs on every env step: offsets in locals, and a zero is never stored (``out`` holds zeros there).
        preparing, progress, ward, buff, units_at, squad, exhausted = (
            at["sp_preparing"], at["sp_progress"], at["sp_ward"], at["sp_buff"], at["sp_units"], at["sp_squad"],
            at["sp_exhausted"])
        castings, wards, shields, buffs, units, squads, tired = (data.casting, data.wards, data.shield, data.buffs,
                                                                 data.units, data.squads, data.exhausted)
        for slot, seat in enumerate(order):
            if seat is None:
                continue
            casting = castings[seat]
            if casting is not None:
                out[preparing + slot] = 1.0
                out[progress + slot] = casting.paid / len(casting.spell.stages)
            x = wards[seat] + shields[seat]
            if x:
                out[ward + slot] = min(1.0, x / WARD_SCALE)
            x = buffs[seat]
            if x:
                out[buff + slot] = min(1.0, x / WARD_SCALE)
            x = len(units[seat])
            if x:
                out[units_at + slot] = x / MAX_UNITS
            if squads[seat] is not None:
                out[squad + slot] = 1.0
            if tired[seat]:
                out[exhausted + slot] = 1.0
        me = order[0]
        if me is None:
            return
        casting = data.casting[me]
        if casting is not None:
            out[at["sp_own_spell"] + self._spell_index[casting.spell.key]] = 1.0
        slots = data.slots[me]
        if slots is not None:
            for (_, dan), left in slots.items():
                index = len(SPELL_DANS) if dan == FLEXIBLE else SPELL_DANS.index(dan)
                # float32 sums of left / 5, which equal the float32 of the sum / 5 (the encoding's; a test holds it)
                out[at["sp_own_slots"] + index] = min(1.0, out[at["sp_own_slots"] + index] + left / SLOT_SCALE)

    def render_line(self, state: "BreathState") -> str:
        """``  spells: player_0 preparing thunder_seal 1/2 (slots 1:3 3:1)  player_1 -``."""
        data: SpellsData = state.ext[self.name]
        parts = []
        for seat, name in enumerate(state.ruleset.seat_names):
            if data.casters[seat] is None:
                continue
            casting = data.casting[seat]
            doing = f"preparing {casting.spell.key} {casting.paid}/{len(casting.spell.stages)}" if casting else "-"
            slots = " ".join(f"{lst[:3]}{dan or '*'}:{left}" for (lst, dan), left in (data.slots[seat] or {}).items()
                             if left)
            extra = "".join(f" {label}+{value}" for label, value in (("ward", data.wards[seat]),
                                                                      ("buff", data.buffs[seat])) if value)
            units = f" units {len(data.units[seat])}" if data.units[seat] else ""
            units += " squad" if data.squads[seat] is not None else ""
            parts.append(f"{name} {doing} (slots {slots}){extra}{units}")
        return "  spells: " + "  ".join(parts) if parts else ""


_TN_RULE = {1: "SP-029", 3: "SP-030", 5: "SP-031", 7: "SP-032", 9: "SP-033", 10: "SP-034"}


__all__ = ["ABANDON", "ACTIVATE", "CAST", "CHANNEL", "COMMAND", "Casting", "PREPARATION_STANCE", "SpellsData",
           "SpellsModule"]
