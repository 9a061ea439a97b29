"""One tempo duel in progress: the 003 action round as a state machine (TP-001..058).

A turn is a loop of exchanges. The turn's fighter *acts* (declares a proactive action and pays for
it, TP-004), the opponent may *react* (TP-005), the actor may *counter* with a counter-tempo
replacement paying only the difference (TP-006), then the exchange resolves: unopposed against the
action's table (TP-007) or opposed by subtracting results, each side reading its own table (TP-008).
Passing at the act decision ends the turn with Recover Stamina (TP-009); after both turns the round
counter rises (TP-010). Each of the three decisions is one ``apply`` by the seat that makes it;
a decision whose only legal action is ``pass`` is taken automatically, except a counter decision
after a Parry or Counter-Attack against a declared Melee Attack, which is always asked so that its
existence does not reveal a feint (TP-G13).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from issoku.rules.kernel import Dice, EventLog, IllegalActionError
from issoku.rules.tempo import tables as t
from issoku.rules.tempo.actions import (
    ACTION_NAMES,
    BOUND,
    CLOSE,
    COUNTER_TEMPO_ACTIONS,
    DIRECTION_OF,
    ENDURANCE,
    FEINT_COUNTER_BONUS,
    GRAPPLED,
    MOVE,
    OFF_GUARD,
    ON_GUARD,
    PASS,
    PINNED,
    STATUS_NAMES,
    STOP,
    STRIKE,
    TECHNIQUE_OF,
    UNARMED_COUNTER_BONUS,
    Technique,
    action,
)
from issoku.rules.tempo.content import UNARMED_KIND
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.observation import encode

if TYPE_CHECKING:
    from issoku.rules.tempo.loadout import Loadout
    from issoku.rules.tempo.ruleset import TempoDuel

ACT, REACT, COUNTER, OVER = range(4)

_MOVE_CLOSE, _MOVE_OPEN = action("proactive:move:close"), action("proactive:move:open")
_CM_CLOSE, _CM_OPEN = action("proactive:combat_move:close"), action("proactive:combat_move:open")
_AIM, _RANGED = action("proactive:aim"), action("proactive:ranged_attack")
_MELEE, _FEINT = action("proactive:melee_attack"), action("proactive:feint")
_UNARMED, _DISARM = action("proactive:unarmed_attack"), action("proactive:disarm")
_PIN, _RELOAD = action("proactive:pin"), action("proactive:reload")
_COUNTER_ATTACK, _COUNTER_FIRE = action("react:counter_attack"), action("react:counter_fire")
_DODGE, _RETREAT, _PARRY = action("react:dodge"), action("react:retreat"), action("react:parry")
_STOPPING = (t.SUCCESS, t.BIND)


def counter_tempo_payment(original_cost: int, replacement_cost: int) -> int:
    """TP-006 / TP-A03: AP paid on replacing, so that the total paid is the larger of the two costs."""
    return max(0, replacement_cost - original_cost)


def public_name(flat_action: int) -> str:
    """The name an opponent sees for a declared action: a Feint is declared as a Melee Attack (TP-027)."""
    return ACTION_NAMES[_MELEE if flat_action == _FEINT else flat_action]


class TempoState:
    """A tempo duel between seats 0 and 1 (see the module docstring for the decision cycle)."""

    __slots__ = ("ruleset", "events", "_dice", "hp", "ap", "status", "disarmed", "aimed", "loaded",
                 "distance", "round", "order", "turn_index", "phase", "declared", "paid", "aim_used",
                 "reaction", "counter", "_legal")

    def __init__(self, ruleset: "TempoDuel", dice: Dice, events: EventLog) -> None:
        self.ruleset = ruleset
        self.events = events
        self._dice = dice
        self.hp = [ruleset.loadouts[seat][0].max_health for seat in (0, 1)]
        self.ap = [ruleset.ap_per_round, ruleset.ap_per_round]                          # TP-001, TP-G05
        self.disarmed = [False, False]
        self.aimed = [False, False]
        self.loaded = [True, True]
        self.distance = ruleset.start_distance
        self.round = 0                                                                  # TP-010
        self.turn_index = 0
        self.phase = ACT
        self.declared = -1        # the flat proactive action of the current exchange (private if a feint)
        self.paid = 0
        self.aim_used = False
        self.reaction = -1
        self.counter = -1
        self._legal: list[int] = []
        self.order = self._roll_initiative()
        self.status = self._starting_statuses()
        self.events.emit("TP-010", "round_start", None, round=0)
        self._begin_turn()

    # ----------------------------------------------------------------- protocol

    def current_seat(self) -> int | None:
        """The seat whose decision it is (the reactor during a reaction), None once over."""
        if self.phase == OVER:
            return None
        actor = self.order[self.turn_index]
        return 1 - actor if self.phase == REACT else actor

    def decision_kind(self) -> str:
        """``"act"``, ``"react"`` or ``"counter"``."""
        return DECISION_KINDS[self.phase] if self.phase != OVER else "over"

    def legal_actions(self) -> list[int]:
        """Ascending legal flat actions; always includes ``pass`` while the duel goes on."""
        return list(self._legal)

    def apply(self, flat_action: int) -> None:
        """Play one decision of the current seat (TP-004..006); raises IllegalActionError otherwise."""
        if flat_action not in self._legal:
            raise IllegalActionError(flat_action, self._legal, ACTION_NAMES, self.decision_kind())
        phase = self.phase
        if phase == ACT:
            if flat_action == PASS:
                self._end_turn()
            else:
                self._declare(flat_action)
        elif phase == REACT:
            if flat_action == PASS:
                self._resolve()
            else:
                self._react(flat_action)
        elif flat_action == PASS:
            self._resolve()
        else:
            self._replace(flat_action)

    def is_terminal(self) -> bool:
        """A fighter is defeated (TP-G03, TP-G14)."""
        return self.hp[0] <= 0 or self.hp[1] <= 0

    def is_truncated(self) -> bool:
        """The round limit ended the duel undecided (TP-G14)."""
        return self.phase == OVER and not self.is_terminal()

    def is_eliminated(self, seat: int) -> bool:
        """The seat's fighter is at 0 Health."""
        return self.hp[seat] <= 0

    def returns(self) -> tuple[float, ...]:
        """+1 / -1 for a defeat, 0 for a double defeat, a truncation or a duel in progress."""
        down0, down1 = self.hp[0] <= 0, self.hp[1] <= 0
        if down0 == down1:
            return (0.0, 0.0)
        return (-1.0, 1.0) if down0 else (1.0, -1.0)

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know, ego-centric (see :mod:`issoku.rules.tempo.observation`)."""
        return encode(self, seat)

    def clone(self) -> "TempoState":
        """An independent copy, dice and event log included."""
        copy = TempoState.__new__(TempoState)
        copy.ruleset = self.ruleset
        copy.events = self.events.clone()
        copy._dice = self._dice.clone()
        for name in ("hp", "ap", "status", "disarmed", "aimed", "loaded", "_legal"):
            setattr(copy, name, list(getattr(self, name)))
        for name in ("distance", "round", "order", "turn_index", "phase", "declared", "paid", "aim_used",
                     "reaction", "counter"):
            setattr(copy, name, getattr(self, name))
        return copy

    def action_cost(self, flat_action: int) -> str | None:
        """What ``flat_action`` costs the seat deciding now (the optional menu hook, for a person choosing):
        its AP (TP-004/005); a counter-tempo pays only what it costs beyond the declared action (TP-006)."""
        seat = self.current_seat()
        if seat is None:
            return None
        cost = self.loadout(seat).costs[flat_action]
        return f"{counter_tempo_payment(self.paid, cost) if self.phase == COUNTER else cost} AP"

    def render_text(self) -> str:
        """A spectator's picture (the env adapter's render hook): public facts only, a feint shown as an attack."""
        lines = [f"round {self.round}  distance {self.distance}  turn: {self.ruleset.seat_names[self.actor()]}"]
        for seat in (0, 1):
            lo = self.loadout(seat)
            flags = [flag for flag, on in (("disarmed", self.disarmed[seat]), ("aimed", self.aimed[seat]),
                                           ("unloaded", not self.loaded[seat])) if on]
            lines.append(f"  {self.ruleset.seat_names[seat]:<10} {lo.fighter.name:<14} {lo.weapon.name:<13} "
                         f"health {self.hp[seat]:>2}/{lo.max_health:<2} AP {self.ap[seat]:>2}  "
                         f"{STATUS_NAMES[self.status[seat]]} {' '.join(flags)}".rstrip())
        if self.declared >= 0:
            reaction = f", answered by {ACTION_NAMES[self.reaction]}" if self.reaction >= 0 else ""
            lines.append(f"  declared: {public_name(self.declared)}{reaction}")
        return "\n".join(lines)

    # ----------------------------------------------------------------- public helpers

    def actor(self) -> int:
        """The seat whose turn it is."""
        return self.order[self.turn_index]

    def loadout(self, seat: int) -> "Loadout":
        """The seat's current :class:`~issoku.rules.tempo.loadout.Loadout` (bare hands once disarmed)."""
        return self.ruleset.loadouts[seat][self.disarmed[seat]]

    # ----------------------------------------------------------------- set-up

    def _d20(self) -> int:
        return self._dice.roll(1, 20)[0]

    def _roll_initiative(self) -> tuple[int, int]:
        """TP-002 / TP-G06: 1d20 + Athletics each; ties to the higher Athletics, then a seeded coin."""
        totals = []
        for seat in (0, 1):
            die, skill = self._d20(), self.ruleset.loadouts[seat][0].initiative_skill
            totals.append((die + skill, skill))
            self.events.emit("TP-G06", "initiative", seat, die=die, athletics=skill, total=die + skill)
        if totals[0] != totals[1]:
            first = 0 if totals[0] > totals[1] else 1
        else:
            first = self._dice.roll(1, 2)[0] - 1
            self.events.emit("TP-G06", "initiative_coin", first)
        self.events.emit("TP-002", "turn_order", None, order=(first, 1 - first))
        return (first, 1 - first)

    def _starting_statuses(self) -> list[int]:
        """TP-021: the initiator (if any) is On Guard and the other Off Guard; a formal duel starts both On Guard."""
        initiator = self.ruleset.initiator
        statuses = [ON_GUARD, ON_GUARD] if initiator is None else [OFF_GUARD, OFF_GUARD]
        if initiator is not None:
            statuses[initiator] = ON_GUARD
        for seat in (0, 1):
            self.events.emit("TP-021", "starting_status", seat, status=STATUS_NAMES[statuses[seat]])
        return statuses

    # ----------------------------------------------------------------- turn flow

    def _begin_turn(self) -> None:
        """Start the current turn, skipping (with Recover Stamina) any turn that has nothing to do but end."""
        while True:
            actor = self.actor()
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
        """Recover Stamina (TP-009, TP-048..058), then the next turn or round; False once the duel is over."""
        lo = self.loadout(actor)
        die = self._d20()
        result = die - 10 + lo.skills[ENDURANCE] - lo.encumbrance                     # TP-G15
        regained, rule = t.recovered_ap(result)
        before = self.ap[actor]
        self.ap[actor] = min(self.ruleset.ap_per_round, before + regained)             # TP-G05 cap
        self.aimed[actor] = False                                                      # TP-G12: same turn only
        self.events.emit(rule, "recover_stamina", actor, die=die, result=result, regained=regained,
                         ap_before=before, ap_after=self.ap[actor])
        self.turn_index += 1
        if self.turn_index == 2:
            self.turn_index = 0
            self.round += 1
            self.events.emit("TP-010", "round_end", None, round=self.round)
            if self.round >= self.ruleset.round_limit:
                self.phase, self._legal = OVER, []
                self.events.emit("TP-G14", "round_limit", None, round=self.round)
                return False
        return True

    def _after_exchange(self) -> None:
        """Clear the exchange, end the duel on a defeat, else go on with the actor's turn (TP-003)."""
        self.declared = self.reaction = self.counter = -1
        self.paid = 0
        self.aim_used = False
        if self.is_terminal():
            self.phase, self._legal = OVER, []
            self.events.emit("TP-G14", "defeat", None, health=tuple(self.hp))
            return
        actor = self.actor()
        legal = self._act_legal(actor)
        if len(legal) > 1:
            self.phase, self._legal = ACT, legal
        else:
            self._end_turn()

    # ----------------------------------------------------------------- the three decisions

    def _declare(self, flat_action: int) -> None:
        """TP-004: declare and pay. A Feint is recorded privately and declared as a Melee Attack (TP-027)."""
        actor = self.actor()
        cost = self.loadout(actor).costs[flat_action]
        self.ap[actor] -= cost
        self.declared, self.paid = flat_action, cost
        self.aim_used = flat_action == _RANGED and self.aimed[actor]
        self.aimed[actor] = False
        if flat_action == _RANGED:
            self._shoot(actor)
        self.events.emit("TP-004", "declare", actor, action=public_name(flat_action), cost=cost,
                         ap_after=self.ap[actor])
        reactor = 1 - actor
        legal = self._react_legal(reactor)
        if len(legal) > 1:
            self.phase, self._legal = REACT, legal
        else:
            self._resolve()

    def _react(self, flat_action: int) -> None:
        """TP-005: the opponent declares a reaction and pays for it."""
        reactor = 1 - self.actor()
        cost = self.loadout(reactor).costs[flat_action]
        self.ap[reactor] -= cost
        self.reaction = flat_action
        if flat_action == _COUNTER_FIRE:
            self._shoot(reactor)
        self.events.emit("TP-005", "react", reactor, action=ACTION_NAMES[flat_action], cost=cost,
                         ap_after=self.ap[reactor])
        if self.declared in (_MELEE, _FEINT) and flat_action in (_COUNTER_ATTACK, _PARRY):
            self.phase, self._legal = COUNTER, self._counter_legal(self.actor())
        else:
            self._resolve()

    def _replace(self, flat_action: int) -> None:
        """TP-006: replace the declared action, paying only what the replacement costs beyond it."""
        actor = self.actor()
        cost = self.loadout(actor).costs[flat_action]
        extra = counter_tempo_payment(self.paid, cost)
        self.ap[actor] -= extra
        self.counter = flat_action
        self.events.emit("TP-006", "counter_tempo", actor, action=ACTION_NAMES[flat_action],
                         replaces=ACTION_NAMES[self.declared], cost=cost, paid_before=self.paid, extra=extra,
                         ap_after=self.ap[actor])
        self._resolve()

    def _shoot(self, seat: int) -> None:
        """TP-G04: a weapon with a reload cost is empty after each shot until it is reloaded."""
        if self.loadout(seat).weapon.reload_ap:
            self.loaded[seat] = False

    # ----------------------------------------------------------------- legality

    def _act_legal(self, seat: int) -> list[int]:
        """TP-014 status gating, AP (TP-G05) and the situation (range, loaded, disarmed...)."""
        lo = self.loadout(seat)
        ap, distance, weapon = self.ap[seat], self.distance, lo.weapon
        legal = [PASS]
        for a, cost in lo.proactive_by_status[self.status[seat]]:
            if cost > ap:
                continue
            if a == _MOVE_CLOSE or a == _CM_CLOSE:
                if distance <= 1:
                    continue
            elif a == _MOVE_OPEN or a == _CM_OPEN:
                if distance >= self.ruleset.max_distance:
                    continue
            elif a == _MELEE or a == _FEINT:
                if distance > weapon.reach:
                    continue
            elif a == _UNARMED:
                if distance > 1:
                    continue
            elif a == _RANGED or a == _AIM:
                if distance > weapon.range or not self.loaded[seat] or (a == _AIM and self.aimed[seat]):
                    continue
            elif a == _RELOAD:
                if self.loaded[seat]:
                    continue
            elif a == _DISARM:
                if self.loadout(1 - seat).weapon.kind == UNARMED_KIND:
                    continue
            elif a == _PIN:
                if self.status[1 - seat] == PINNED:
                    continue
            legal.append(a)
        return legal

    def _react_legal(self, reactor: int) -> list[int]:
        """TP-005 / TP-G08: reactions that answer the *public* declaration, in status, affordable and in reach."""
        declared = _MELEE if self.declared == _FEINT else self.declared
        name = TECHNIQUE_OF[declared].name
        lo = self.loadout(reactor)
        ap = self.ap[reactor]
        legal = [PASS]
        for a, cost in lo.reactive_by_status[self.status[reactor]]:
            if cost > ap or name not in TECHNIQUE_OF[a].responds_to:
                continue
            if a == _COUNTER_ATTACK:
                if self._nearest_distance(declared) > lo.weapon.reach:
                    continue
            elif a == _COUNTER_FIRE:
                if not self.loaded[reactor] or self._nearest_distance(declared) > lo.weapon.range:
                    continue
            elif a == _DODGE:
                if self.distance <= self.loadout(1 - reactor).weapon.attack_speed:
                    continue
            elif a == _RETREAT:
                if DIRECTION_OF[declared] != CLOSE:
                    continue
            legal.append(a)
        return legal

    def _counter_legal(self, actor: int) -> list[int]:
        """TP-006, TP-045..047: replacements of the (private) declared action that answer the reaction."""
        original = TECHNIQUE_OF[self.declared].name
        reaction = TECHNIQUE_OF[self.reaction].name
        lo = self.loadout(actor)
        legal = [PASS]
        for a in COUNTER_TEMPO_ACTIONS:
            technique = TECHNIQUE_OF[a]
            cost = lo.costs[a]
            if cost is None or reaction not in technique.responds_to or original not in technique.replaces:
                continue
            if counter_tempo_payment(self.paid, cost) > self.ap[actor] or not technique.statuses >> self.status[actor] & 1:
                continue
            legal.append(a)
        return legal

    def _nearest_distance(self, declared: int) -> int:
        """TP-G08: a move can be answered where it starts or where it would end, whichever is nearer."""
        if TECHNIQUE_OF[declared].effect != MOVE:
            return self.distance
        return min(self.distance, self._moved_distance(declared, t.SUCCESS, hit=False))

    # ----------------------------------------------------------------- resolution

    def _check(self, seat: int, technique: Technique, flat_action: int) -> int:
        """TP-G01: 1d20 - 10 + skill + modifiers; actions without a check have result 0 (TP-023, TP-A05)."""
        if technique.skill is None:
            self.events.emit(technique.rule, "result", seat, action=technique.name, result=0)
            return 0
        lo = self.loadout(seat)
        modifier, rule = 0, "TP-G01"
        if flat_action == _COUNTER_ATTACK and self.declared == _UNARMED:
            modifier, rule = UNARMED_COUNTER_BONUS, "TP-034"
        elif technique.name == "feint_counter_attack":
            modifier, rule = FEINT_COUNTER_BONUS, "TP-047"
        elif flat_action == _RANGED:
            modifier = lo.weapon.aimed_accuracy if self.aim_used else lo.weapon.accuracy
            rule = "TP-022" if self.aim_used else "TP-G12"
        elif flat_action == _COUNTER_FIRE:
            modifier, rule = lo.weapon.accuracy, "TP-G12"
        die = self._d20()
        skill = lo.skills[technique.skill]
        result = die - 10 + skill + modifier
        self.events.emit(rule, "check", seat, action=technique.name, die=die, skill=skill, modifier=modifier,
                         result=result)
        return result

    def _resolve(self) -> None:
        """TP-007 / TP-008 and the outcome effects (TP-G09: stopping outcomes cancel, strikes both land)."""
        actor = self.actor()
        reactor = 1 - actor
        if self.declared == _FEINT:       # the paper is turned over: logged only now, so no log line leaks it
            self.events.emit("TP-027", "feint_revealed", actor)
        active = self.counter if self.counter >= 0 else self.declared
        a_tech = TECHNIQUE_OF[active]
        a_result = self._check(actor, a_tech, active)
        reactor_lo, actor_lo = self.loadout(reactor), self.loadout(actor)
        if self.reaction < 0:
            a_out = a_tech.table.read(a_result, reactor_lo.defences)
            self.events.emit("TP-007", "resolve", actor, action=a_tech.name, net=a_result,
                             outcome=a_tech.table.name(a_out))
            self._effect(actor, a_tech, active, a_out, hit=False)
            self._after_exchange()
            return
        r_tech = TECHNIQUE_OF[self.reaction]
        r_result = self._check(reactor, r_tech, self.reaction)
        a_net, r_net = a_result - r_result, r_result - a_result
        a_out = a_tech.table.read(a_net, reactor_lo.defences)
        r_out = r_tech.table.read(r_net, actor_lo.defences)
        self.events.emit("TP-008", "resolve", actor, action=a_tech.name, net=a_net, outcome=a_tech.table.name(a_out),
                         reaction=r_tech.name, reaction_net=r_net, reaction_outcome=r_tech.table.name(r_out))
        actor_stopped = r_tech.effect == STOP and r_out in _STOPPING
        reaction_stopped = a_tech.effect == STOP and a_out in _STOPPING
        if actor_stopped:
            self.events.emit("TP-G09", "stopped", actor, action=a_tech.name, by=r_tech.name)
            a_out = t.FAILURE
        if reaction_stopped:
            self.events.emit("TP-G09", "stopped", reactor, action=r_tech.name, by=a_tech.name)
            r_out = t.FAILURE
        actor_hit = r_tech.effect == STRIKE and r_out != t.FAILURE
        self._effect(actor, a_tech, active, a_out, hit=actor_hit, stopped=actor_stopped)
        self._effect(reactor, r_tech, self.reaction, r_out, hit=False)
        self._after_exchange()

    def _effect(self, seat: int, technique: Technique, flat_action: int, outcome: int, hit: bool,
                stopped: bool = False) -> None:
        """What one side's outcome does (the text's outcome entries; status changes per TP-G10)."""
        other = 1 - seat
        name = technique.name
        effect = technique.effect
        if effect == STRIKE:
            if outcome != t.FAILURE:
                self._damage(seat, other, name, outcome)
            if name == "press" and outcome != t.FAILURE:
                self._set_status(ON_GUARD, ON_GUARD, "TP-G10", "bind_broken")
            elif name == "double" and self.status[0] == self.status[1] == BOUND:
                self._set_status(ON_GUARD, ON_GUARD, "TP-G10", "bind_ceded")
        elif effect == STOP:
            if outcome == t.BIND and name in ("parry", "ct_parry"):
                self._set_status(BOUND, BOUND, technique.rule, "bind")
        elif effect == MOVE:
            if name == "retreat":
                if outcome != t.FAILURE:
                    self._set_distance(self._retreat_distance(outcome), technique.rule, seat)
            elif not stopped:
                self._set_distance(self._moved_distance(flat_action, outcome, hit), technique.rule, seat)
        elif outcome == t.SUCCESS:
            self._state_change(seat, other, name, technique.rule)

    def _state_change(self, seat: int, other: int, name: str, rule: str) -> None:
        """Successful non-strike, non-move actions: statuses and flags (TP-022, 025, 026, 028, 030, 033, 035, G10)."""
        if name == "aim":
            self.aimed[seat] = True
            self.events.emit(rule, "aimed", seat)
        elif name == "ready":
            self.status[seat] = ON_GUARD
            self.events.emit("TP-G10", "status", seat, status="on_guard")
        elif name == "disarm":
            self.disarmed[other] = True
            self.events.emit(rule, "disarmed", other)
            self._set_status(ON_GUARD, ON_GUARD, "TP-G10", "bind_ended")
        elif name in ("escape", "withdraw"):
            self._set_status(ON_GUARD, ON_GUARD, "TP-G10", name)
        elif name == "grapple":
            self._set_status(GRAPPLED, GRAPPLED, "TP-G10", "grapple")
            self._set_distance(1, rule, seat)
        elif name == "pin":
            self.status[other] = PINNED
            self.events.emit(rule, "status", other, status="pinned")
        elif name == "recover_weapon":
            self.disarmed[seat] = False
            self.events.emit(rule, "recovered_weapon", seat)
        elif name == "reload":
            self.loaded[seat] = True
            self.events.emit(rule, "reloaded", seat)

    def _set_status(self, status_a: int, status_b: int, rule: str, why: str) -> None:
        self.status[0], self.status[1] = status_a, status_b
        self.events.emit(rule, "statuses", None, why=why, statuses=(STATUS_NAMES[status_a], STATUS_NAMES[status_b]))

    def _set_distance(self, distance: int, rule: str, seat: int) -> None:
        if distance != self.distance:
            self.events.emit(rule, "distance", seat, before=self.distance, after=distance)
            self.distance = distance

    def _moved_distance(self, flat_action: int, outcome: int, hit: bool) -> int:
        """TP-023/024, TP-G07, TP-G11: where a Move or Combat Move leaves the duel's one distance."""
        rules, d = self.ruleset, self.distance
        closing = DIRECTION_OF[flat_action] == CLOSE
        if flat_action in (_MOVE_CLOSE, _MOVE_OPEN):
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

    def _retreat_distance(self, outcome: int) -> int:
        """TP-042 / TP-G11: a Retreat edges one square away, a critical one the Base Combat Movement."""
        step = self.ruleset.base_movement if outcome == t.CRITICAL else 1
        return min(self.ruleset.max_distance, self.distance + step)

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
