"""One tempo fight in progress: the 003 action round as a state machine (TP-001..TP-058), for a duel or a skirmish.

A turn is a loop of exchanges. The turn's fighter *acts* (declares a proactive action and pays for
it, TP-004), the opponent may *react* (TP-005), the actor may *counter* with a counter-tempo
replacement paying only the difference (TP-006), then the exchange resolves: unopposed against the
action's table (TP-007) or opposed by subtracting results, each side reading its own table (TP-008).
Passing at the act decision ends the turn with Recover Stamina (TP-009); after both turns the round
counter rises (TP-010). Each of the three decisions is one ``apply`` by the seat that makes it;
a decision whose only legal action is ``pass`` is taken automatically, except a counter decision
after a Parry or Counter-Attack against a declared Melee Attack, which is always asked so that its
existence does not reveal a feint (TP-G13).

The same machine plays both set-ups of :mod:`issoku.rules.tempo.ruleset`. In the duel everything aims at
the one opponent across one ``distance``. In a skirmish (``ruleset.many``) fighters stand on a grid
(``pos``, TP-G07), targeted orders name an enemy slot, a Move, Combat Move or Aim may draw reactions from
several opponents, asked one at a time in turn order, each resolving pairwise against the actor's one
roll (TP-G08), and binds and grapples hold between two *partners* (TP-G10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr
import numpy as np

from issoku.rules.kernel import Dice, EventLog, IllegalActionError
from issoku.rules.tempo import grid
from issoku.rules.tempo import tables as t
from issoku.rules.tempo.actions import (
    BOUND,
    CLOSE,
    ENDURANCE,
    FEINT_COUNTER_BONUS,
    GRAPPLED,
    MOVE,
    OFF_GUARD,
    ON_GUARD,
    PARTNER_TECHNIQUES,
    PASS,
    PINNED,
    STATUS_NAMES,
    STOP,
    STRIKE,
    UNARMED_COUNTER_BONUS,
    Technique,
)
from issoku.rules.tempo.content import UNARMED_KIND
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.observation import describe, encode
from issoku.rules.tempo.skirmish_observation import describe_skirmish, encode_skirmish

if TYPE_CHECKING:
    from issoku.rules.tempo.actions import ActionTable
    from issoku.rules.tempo.loadout import Loadout
    from issoku.rules.tempo.ruleset import TempoRules

ACT, REACT, COUNTER, OVER = range(4)

_STOPPING = (t.SUCCESS, t.BIND)
_MOVES_AND_AIM = frozenset({"move", "combat_move", "aim"})
"""TP-G08: the declarations every opponent may answer (within reach or range); any other only its target."""
_BOUND_TOGETHER = (BOUND, GRAPPLED)


def counter_tempo_payment(original_cost: int, replacement_cost: int) -> int:
    """TP-006 / TP-A03: AP paid on replacing, so that the total paid is the larger of the two costs."""
    return max(0, replacement_cost - original_cost)


def public_technique(technique: Technique | None) -> str:
    """The technique an opponent sees declared: a Feint is declared as a Melee Attack (TP-027)."""
    assert technique is not None
    return "melee_attack" if technique.name == "feint" else technique.name



def aimed_seat(table: "ActionTable", enemies: tuple[int, ...], partner: int, flat_action: int) -> int:
    """The seat ``flat_action`` aims at, for a fighter with these ``enemies`` (by slot) and bind or grapple
    ``partner`` (-1 for none): its enemy slot's fighter (-1 for an empty slot), the partner for a partner
    technique, else the first enemy (the duel's opponent)."""
    slot = table.target_of[flat_action]
    if slot is not None:
        return enemies[slot] if slot < len(enemies) else -1
    technique = table.technique_of[flat_action]
    if technique is not None and technique.name in PARTNER_TECHNIQUES and partner >= 0:
        return partner
    return enemies[0]

@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class TempoState:
    """A tempo fight (see the module docstring for the decision cycle)."""

    __slots__ = ("ruleset", "events", "_dice", "hp", "ap", "status", "partner", "disarmed", "aimed", "loaded",
                 "distance", "pos", "round", "order", "turn_index", "phase", "declared", "target", "paid",
                 "aim_used", "reactions", "pending", "asking", "counter", "_legal")

    def __init__(self, ruleset: "TempoRules", dice: Dice, events: EventLog) -> None:
        self.ruleset = ruleset
        self.events = events
        self._dice = dice
        seats = range(len(ruleset.fighters))
        self.hp = [ruleset.loadouts[seat][0].max_health for seat in seats]
        self.ap = [ruleset.ap_per_round for _ in seats]                                 # TP-001, TP-G05
        self.disarmed = [False for _ in seats]
        self.aimed = [False for _ in seats]
        self.loaded = [True for _ in seats]
        self.partner = [-1 for _ in seats]     # the fighter one is bound or grappled with (TP-G10)
        self.distance = ruleset.start_distance  # the duel's one distance (TP-G07)
        self.pos: list[grid.Square] | None = None
        if ruleset.many:                        # the skirmish's grid (TP-G07)
            per_side = (ruleset.seat_teams.count(0), ruleset.seat_teams.count(1))
            self.pos = grid.line_up(per_side, ruleset.start_distance, ruleset.max_distance + 1)
        self.round = 0                                                                  # TP-010
        self.turn_index = 0
        self.phase = ACT
        self.declared = -1        # the flat proactive action of the current exchange (private if a feint)
        self.target = -1          # the seat it aims at (a bound partner, an enemy slot, the duel's opponent)
        self.paid = 0
        self.aim_used = False
        self.reactions: list[tuple[int, int]] = []    # (reactor, flat reaction) in the order declared
        self.pending: list[int] = []                  # opponents still to be asked to react (TP-G08)
        self.asking = -1
        self.counter = -1
        self._legal: list[int] = []
        self.order = self._roll_initiative()
        self.status = self._starting_statuses()
        self.events.emit("TP-010", "round_start", None, round=0)
        self._begin_turn()

    # ----------------------------------------------------------------- protocol

    def current_seat(self) -> int | None:
        """The seat whose decision it is (the reactor being asked during a reaction), None once over."""
        if self.phase == OVER:
            return None
        return self.asking if self.phase == REACT else self.order[self.turn_index]

    def decision_kind(self) -> str:
        """``"act"``, ``"react"`` or ``"counter"``."""
        return DECISION_KINDS[self.phase] if self.phase != OVER else "over"

    def legal_actions(self) -> list[int]:
        """Ascending legal flat actions; always includes ``pass`` while the fight goes on."""
        return list(self._legal)

    def apply(self, flat_action: int) -> None:
        """Play one decision of the current seat (TP-004, TP-005, TP-006); raises IllegalActionError otherwise."""
        if flat_action not in self._legal:
            raise IllegalActionError(flat_action, self._legal, self.ruleset.action_names, self.decision_kind())
        phase = self.phase
        if phase == ACT:
            if flat_action == PASS:
                self._end_turn()
            else:
                self._declare(flat_action)
        elif phase == REACT:
            if flat_action != PASS:
                self._react(flat_action)
            self._ask_next_reactor()
        elif flat_action == PASS:
            self._resolve()
        else:
            self._replace(flat_action)

    def is_terminal(self) -> bool:
        """A side has no fighter standing (TP-G03, TP-G14)."""
        if min(self.hp) > 0:        # nobody has fallen (most steps): no side can be down
            return False
        return self._side_down(0) or self._side_down(1)

    def is_truncated(self) -> bool:
        """The round limit ended the fight undecided (TP-G14)."""
        return self.phase == OVER and not self.is_terminal()

    def is_eliminated(self, seat: int) -> bool:
        """The seat's fighter is at 0 Health."""
        return self.hp[seat] <= 0

    def returns(self) -> tuple[float, ...]:
        """Per seat its side's result: +1 / -1 for a side defeated, 0 for both at once, a truncation or a fight
        in progress."""
        down0, down1 = self._side_down(0), self._side_down(1)
        if down0 == down1:
            return tuple(0.0 for _ in self.hp)
        winner = 1 if down0 else 0
        return tuple(1.0 if side == winner else -1.0 for side in self.ruleset.seat_teams)

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know, ego-centric (:mod:`~issoku.rules.tempo.observation` in the duel,
        :mod:`~issoku.rules.tempo.skirmish_observation` in a skirmish)."""
        return encode_skirmish(self, seat) if self.pos is not None else encode(self, seat)

    def describe_observation(self, seat: int) -> dict[str, Any]:
        """The game values ``observation(seat)`` is made of, in the terms of the ruleset's encodings."""
        return describe_skirmish(self, seat) if self.pos is not None else describe(self, seat)

    def clone(self) -> "TempoState":
        """An independent copy, dice and event log included."""
        copy = TempoState.__new__(TempoState)
        copy.ruleset = self.ruleset
        copy.events = self.events.clone()
        copy._dice = self._dice.clone()
        for name in ("hp", "ap", "status", "partner", "disarmed", "aimed", "loaded", "reactions", "pending",
                     "_legal"):
            setattr(copy, name, list(getattr(self, name)))
        copy.pos = None if self.pos is None else list(self.pos)
        for name in ("distance", "round", "order", "turn_index", "phase", "declared", "target", "paid",
                     "aim_used", "asking", "counter"):
            setattr(copy, name, getattr(self, name))
        return copy

    def set_dice(self, dice: Dice) -> None:
        """Draw chance from ``dice`` from now on (the kernel's chance hook): search resamples the future rolls
        through this, so that it never plans on the seeded dice it cannot know."""
        self._dice = dice

    def health_fractions(self) -> tuple[float, ...]:
        """Each seat's Health left as a share of its full Health (TP-G03), 0 for a fallen fighter."""
        return tuple(max(0, hp) / self.ruleset.loadouts[seat][0].max_health for seat, hp in enumerate(self.hp))

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> None:
        """Redraw what ``seat`` cannot see (TP-027: a Feint is declared as a Melee Attack): the declared action of
        an exchange in progress that another seat made, among the actions that read the same to ``seat`` (the
        same public name and target, the same AP paid). A search plays its samples from this, never the secret.

        Exactly one number is drawn from ``rng`` whatever the state, so two states that ``seat`` cannot tell
        apart leave ``rng`` at the same point."""
        draw = rng.random()
        declarer = self.actor() if self.phase in (REACT, COUNTER) else seat
        if self.declared < 0 or declarer == seat:
            return
        table, costs = self.ruleset.table, self.loadout(declarer).costs
        public = self._public_name(self.declared)
        alike = [a for a in range(len(table.names)) if costs[a] == self.paid and self._public_name(a) == public
                 and table.technique_of[a] is not None and self.target_of(declarer, a) == self.target]
        self.declared = alike[int(draw * len(alike))]

    def action_cost(self, flat_action: int) -> str | None:
        """What ``flat_action`` costs the seat deciding now (the optional menu hook, for a person choosing):
        its AP (TP-004/TP-005); a counter-tempo pays only what it costs beyond the declared action (TP-006)."""
        seat = self.current_seat()
        if seat is None:
            return None
        cost = self.loadout(seat).costs[flat_action]
        assert cost is not None
        return f"{counter_tempo_payment(self.paid, cost) if self.phase == COUNTER else cost} AP"

    def render_text(self) -> str:
        """A spectator's picture (the env adapter's render hook): public facts only, a feint shown as an attack."""
        names = self.ruleset.seat_names
        where = f"distance {self.distance}" if self.pos is None else "grid"
        lines = [f"round {self.round}  {where}  turn: {names[self.actor()]}"]
        for seat in range(len(self.hp)):
            lo = self.loadout(seat)
            flags = [flag for flag, on in (("disarmed", self.disarmed[seat]), ("aimed", self.aimed[seat]),
                                           ("unloaded", not self.loaded[seat])) if on]
            if self.pos is not None:
                flags.insert(0, f"at {self.pos[seat]}")
            lines.append(f"  {names[seat]:<10} {lo.fighter.name:<14} {lo.weapon.name:<13} "
                         f"health {self.hp[seat]:>2}/{lo.max_health:<2} AP {self.ap[seat]:>2}  "
                         f"{STATUS_NAMES[self.status[seat]]} {' '.join(flags)}".rstrip())
        if self.declared >= 0:
            declared = self._public_name(self.declared)
            if self.pos is not None:
                declared += f" at {names[self.target]}"
            answers = ", ".join(self.ruleset.action_names[a] + ("" if self.pos is None else f" by {names[r]}")
                                for r, a in self.reactions)
            lines.append(f"  declared: {declared}" + (f", answered by {answers}" if answers else ""))
        return "\n".join(lines)

    # ----------------------------------------------------------------- public helpers

    @property
    def reaction(self) -> int:
        """The first reaction declared in the exchange (the duel's one), -1 if none."""
        return self.reactions[0][1] if self.reactions else -1

    def actor(self) -> int:
        """The seat whose turn it is."""
        return self.order[self.turn_index]

    def loadout(self, seat: int) -> "Loadout":
        """The seat's current :class:`~issoku.rules.tempo.loadout.Loadout` (bare hands once disarmed)."""
        return self.ruleset.loadouts[seat][self.disarmed[seat]]

    def distance_between(self, a: int, b: int) -> int:
        """TP-G07: squares between two fighters (the duel's one distance; Chebyshev on the skirmish's grid)."""
        if self.pos is None:
            return self.distance
        return grid.chebyshev(self.pos[a], self.pos[b])

    def target_of(self, seat: int, flat_action: int) -> int:
        """The seat ``flat_action`` of ``seat`` aims at (:func:`aimed_seat`)."""
        return aimed_seat(self.ruleset.table, self.ruleset.enemies[seat], self.partner[seat], flat_action)

    def _targets(self, seat: int) -> tuple[int, ...]:
        """:meth:`target_of` for every flat action of ``seat`` at once, remembered per ruleset on the seat and
        its partner (all it reads that changes): the legal scan asks for each candidate on every decision."""
        partner = self.partner[seat]
        memo = self.ruleset.action_targets
        targets = memo.get((seat, partner))
        if targets is None:
            table, enemies = self.ruleset.table, self.ruleset.enemies[seat]
            targets = memo[seat, partner] = tuple(aimed_seat(table, enemies, partner, a) for a in range(len(table)))
        return targets

    # ----------------------------------------------------------------- set-up

    def _d20(self) -> int:
        return self._dice.roll(1, 20)[0]

    def _roll_initiative(self) -> tuple[int, ...]:
        """TP-002 / TP-G06: 1d20 + Athletics each, in seat order; ties go to the higher Athletics, then seeded
        draws (a d2 for two tied, a dN for N, one draw per place)."""
        totals = []
        for seat in range(len(self.hp)):
            die, skill = self._d20(), self.ruleset.loadouts[seat][0].initiative_skill
            totals.append((die + skill, skill))
            self.events.emit("TP-G06", "initiative", seat, die=die, athletics=skill, total=die + skill)
        order: list[int] = []
        for key in sorted(set(totals), reverse=True):
            tied = [seat for seat, total in enumerate(totals) if total == key]
            while len(tied) > 1:
                first = tied.pop(self._dice.roll(1, len(tied))[0] - 1)
                self.events.emit("TP-G06", "initiative_coin", first)
                order.append(first)
            order += tied
        self.events.emit("TP-002", "turn_order", None, order=tuple(order))
        return tuple(order)

    def _starting_statuses(self) -> list[int]:
        """TP-021: the initiating side (if any) is On Guard and the other Off Guard; a formal fight starts
        everyone On Guard."""
        initiator = self.ruleset.initiator
        statuses = [ON_GUARD if initiator is None or side == initiator else OFF_GUARD
                    for side in self.ruleset.seat_teams]
        for seat, status in enumerate(statuses):
            self.events.emit("TP-021", "starting_status", seat, status=STATUS_NAMES[status])
        return statuses

    # ----------------------------------------------------------------- turn flow

    def _begin_turn(self) -> None:
        """Start the current turn, skipping (with Recover Stamina) any turn that has nothing to do but end, and
        the turns of fallen fighters (without: they are out of the fight)."""
        while True:
            actor = self.actor()
            if self.hp[actor] <= 0:
                if not self._next_turn():
                    return
                continue
            self.events.emit("TP-003", "turn_start", actor, round=self.round, ap=self.ap[actor])
            legal = self._act_legal(actor)
            if len(legal) > 1:
                self.phase, self._legal = ACT, legal
                return
            if not self._finish_turn(actor):
                return

    def _end_turn(self) -> None:
        if self._finish_turn(self.actor()):
            self._begin_turn()

    def _finish_turn(self, actor: int) -> bool:
        """Recover Stamina (TP-009, TP-048..TP-058), then the next turn or round; False once the fight is over."""
        lo = self.loadout(actor)
        die = self._d20()
        result = die - 10 + lo.skills[ENDURANCE] - lo.encumbrance                     # TP-G15
        regained, rule = t.recovered_ap(result)
        before = self.ap[actor]
        self.ap[actor] = min(self.ruleset.ap_per_round, before + regained)             # TP-G05 cap
        self.aimed[actor] = False                                                      # TP-G12: same turn only
        self.events.emit(rule, "recover_stamina", actor, die=die, result=result, regained=regained,
                         ap_before=before, ap_after=self.ap[actor])
        return self._next_turn()

    def _next_turn(self) -> bool:
        """Pass the turn on; at the end of the order the round counter rises (TP-010). False at the round limit."""
        self.turn_index += 1
        if self.turn_index == len(self.order):
            self.turn_index = 0
            self.round += 1
            self.events.emit("TP-010", "round_end", None, round=self.round)
            if self.round >= self.ruleset.round_limit:
                self.phase, self._legal = OVER, []
                self.events.emit("TP-G14", "round_limit", None, round=self.round)
                return False
        return True

    def _after_exchange(self) -> None:
        """Clear the exchange, end the fight on a defeat, else go on with the actor's turn (TP-003)."""
        self.declared = self.target = self.counter = self.asking = -1
        self.reactions = []
        self.paid = 0
        self.aim_used = False
        if self.is_terminal():
            self.phase, self._legal = OVER, []
            self.events.emit("TP-G14", "defeat", None, health=tuple(self.hp))
            return
        for seat, partner in enumerate(self.partner):          # TP-G10: the fallen drop out of binds
            if partner >= 0 and self.hp[seat] <= 0:
                self._set_status(seat, partner, ON_GUARD, "TP-G10", "partner_fell")
        actor = self.actor()
        if self.hp[actor] <= 0:              # fell on its own turn: no Recover Stamina
            if self._next_turn():
                self._begin_turn()
            return
        legal = self._act_legal(actor)
        if len(legal) > 1:
            self.phase, self._legal = ACT, legal
        else:
            self._end_turn()

    def _side_down(self, side: int) -> bool:
        hp = self.hp
        return all(hp[seat] <= 0 for seat in self.ruleset.side_seats[side])

    # ----------------------------------------------------------------- the three decisions

    def _declare(self, flat_action: int) -> None:
        """TP-004: declare and pay. A Feint is recorded privately and declared as a Melee Attack (TP-027)."""
        actor = self.actor()
        technique = self.ruleset.table.technique_of[flat_action]
        assert technique is not None
        cost = self.loadout(actor).costs[flat_action]
        assert cost is not None
        self.ap[actor] -= cost
        self.declared, self.paid = flat_action, cost
        self.target = self.target_of(actor, flat_action)
        ranged = technique.name == "ranged_attack"
        self.aim_used = ranged and self.aimed[actor]
        self.aimed[actor] = False
        if ranged:
            self._shoot(actor)
        if self.pos is None:
            self.events.emit("TP-004", "declare", actor, action=self._public_name(flat_action), cost=cost,
                             ap_after=self.ap[actor])
        else:
            self.events.emit("TP-004", "declare", actor, action=self._public_name(flat_action), cost=cost,
                             ap_after=self.ap[actor], target=self.target)
        if public_technique(technique) in _MOVES_AND_AIM:                         # TP-G08
            self.pending = [seat for seat in self.order if seat in self.ruleset.enemies[actor] and self.hp[seat] > 0]
        else:
            self.pending = [self.target] if self.hp[self.target] > 0 else []
        self._ask_next_reactor()

    def _ask_next_reactor(self) -> None:
        """TP-005 / TP-G08: ask the next opponent with a reaction to offer; with none left, the counter decision
        (after a Parry or Counter-Attack against a declared Melee Attack) or the resolution."""
        while self.pending:
            reactor = self.pending.pop(0)
            legal = self._react_legal(reactor)
            if len(legal) > 1:
                self.phase, self.asking, self._legal = REACT, reactor, legal
                return
        self.asking = -1
        table = self.ruleset.table
        declared = table.technique_of[self.declared]
        answered = [table.technique_of[a] for _, a in self.reactions]
        if declared is not None and declared.name in ("melee_attack", "feint") and any(
                r is not None and r.name in ("counter_attack", "parry") for r in answered):
            self.phase, self._legal = COUNTER, self._counter_legal(self.actor())
        else:
            self._resolve()

    def _react(self, flat_action: int) -> None:
        """TP-005: an opponent declares a reaction and pays for it."""
        reactor = self.asking
        cost = self.loadout(reactor).costs[flat_action]
        assert cost is not None
        self.ap[reactor] -= cost
        self.reactions.append((reactor, flat_action))
        technique = self.ruleset.table.technique_of[flat_action]
        assert technique is not None
        if technique.name == "counter_fire":
            self._shoot(reactor)
        self.events.emit("TP-005", "react", reactor, action=self.ruleset.action_names[flat_action], cost=cost,
                         ap_after=self.ap[reactor])

    def _replace(self, flat_action: int) -> None:
        """TP-006: replace the declared action, paying only what the replacement costs beyond it."""
        actor = self.actor()
        cost = self.loadout(actor).costs[flat_action]
        assert cost is not None
        extra = counter_tempo_payment(self.paid, cost)
        self.ap[actor] -= extra
        self.counter = flat_action
        names = self.ruleset.action_names
        self.events.emit("TP-006", "counter_tempo", actor, action=names[flat_action],
                         replaces=names[self.declared], cost=cost, paid_before=self.paid, extra=extra,
                         ap_after=self.ap[actor])
        self._resolve()

    def _shoot(self, seat: int) -> None:
        """TP-G04: a weapon with a reload cost is empty after each shot until it is reloaded."""
        if self.loadout(seat).weapon.reload_ap:
            self.loaded[seat] = False

    def _public_name(self, flat_action: int) -> str:
        """The declared action's name as everyone but the declarer sees it (TP-027)."""
        table = self.ruleset.table
        technique = table.technique_of[flat_action]
        if technique is None or technique.name != "feint":
            return table.names[flat_action]
        return table.names[flat_action].replace("feint", "melee_attack")

    # ----------------------------------------------------------------- legality

    def _act_legal(self, seat: int) -> list[int]:
        """TP-014 status gating, AP (TP-G05) and the situation (range, loaded, disarmed, target standing...)."""
        lo = self.loadout(seat)
        ap, weapon, table = self.ap[seat], lo.weapon, self.ruleset.table
        legal = [PASS]
        targets = self._targets(seat)
        distances = self._distances_from(seat)
        opens: dict[int, bool] = {}                  # _can_open by target: several moves away share one
        for a, cost in lo.proactive_by_status[self.status[seat]]:
            if cost > ap:
                continue
            technique = table.technique_of[a]
            assert technique is not None
            name = technique.name
            target = targets[a]
            if target < 0 or (self.hp[target] <= 0 and name not in ("ready", "recover_weapon", "reload")):
                continue
            distance = distances[target]
            if name == "move" or name == "combat_move":
                if table.direction_of[a] == CLOSE:
                    if distance <= 1:
                        continue
                else:
                    can_open = opens.get(target)
                    if can_open is None:
                        can_open = opens[target] = self._can_open(seat, target)
                    if not can_open:
                        continue
            elif name == "melee_attack" or name == "feint":
                if distance > weapon.reach:
                    continue
            elif name == "unarmed_attack":
                if distance > 1 or (self.status[seat] == GRAPPLED and self.pos is not None
                                    and target != self.partner[seat]):
                    continue
            elif name == "ranged_attack" or name == "aim":
                if distance > weapon.range or not self.loaded[seat] or (name == "aim" and self.aimed[seat]):
                    continue
            elif name == "reload":
                if self.loaded[seat]:
                    continue
            elif name == "disarm":
                if self.loadout(target).weapon.kind == UNARMED_KIND:
                    continue
            elif name == "pin":
                if self.status[target] == PINNED:
                    continue
            legal.append(a)
        return legal

    def _distances_from(self, seat: int) -> list[int]:
        """:meth:`distance_between` ``seat`` and every seat, in seat order (the legal scan reads them per action)."""
        if self.pos is None:
            return [self.distance] * len(self.hp)
        x, y = self.pos[seat]
        return [max(abs(x - px), abs(y - py)) for px, py in self.pos]               # TP-G07: Chebyshev

    def _can_open(self, seat: int, target: int) -> bool:
        """A move away is possible: not at ``max_distance`` in the duel, not pinned to the grid's edge."""
        if self.pos is None:
            return self.distance < self.ruleset.max_distance
        return grid.step_away(self.pos[seat], self.pos[target], self.ruleset.max_distance + 1) != self.pos[seat]

    def _react_legal(self, reactor: int) -> list[int]:
        """TP-005 / TP-G08: reactions that answer the *public* declaration, in status, affordable and in reach."""
        table = self.ruleset.table
        declared = table.technique_of[self.declared]
        name = public_technique(declared)
        lo = self.loadout(reactor)
        ap = self.ap[reactor]
        actor = self.actor()
        legal = [PASS]
        for a, cost in lo.reactive_by_status[self.status[reactor]]:
            technique = table.technique_of[a]
            assert technique is not None
            if cost > ap or name not in technique.responds_to:
                continue
            if technique.name == "counter_attack":
                if self._nearest_distance(reactor) > lo.weapon.reach:
                    continue
            elif technique.name == "counter_fire":
                if not self.loaded[reactor] or self._nearest_distance(reactor) > lo.weapon.range:
                    continue
            elif technique.name == "dodge":
                if self.distance_between(reactor, actor) <= self.loadout(actor).weapon.attack_speed:
                    continue
            elif technique.name == "retreat":
                if table.direction_of[self.declared] != CLOSE or reactor != self.target:
                    continue
            legal.append(a)
        return legal

    def _counter_legal(self, actor: int) -> list[int]:
        """TP-006, TP-045, TP-046, TP-047: replacements of the (private) declared action that answer the reaction."""
        table = self.ruleset.table
        original = table.technique_of[self.declared]
        reaction = table.technique_of[self.reaction]
        assert original is not None and reaction is not None
        lo = self.loadout(actor)
        legal = [PASS]
        for a in table.counter_tempo:
            technique = table.technique_of[a]
            assert technique is not None
            cost = lo.costs[a]
            if cost is None or reaction.name not in technique.responds_to or original.name not in technique.replaces:
                continue
            if counter_tempo_payment(self.paid, cost) > self.ap[actor] or not technique.allowed_in(self.status[actor]):
                continue
            legal.append(a)
        return legal

    def _nearest_distance(self, reactor: int) -> int:
        """TP-G08: a move can be answered where it starts or where it would end, whichever is nearer."""
        actor = self.actor()
        now = self.distance_between(reactor, actor)
        technique = self.ruleset.table.technique_of[self.declared]
        if technique is None or technique.effect != MOVE:
            return now
        after = self._moved_distance(self.declared, t.SUCCESS, hit=False)
        if self.pos is None:
            return min(now, after)
        end = grid.walk(self.pos[actor], self.pos[self.target], after, self.ruleset.max_distance + 1)
        return min(now, grid.chebyshev(end, self.pos[reactor]))

    # ----------------------------------------------------------------- resolution

    def _check(self, seat: int, technique: Technique) -> int:
        """TP-G01: 1d20 - 10 + skill + modifiers; actions without a check have result 0 (TP-023, TP-A05)."""
        if technique.skill is None:
            self.events.emit(technique.rule, "result", seat, action=technique.name, result=0)
            return 0
        lo = self.loadout(seat)
        modifier, rule = 0, "TP-G01"
        declared = self.ruleset.table.technique_of[self.declared]
        if technique.name == "counter_attack" and declared is not None and declared.name == "unarmed_attack":
            modifier, rule = UNARMED_COUNTER_BONUS, "TP-034"
        elif technique.name == "feint_counter_attack":
            modifier, rule = FEINT_COUNTER_BONUS, "TP-047"
        elif technique.name == "ranged_attack":
            modifier = lo.weapon.aimed_accuracy if self.aim_used else lo.weapon.accuracy
            rule = "TP-022" if self.aim_used else "TP-G12"
        elif technique.name == "counter_fire":
            modifier, rule = lo.weapon.accuracy, "TP-G12"
        die = self._d20()
        skill = lo.skills[technique.skill]
        result = die - 10 + skill + modifier
        self.events.emit(rule, "check", seat, action=technique.name, die=die, skill=skill, modifier=modifier,
                         result=result)
        return result

    def _resolve(self) -> None:
        """TP-007 / TP-008 and the outcome effects (TP-G09: stopping outcomes cancel, strikes both land). With
        several reactors (TP-G08) each pair resolves on the actor's one result; the actor's own outcome reads
        its smallest net, and it fails if any reaction stops it."""
        actor, target = self.actor(), self.target
        table = self.ruleset.table
        if self.declared >= 0 and table.technique_of[self.declared].name == "feint":  # type: ignore[union-attr]
            self.events.emit("TP-027", "feint_revealed", actor)     # the paper is turned over: logged only now
        active = self.counter if self.counter >= 0 else self.declared
        a_tech = table.technique_of[active]
        assert a_tech is not None
        a_result = self._check(actor, a_tech)
        target_lo, actor_lo = self.loadout(target), self.loadout(actor)
        if not self.reactions:
            a_out = a_tech.table.read(a_result, target_lo.defences)
            self.events.emit("TP-007", "resolve", actor, action=a_tech.name, net=a_result,
                             outcome=a_tech.table.name(a_out))
            self._effect(actor, target, a_tech, active, a_out, hit=False)
            self._after_exchange()
            return
        # One row per reply: reactor, reaction, its technique, the actor's net, the actor's outcome, the reply's
        # outcome (a row, not a tuple: TP-G09 rewrites the reply's outcome below).
        pairs: list[list[Any]] = []
        for reactor, reaction in self.reactions:
            r_tech = table.technique_of[reaction]
            assert r_tech is not None
            r_result = self._check(reactor, r_tech)
            a_net, r_net = a_result - r_result, r_result - a_result
            a_out = a_tech.table.read(a_net, target_lo.defences)
            r_out = r_tech.table.read(r_net, actor_lo.defences)
            who = {} if self.pos is None else {"reactor": reactor}
            self.events.emit("TP-008", "resolve", actor, action=a_tech.name, net=a_net,
                             outcome=a_tech.table.name(a_out), reaction=r_tech.name, reaction_net=r_net,
                             reaction_outcome=r_tech.table.name(r_out), **who)
            pairs.append([reactor, reaction, r_tech, a_net, a_out, r_out])
        a_net = min(pair[3] for pair in pairs)
        a_out = a_tech.table.read(a_net, target_lo.defences)
        if len(pairs) > 1:
            self.events.emit("TP-G08", "actor_outcome", actor, action=a_tech.name, net=a_net,
                             outcome=a_tech.table.name(a_out))
        stoppers = [pair[2].name for pair in pairs if pair[2].effect == STOP and pair[5] in _STOPPING]
        actor_stopped = bool(stoppers)
        if actor_stopped:
            self.events.emit("TP-G09", "stopped", actor, action=a_tech.name, by=stoppers[0])
            a_out = t.FAILURE
        for pair in pairs:
            if a_tech.effect == STOP and pair[4] in _STOPPING:
                self.events.emit("TP-G09", "stopped", pair[0], action=pair[2].name, by=a_tech.name)
                pair[5] = t.FAILURE
        actor_hit = any(pair[2].effect == STRIKE and pair[5] != t.FAILURE for pair in pairs)
        self._effect(actor, target, a_tech, active, a_out, hit=actor_hit, stopped=actor_stopped)
        for reactor, reaction, r_tech, _, _, r_out in pairs:
            self._effect(reactor, actor, r_tech, reaction, r_out, hit=False)
        self._after_exchange()

    def _effect(self, seat: int, other: int, technique: Technique, flat_action: int, outcome: int, hit: bool,
                stopped: bool = False) -> None:
        """What one side's outcome does to ``other`` (the text's outcome entries; status changes per TP-G10)."""
        name = technique.name
        effect = technique.effect
        if effect == STRIKE:
            if outcome != t.FAILURE:
                self._damage(seat, other, name, outcome)
            if name == "press" and outcome != t.FAILURE:
                self._set_status(seat, other, ON_GUARD, "TP-G10", "bind_broken")
            elif name == "double" and self.status[seat] == self.status[other] == BOUND:
                self._set_status(seat, other, ON_GUARD, "TP-G10", "bind_ceded")
        elif effect == STOP:
            if outcome == t.BIND and name in ("parry", "ct_parry"):
                self._set_status(seat, other, BOUND, technique.rule, "bind")
        elif effect == MOVE:
            if name == "retreat":
                if outcome != t.FAILURE:
                    self._place(seat, other, self._retreat_distance(seat, other, outcome), technique.rule)
            elif not stopped:
                self._place(seat, other, self._moved_distance(flat_action, outcome, hit), technique.rule)
        elif outcome == t.SUCCESS:
            self._state_change(seat, other, name, technique.rule)

    def _state_change(self, seat: int, other: int, name: str, rule: str) -> None:
        """Successful non-strike, non-move actions: statuses and flags (TP-022, TP-025, TP-026, TP-028, TP-030,
        TP-033, TP-035, TP-G10)."""
        if name == "aim":
            self.aimed[seat] = True
            self.events.emit(rule, "aimed", seat)
        elif name == "ready":
            self.status[seat] = ON_GUARD
            self.events.emit("TP-G10", "status", seat, status="on_guard")
        elif name == "disarm":
            self.disarmed[other] = True
            self.events.emit(rule, "disarmed", other)
            self._set_status(seat, other, ON_GUARD, "TP-G10", "bind_ended")
        elif name in ("escape", "withdraw"):
            self._set_status(seat, other, ON_GUARD, "TP-G10", name)
        elif name == "grapple":
            self._set_status(seat, other, GRAPPLED, "TP-G10", "grapple")
            self._place(seat, other, 1, rule)
        elif name == "pin":
            self.status[other] = PINNED
            self.events.emit(rule, "status", other, status="pinned")
        elif name == "recover_weapon":
            self.disarmed[seat] = False
            self.events.emit(rule, "recovered_weapon", seat)
        elif name == "reload":
            self.loaded[seat] = True
            self.events.emit(rule, "reloaded", seat)

    def _set_status(self, seat: int, other: int, status: int, rule: str, why: str) -> None:
        """Both fighters of a pair take ``status``; Bound and Grappled make them partners (TP-G10)."""
        self.status[seat] = self.status[other] = status
        together = status in _BOUND_TOGETHER
        self.partner[seat], self.partner[other] = (other, seat) if together else (-1, -1)
        who = {} if self.pos is None else {"seats": (seat, other)}
        self.events.emit(rule, "statuses", None, why=why, statuses=(STATUS_NAMES[status], STATUS_NAMES[status]),
                         **who)

    def _place(self, seat: int, anchor: int, distance: int, rule: str) -> None:
        """Put ``seat`` ``distance`` squares from ``anchor`` (the duel's distance; a straight walk on the grid)."""
        if self.pos is None:
            if distance != self.distance:
                self.events.emit(rule, "distance", seat, before=self.distance, after=distance)
                self.distance = distance
            return
        before = self.pos[seat]
        after = grid.walk(before, self.pos[anchor], distance, self.ruleset.max_distance + 1)
        if after != before:
            self.events.emit(rule, "position", seat, before=before, after=after, anchor=anchor,
                             distance=grid.chebyshev(after, self.pos[anchor]))
            self.pos[seat] = after

    def _moved_distance(self, flat_action: int, outcome: int, hit: bool) -> int:
        """TP-023/TP-024, TP-G07, TP-G11: how far from its target a Move or Combat Move leaves the actor."""
        rules, d = self.ruleset, self.distance_between(self.actor(), self.target)
        closing = rules.table.direction_of[flat_action] == CLOSE
        technique = rules.table.technique_of[flat_action]
        assert technique is not None
        if technique.name == "move":
            if outcome == t.FAILURE and hit:                 # stop at the first square of the path
                return max(1, d - 1) if closing else min(rules.max_distance, d + 1)
            if closing:
                reach = max(1, self.loadout(self.actor()).weapon.reach)
                stop = reach if d > reach else 1
                return max(stop, d - rules.base_movement)
            return min(rules.max_distance, d + rules.base_movement)
        if outcome == t.FAILURE:
            return d
        if outcome == t.CRITICAL:
            return 1 if closing else min(rules.max_distance, d + rules.base_movement)
        return max(1, d - 1) if closing else min(rules.max_distance, d + 1)

    def _retreat_distance(self, seat: int, mover: int, outcome: int) -> int:
        """TP-042 / TP-G11: a Retreat edges one square away, a critical one the Base Combat Movement."""
        step = self.ruleset.base_movement if outcome == t.CRITICAL else 1
        return min(self.ruleset.max_distance, self.distance_between(seat, mover) + step)

    def _damage(self, attacker: int, target: int, technique: str, outcome: int) -> None:
        """TP-G03: weapon die + bonus, less armour on a Hit, armour ignored on a Critical; never below 0."""
        weapon = self.ruleset.unarmed if technique == "unarmed_attack" else self.loadout(attacker).weapon
        die = self._dice.roll(1, weapon.damage_die)[0]
        soak = self.loadout(target).armour_rating if outcome == t.SUCCESS else 0
        damage = max(0, die + weapon.damage_bonus - soak)
        self.hp[target] -= damage
        self.events.emit("TP-G03", "damage", attacker, target=target, weapon=weapon.name, die=die,
                         bonus=weapon.damage_bonus, soak=soak, damage=damage, health_after=self.hp[target],
                         critical=outcome == t.CRITICAL)
