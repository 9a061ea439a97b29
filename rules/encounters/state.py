"""One encounter duel in progress: the 001 structure of an encounter as a state machine (EN-001..EN-122).

Set-up: beginning-of-encounter effects (EN-001, none in v0), initiative rolls (EN-002, EN-003, EN-004), opening
stances in reverse initiative order (EN-005), then rounds (EN-006). A round: Void Points spent at its
beginning in initiative order (EN-007, EN-106, EN-108), the turns in initiative order (EN-008), the
Readying Phase (EN-009, EN-016, EN-017, EN-018). A turn: two Simple Actions (EN-010), the stance (EN-011, not in
round 1), a grapple contest if grappled (EN-087), then actions until the character ends its turn or has
nothing left to do (EN-012, EN-013, EN-014, EN-015).

Decisions, each one ``apply`` by the seat that makes it: ``stance``, ``round_start`` (a Void Point at the
start of the round), ``act`` (an action of the turn), ``extra_attack`` (the Free attack a successful
Extra Attack grants, EN-076) and ``endure`` (the target of damage may spend a Void Point first, EN-109).
A decision whose only legal action is ``pass`` is taken by the rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np
from mypy_extensions import mypyc_attr

from issoku.rules.encounters import legality
from issoku.rules.encounters import wounds as w
from issoku.rules.encounters.actions import (
    CODEC, EARTH_DEFEND, G_BREAK, G_HIT, G_MAINTAIN, G_NEVERMIND, G_THROW,
    GRAPPLE, LET_GO, MOVES, PASS, READY_WEAPON, RECOVER, STAND, STANCE_ACTIONS, VOID_ACCELERATE, VOID_BOOST,
    VOID_ENDURE,
    WEAPON_GRAPPLE, Attack,
)
from issoku.rules.encounters.combat import (
    ENDURE_REDUCTION, FIRE, PUSH_SQUARES, STANCES, STUN_PENALTY, STUN_TN, STUN_TN_STEP, VOID, damage_pool,
    earth_stance_bonus, feint_bonus,
)
from issoku.rules.encounters.configured import EncounterRules
from issoku.rules.encounters.dice import Pool, contest_winner, raised_tn, roll_pool, skill_pool, trait_pool
from issoku.rules.encounters.fighter import GROUND, HELD, READY, SIMPLE_ACTIONS_PER_TURN, Combatant
from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.encounters.observation import describe, encode
from issoku.rules.encounters.timers import Timed, tick
from issoku.rules.kernel import Dice, EventLog, IllegalActionError

if TYPE_CHECKING:
    from issoku.rules.encounters.ruleset import EncounterDuel

STANCE, ROUND_START, ACT, EXTRA, ENDURE, NEVERMIND, OVER = range(7)

_VOID_STANCE_BONUS = Pool(1, 1)        # EN-064: +1k1+Void
_BOOST_BONUS = Pool(1, 1)              # EN-107
_MAINTAIN_BONUS = Pool(1, 1)           # EN-097
_FIRE_ATTACK_BONUS = Pool(2, 1)        # EN-063
_STRONG_POSITION = Pool(1, 0)          # EN-119
_PRONE_ATTACK = Pool(-2, 0)            # EN-121
_DISARM_DAMAGE = Pool(1, 1)            # EN-075
ACCELERATE_BONUS = 10                  # EN-106


@lru_cache(maxsize=None)
def sides_of(teams: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats of each side, side 0 first, for seat teams ``teams`` (read on every decision: computed once)."""
    return tuple(tuple(s for s, t in enumerate(teams) if t == team) for team in range(max(teams) + 1))


RulesT = TypeVar("RulesT", bound=EncounterRules)
"""The ruleset a state plays: the duel's (this module) or the skirmish's (:mod:`.skirmish_state`)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class EncounterState(Generic[RulesT]):
    """An encounter between seats 0 and 1 (see the module docstring)."""

    __slots__ = ("ruleset", "events", "_dice", "fighters", "distance", "round", "order", "turn_index", "phase",
                 "_queue", "grapple", "controller", "weapon_grapple", "pending", "effects", "_legal",
                 "outcome", "credits", "tactics")

    ruleset: RulesT
    order: tuple[int, ...]
    """The seats in initiative order (EN-002), set by :meth:`_roll_initiative`. Declared here rather than given a
    placeholder, which the type checker would take as the value still there after the roll (a pair, where a
    skirmish orders more): compiled code acts on that belief."""

    def __init__(self, ruleset: RulesT, dice: Dice, events: EventLog) -> None:
        self.ruleset = ruleset
        self.events = events
        self._dice = dice
        self.fighters = [Combatant(sheet, ruleset.catalog.weapons["unarmed"], memo)
                         for sheet, memo in zip(ruleset.sheets, ruleset.atn_memos)]
        self.distance = ruleset.start_distance
        self.round = 0
        self.turn_index = 0
        self.phase = STANCE
        self._queue: list[int] = []
        self.grapple = False
        self.controller: int | None = None
        self.weapon_grapple: int | None = None     # the seat that started a Weapon Grapple (EN-088)
        self.pending: dict | None = None
        self.effects: tuple[Timed, ...] = ()   # EN-017
        self._legal: list[int] = []
        self.outcome: dict[int, str] = {}
        self.credits: list[tuple[int, int, str]] = []   # EN-054/EN-055: (who, whom, "downed" or "killed")
        self.tactics = [0] * (max(ruleset.seat_teams) + 1)   # EN-082 / EN-G09: each side's Tactics Pool
        self.events.emit("EN-001", "encounter_start", None, effects=0, **self._layout())
        self._roll_initiative()
        self._queue = list(reversed(self.order))                                    # EN-005
        self._ask_stance()

    # ----------------------------------------------------------------- protocol

    def current_seat(self) -> int | None:
        """The seat whose decision it is, None once over."""
        phase = self.phase
        if phase == ACT:
            return self.order[self.turn_index]            # the actor (:meth:`actor`), asked on every decision
        if phase == OVER:
            return None
        if phase == STANCE or phase == ROUND_START:
            return self._queue[0]
        if phase == ENDURE:
            assert self.pending is not None  # Endure is asked about pending damage (EN-109)
            return self.pending["target"]
        if phase == NEVERMIND:
            return self._nevermind_asked()
        return self.actor()

    def _nevermind_asked(self) -> int:
        """The seat asked to agree to end the grapple (EN-099): in a duel, the other one."""
        return 1 - self.actor()

    def decision_kind(self) -> str:
        """One of :data:`~issoku.rules.encounters.kinds.DECISION_KINDS` (``"over"`` once over)."""
        return DECISION_KINDS[self.phase] if self.phase != OVER else "over"

    def legal_actions(self) -> list[int]:
        """Ascending legal flat actions."""
        return list(self._legal)

    def apply(self, flat_action: int) -> None:
        """Play one decision of the current seat; raises IllegalActionError otherwise."""
        if flat_action not in self._legal:
            raise IllegalActionError(flat_action, self._legal, self.ruleset.action_names, self.decision_kind())
        self._dispatch(flat_action)

    def _dispatch(self, flat_action: int) -> None:
        """Play a legal decision (one of the duel's table)."""
        phase = self.phase
        if phase == STANCE:
            order = CODEC.decode(flat_action)
            assert isinstance(order, tuple)  # ("stance", <stance>)
            self._choose_stance(self._queue.pop(0), order[1])
        elif phase == ROUND_START:
            self._round_start_choice(flat_action)
        elif phase == ENDURE:
            self._finish_damage(endure=flat_action == VOID_ENDURE)
        elif phase == NEVERMIND:
            if flat_action == G_NEVERMIND:
                seat = self.current_seat()
                assert seat is not None  # the grapple's other side is deciding (EN-099)
                self._end_grapple(seat, "EN-099", "nevermind")
            else:
                self.events.emit("EN-099", "nevermind_declined", self.current_seat())
            self._continue_turn()
        elif phase == EXTRA:
            if flat_action == PASS:
                self._continue_turn()
            else:
                attack = CODEC.decode(flat_action)
                assert isinstance(attack, Attack)  # an Extra Attack's only orders are attacks (EN-076)
                self._attack(self.actor(), attack, free=True)
        elif flat_action == PASS:
            self._end_turn()
        else:
            self._act(flat_action)

    def is_terminal(self) -> bool:
        """EN-G18: a side has no character able to act."""
        fighters = self.fighters
        for members in self._sides():
            for seat in members:               # a side stands while one member can act: asked until one does
                if fighters[seat].can_act():
                    break
            else:
                return True
        return False

    def _sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, side 0 first (``ruleset.seat_teams``)."""
        return sides_of(self.ruleset.seat_teams)

    def is_truncated(self) -> bool:
        """The round limit ended the encounter undecided (EN-G18)."""
        return self.phase == OVER and not self.is_terminal()

    def is_eliminated(self, seat: int) -> bool:
        """The seat's character is Out or Dead."""
        return not self.fighters[seat].can_act()

    def returns(self) -> tuple[float, ...]:
        """+1 to every member of the side still standing, −1 to every member of the side that has no character
        able to act (fallen or not); 0 for all when both sides are down, on a truncation or in a fight in
        progress."""
        teams = self.ruleset.seat_teams
        down = [not any(self.fighters[seat].can_act() for seat in members) for members in self._sides()]
        if down[0] == down[1]:
            return (0.0,) * len(teams)
        return tuple(-1.0 if down[team] else 1.0 for team in teams)

    def observation(self: "EncounterState[EncounterDuel]", seat: int) -> np.ndarray:
        """What ``seat`` may know, ego-centric (see :mod:`issoku.rules.encounters.observation`)."""
        return encode(self, seat)

    def describe_observation(self, seat: int) -> dict[str, Any]:
        """The game values ``observation(seat)`` is made of (``observation.describe``), for an export's golden
        vectors."""
        return describe(self, seat)

    def clone(self) -> "EncounterState[RulesT]":
        """An independent copy, dice and event log included."""
        copy = type(self).__new__(type(self))
        copy.ruleset, copy.events, copy._dice = self.ruleset, self.events.clone(), self._dice.clone()
        copy.fighters = [f.clone() for f in self.fighters]
        copy.distance, copy.round, copy.order, copy.turn_index = self.distance, self.round, self.order, self.turn_index
        copy.phase, copy.grapple, copy.controller = self.phase, self.grapple, self.controller
        copy.weapon_grapple = self.weapon_grapple
        copy._queue, copy._legal = list(self._queue), list(self._legal)
        copy.pending = dict(self.pending) if self.pending is not None else None
        copy.effects = self.effects
        copy.outcome = dict(self.outcome)
        copy.credits, copy.tactics = list(self.credits), list(self.tactics)
        return copy

    def set_dice(self, dice: Dice) -> None:
        """Draw chance from ``dice`` from now on (the kernel's chance hook): search resamples the future rolls
        through this, so that it never plans on the seeded dice it cannot know."""
        self._dice = dice

    def health_fractions(self) -> tuple[float, ...]:
        """Each seat's Wounds still to take before Out (EN-050, a mook's EN-059) as a share of all it can take."""
        fractions = []
        for fighter in self.fighters:
            out = next(rank.threshold for rank in fighter.ranks if rank.name == w.OUT)
            fractions.append(max(0.0, 1.0 - fighter.wounds / out) if fighter.can_act() else 0.0)
        return tuple(fractions)

    def render_text(self) -> str:
        """A spectator's picture: round, distance, each character's wounds, stance, Void Points, ATN."""
        names = self.ruleset.seat_names
        lines = [f"round {self.round}  distance {self.distance * 5} ft  order: "
                 + " > ".join(names[s] for s in self.order) + ("  [grapple" + (
                     f", {names[self.controller]} in control]" if self.controller is not None else "]")
                     if self.grapple else "")]
        for seat, f in enumerate(self.fighters):
            flags = " ".join(flag for flag, on in (("prone", f.prone), ("deflect", f.deflect),
                                                   (f"weapon {f.weapon_state}", f.weapon_state != READY)) if on)
            lines.append(f"  {names[seat]:<9} {f.sheet.name:<11} {f.weapon.name:<9} wounds {f.wounds:>2} "
                         f"({f.rank().name})  {f.stance:<5} init {f.initiative:>2}  void {f.void_points}  "
                         f"ATN {self.atn(seat)}  {flags}".rstrip())
        return "\n".join(lines)

    # ----------------------------------------------------------------- public helpers

    def actor(self) -> int:
        """The seat whose turn it is."""
        return self.order[self.turn_index]

    def atn(self, seat: int, melee: bool = True, ignore_armour: bool = False) -> int:
        """The seat's Armor Target Number now (EN-067)."""
        return self.fighters[seat].atn(self.grapple, melee, ignore_armour)

    def _layout(self) -> dict:
        """Where the characters stand at the start, for the log: the duel's distance in squares."""
        return {"distance": self.distance}

    def opponent(self, seat: int) -> int:
        """The character ``seat``'s attack, grapple or move is about: in a duel, the other one."""
        return 1 - seat

    def distance_between(self, seat: int, other: int) -> int:
        """Squares between two characters (EN-G10); a duel tracks only the one distance."""
        return self.distance

    # ----------------------------------------------------------------- legality hooks

    def _act_legal(self, seat: int) -> list[int]:
        """The flat actions ``seat`` may take now in its turn."""
        return legality.act(self, seat)

    def _extra_attack_legal(self, seat: int) -> list[int]:
        """The Free attacks a successful Extra Attack allows (EN-076)."""
        return legality.attacks(self, seat, free=True)

    def _round_start_legal(self, seat: int) -> list[int]:
        """The Void Point uses ``seat`` may make at the beginning of the round (EN-007)."""
        return legality.round_start(self, seat)

    # ----------------------------------------------------------------- rolls

    def _roll(self, seat: int, pool: Pool, rule: str, kind: str, test: bool = True, in_action: bool = True,
              **data) -> int:
        """Roll a pool for ``seat``: a test or contest takes the wound penalty (EN-043), the once-a-round
        Void-stance bonus (EN-064) and an armed Boost (EN-107); a damage roll takes none of them. Stun's
        −3k0 (EN-113, EN-A11) falls on the rolls of actions; ``in_action`` False for the Readying-Phase
        shake-off test, which is no action (EN-113 decision in docs/rules/encounters.md)."""
        f = self.fighters[seat]
        extras = []
        if test:
            if f.began_in_void and not f.void_bonus_used:
                f.void_bonus_used = True
                pool = pool + _VOID_STANCE_BONUS.plus(bonus=f.ring("void"))
                extras.append("void_stance")
            if f.boost_armed:
                f.boost_armed = False
                pool = pool + _BOOST_BONUS
                extras.append("boost")
            if f.stun_tn is not None and in_action:                                     # EN-113, EN-A11
                pool = pool.plus(roll=STUN_PENALTY)
                extras.append("stun-3k0")
            penalty = f.wound_penalty()
            if penalty:
                pool = pool.plus(bonus=penalty)
                extras.append(f"wounds{penalty}")
        result = roll_pool(self._dice, pool, self.ruleset.ten_dice_rule)
        self.events.emit(rule, kind, seat, **result.record(), extras=tuple(extras), **data)
        return result.total

    def _contest(self, attacker: int, defender: int, pools: tuple[Pool, Pool], rule: str, kind: str) -> int:
        """EN-G04: both roll, the higher total wins, a tie goes to the defender; returns the winner's seat."""
        totals = (self._roll(attacker, pools[0], rule, kind + "_roll"),
                  self._roll(defender, pools[1], rule, kind + "_roll"))
        winner = (attacker, defender)[contest_winner(*totals)]
        self.events.emit("EN-G04", kind, winner, totals=totals)
        return winner

    # ----------------------------------------------------------------- set-up and rounds

    def _roll_initiative(self) -> None:
        """EN-002: Insight Rank/Reflexes; EN-003: characters tied on a value are put in a random order (one
        seeded die per place: a d2 for a pair, then a d(k-1)... for k tied), kept for the encounter."""
        for seat, f in enumerate(self.fighters):
            f.initiative = self._roll(seat, skill_pool(f.sheet.insight_rank, f.trait("reflexes")), "EN-002",
                                      "initiative")
        order: list[int] = []
        for value in sorted({f.initiative for f in self.fighters}, reverse=True):
            tied = [seat for seat, f in enumerate(self.fighters) if f.initiative == value]
            if len(tied) > 1:
                drawn = []
                while len(tied) > 1:
                    drawn.append(tied.pop(self._dice.die(len(tied)) - 1))
                tied = drawn + tied
                self.events.emit("EN-003", "initiative_tie", tied[0], value=value,
                                 **({"order": tuple(tied)} if len(tied) > 2 else {}))
            order += tied
        for place, seat in enumerate(order):
            self.fighters[seat].tie_seq = place
        self.order = tuple(order)
        self.events.emit("EN-002", "initiative_order", None, order=self.order,
                         values=tuple(f.initiative for f in self.fighters))

    def _initiative_value(self, seat: int) -> int:
        """EN-064 / EN-A05: +5 × Insight Rank in a round begun in Void stance."""
        f = self.fighters[seat]
        return f.initiative + (5 * f.sheet.insight_rank if f.began_in_void else 0)

    def _sort_order(self) -> None:
        """EN-008: higher initiative first; equal values keep their tie order (EN-003, EN-004)."""
        seats = range(len(self.fighters))
        order = tuple(sorted(seats, key=lambda s: (-self._initiative_value(s), self.fighters[s].tie_seq)))
        if order != self.order:
            self.events.emit("EN-008", "initiative_order", None, order=order,
                             values=tuple(self._initiative_value(s) for s in seats))
        self.order = order

    def _set_initiative(self, seat: int, value: int, rule: str) -> None:
        """EN-004: a changed initiative joins the back of the line of its new value."""
        f = self.fighters[seat]
        before, f.initiative = f.initiative, value
        f.tie_seq = max(g.tie_seq for g in self.fighters) + 1
        self.events.emit(rule, "initiative", seat, before=before, after=value)

    def _ask_stance(self) -> None:
        """EN-005: the next character in reverse initiative order picks its opening stance."""
        if self._queue:
            self.phase, self._legal = STANCE, sorted(STANCE_ACTIONS[s] for s in STANCES)
            return
        self.events.emit("EN-006", "rounds_begin", None)
        self._begin_round()

    def _choose_stance(self, seat: int, stance: str) -> None:
        f = self.fighters[seat]
        f.stance = stance
        self.events.emit("EN-011" if self.round else "EN-005", "stance", seat, stance=stance)
        if self.round:
            self._after_stance(seat)
        else:
            self._ask_stance()

    def _begin_round(self) -> None:
        """EN-007: the round's beginning; Void Points for Accelerate and Deflect, in initiative order."""
        self.round += 1
        self.turn_index = 0
        for f in self.fighters:
            f.began_in_void = f.stance == VOID                                          # EN-064, EN-A05
            f.void_bonus_used = False
            f.void_spent.clear()
            f.moved = 0
        self.events.emit("EN-007", "round_start", None, round=self.round)
        self._sort_order()
        self._queue = [s for s in self.order if self.fighters[s].can_act() and self._round_start_legal(s) != [PASS]]
        self._next_round_start()

    def _next_round_start(self) -> None:
        while self._queue:
            legal = self._round_start_legal(self._queue[0])
            if legal != [PASS]:
                self.phase, self._legal = ROUND_START, legal
                return
            self._queue.pop(0)
        self._sort_order()
        self.turn_index = 0
        self._begin_turn()

    def _round_start_choice(self, flat_action: int) -> None:
        seat = self._queue[0]
        f = self.fighters[seat]
        if flat_action == PASS:
            self._queue.pop(0)
        elif flat_action == VOID_ACCELERATE:
            self._spend_void(seat, "accelerate", "EN-106")
            self._set_initiative(seat, f.initiative + ACCELERATE_BONUS, "EN-106")
        else:
            self._spend_void(seat, "deflect", "EN-108")
            f.deflect = True
            self.effects += (Timed("deflect", seat, 0),)                                  # until the round's end
        self._next_round_start()

    def _spend_void(self, seat: int, effect: str, rule: str) -> None:
        f = self.fighters[seat]
        f.void_points -= 1
        f.void_spent.add(effect)
        self.events.emit(rule, "void_point", seat, effect=effect, left=f.void_points)

    def _readying_phase(self) -> None:
        """EN-009, EN-016, EN-017, EN-018: timers tick (an effect expires entering the phase with 0 rounds left)."""
        self.events.emit("EN-016", "readying_phase", None, round=self.round)
        for seat in self.order[::-1]:                                                 # EN-016: reverse order
            if self.fighters[seat].stun_tn is not None and self.fighters[seat].can_act():
                self._shake_off_stun(seat)
        self.effects, expired = tick(self.effects)
        for effect in self.effects:
            self.events.emit("EN-017", "timer", effect.seat, effect=effect.name, rounds_left=effect.rounds_left)
        for effect in expired:
            self.events.emit("EN-017", "expires", effect.seat, effect=effect.name)
            if effect.name == "deflect":
                self.fighters[effect.seat].deflect = False
        if self.round >= self.ruleset.round_limit:
            self.events.emit("EN-G18", "round_limit", None, round=self.round)
            self._over()
            return
        self.events.emit("EN-018", "next_round", None)
        self._begin_round()

    def _shake_off_stun(self, seat: int) -> None:
        """EN-113 / EN-G15: test Earth against the Stun TN; success ends it, failure lowers the TN by 10 for
        the next round; a TN already down to 0 ends it without a roll. The test is no action, so Stun's own
        −3k0 does not fall on it (EN-113: else Earth 2 or 3 rolls 0k0 and can never succeed)."""
        f = self.fighters[seat]
        tn = f.stun_tn
        assert tn is not None  # called for a Stunned fighter only
        if tn <= 0:
            f.stun_tn = None
            self.events.emit("EN-G15", "stun_ends", seat, why="tn_0")
            return
        total = self._roll(seat, trait_pool(f.ring("earth")), "EN-113", "stun_test", in_action=False,
                           tn=tn)
        if total >= tn:
            f.stun_tn = None
            self.events.emit("EN-113", "stun_ends", seat, why="shaken_off")
        else:
            f.stun_tn = max(0, tn - STUN_TN_STEP)
            self.events.emit("EN-G15", "stun_tn", seat, tn=f.stun_tn)

    def _over(self) -> None:
        self.phase, self._legal, self.pending = OVER, [], None

    # ----------------------------------------------------------------- turns

    def _begin_turn(self) -> None:
        while not self.fighters[self.actor()].can_act():                             # EN-052/EN-053: no turn
            self.turn_index += 1
            if self.turn_index == len(self.order):
                self._readying_phase()
                return
        seat = self.actor()
        self._on_turn_start(seat)
        f = self.fighters[seat]
        f.simple_actions = SIMPLE_ACTIONS_PER_TURN                                    # EN-010
        f.free_used.clear()
        f.small_readies = 0
        f.extra_attack_done = False
        f.earth_bonus = 0                                                             # EN-062: until now
        self.events.emit("EN-008", "turn_start", seat, round=self.round)
        if self.grapple:
            self._grapple_contest(seat)
        if self.round > 1:                                                            # EN-011
            self._queue = [seat]
            self.phase, self._legal = STANCE, legality.stance(self, seat)
            return
        self._after_stance(seat)

    def _on_turn_start(self, seat: int) -> None:
        """Effects that last until the start of the character's next turn end here (none in a duel)."""

    def _after_stance(self, seat: int) -> None:
        f = self.fighters[seat]
        if f.stance == VOID:                                                          # EN-064
            f.simple_actions = 0
            self.events.emit("EN-064", "void_stance_actions", seat, simple_actions=0)
        self._continue_turn()

    def _continue_turn(self) -> None:
        """Ask the actor for its next action, or end the turn when only ``pass`` is left (EN-015)."""
        if self.is_terminal():
            self._defeat()
            return
        legal = self._act_legal(self.actor())
        if legal == [PASS]:
            self._end_turn()
        else:
            self.phase, self._legal = ACT, legal

    def _end_turn(self) -> None:
        seat = self.actor()
        self.events.emit("EN-015", "turn_end", seat)
        f = self.fighters[seat]
        if f.disarm_free_raise:                                                       # EN-091
            f.disarm_free_raise -= 1
        if self.fighters[seat].stun_tn is not None:                                   # EN-G08: until now
            self.fighters[seat].stun_tn = None
            self.events.emit("EN-G08", "stun_ends", seat, why="end_of_turn")
        self.turn_index += 1
        if self.turn_index < len(self.order):
            self._begin_turn()
        else:
            self._readying_phase()

    def _defeat(self) -> None:
        self.events.emit("EN-G18", "encounter_end", None,
                         ranks=tuple(f.rank().name for f in self.fighters))
        self._over()

    # ----------------------------------------------------------------- actions

    def _act(self, flat_action: int) -> None:
        seat = self.actor()
        f = self.fighters[seat]
        order = CODEC.decode(flat_action)
        if isinstance(order, Attack):
            self._attack(seat, order, free=False)
            return
        if flat_action == G_HIT:
            self._grapple_hit(seat)
            return
        if flat_action == VOID_BOOST:
            self._spend_void(seat, "boost", "EN-107")
            f.boost_armed = True
        elif flat_action in MOVES:
            self._move(seat, *MOVES[flat_action])
        elif flat_action == EARTH_DEFEND:
            self._spend(seat, 2, "earth_defend")
            total = self._roll(seat, skill_pool(f.sheet.skill("defense"), f.trait("reflexes")), "EN-062",
                               "earth_test", tn=0)
            f.earth_bonus = earth_stance_bonus(total) if total >= 0 else 0
            self.events.emit("EN-G16", "earth_bonus", seat, bonus=f.earth_bonus, atn=self.atn(seat))
        elif flat_action == STAND:
            self._spend(seat, 1, "stand")
            f.prone = False
            self.events.emit("EN-121", "stand", seat)
        elif flat_action == LET_GO:
            f.free_used.add("let_go")
            f.weapon_state = GROUND
            self.events.emit("EN-022", "let_go", seat, weapon=f.sheet.weapon.name)
        elif flat_action == RECOVER:
            self._spend(seat, 1, "recover_weapon")
            f.weapon_state = HELD
            self.events.emit("EN-030", "recover_weapon", seat, weapon=f.sheet.weapon.name)
        elif flat_action == READY_WEAPON:
            if f.sheet.weapon.size == "small" and f.small_readies < 2:
                f.small_readies += 1
                rule = "EN-020"
            else:
                self._spend(seat, 1, "ready_weapon")
                rule = "EN-027"
            f.weapon_state = READY
            self.events.emit(rule, "ready_weapon", seat, weapon=f.sheet.weapon.name)
        elif flat_action in (GRAPPLE, WEAPON_GRAPPLE):
            self._start_grapple(seat, with_weapon=flat_action == WEAPON_GRAPPLE)
        else:
            self._grapple_action(seat, flat_action)
        if self.phase not in (ENDURE, NEVERMIND, OVER):
            self._continue_turn()

    def _spend(self, seat: int, simple_actions: int, what: str) -> None:
        """EN-010 / EN-014: a Simple Action costs one, a Complex Action two."""
        f = self.fighters[seat]
        f.simple_actions -= simple_actions
        self.events.emit("EN-014" if simple_actions == 2 else "EN-010", "action", seat, what=what,
                         speed="complex" if simple_actions == 2 else "simple", left=f.simple_actions)

    def _move(self, seat: int, kind: str, direction: str) -> None:
        f = self.fighters[seat]
        if kind == "free_move":                                                       # EN-023, EN-102
            f.free_used.add("free_move")
            rule = "EN-102"
        else:
            self._spend(seat, 1 if kind == "simple_move" else 2, kind)                 # EN-029, EN-103
            rule = "EN-103" if kind == "simple_move" else "EN-121"
        squares = legality.move_allowance(self, seat, kind)
        moved, where = self._relocate(seat, squares, direction)
        f.moved += moved
        self.events.emit(rule, "move", seat, move=kind, direction=direction, allowance=squares * 5,
                         **where, moved_this_round=f.moved * 5, cap=f.move_cap() * 5)

    def _relocate(self, seat: int, squares: int, direction: str) -> tuple[int, dict]:
        """Move ``seat`` up to ``squares`` toward or away from :meth:`opponent`; returns the squares covered and
        the move event's record of where. The duel's distance stops at adjacency or the arena's edge."""
        before = self.distance
        if direction == "toward":
            self.distance = max(1, before - squares)
        else:
            self.distance = min(self.ruleset.max_distance, before + squares)
        return abs(self.distance - before), {"before": before * 5, "after": self.distance * 5}

    # ----------------------------------------------------------------- attacks

    def _attack(self, seat: int, attack: Attack, free: bool) -> None:
        """EN-066: test Weapon/Agility (Weapon/Reflexes when aimed) against ATN + 5 per raise (EN-G03); a
        Complex Action (EN-031) unless it is an Extra Attack's free one (EN-076)."""
        f, target = self.fighters[seat], self.opponent(seat)
        t = self.fighters[target]
        weapon = f.weapon
        distance = self.distance_between(seat, target)
        if free:
            self.events.emit("EN-076", "action", seat, what="extra_attack", speed="free", left=f.simple_actions)
        else:
            self._spend(seat, 2, "attack")
        melee = weapon.kind == "melee"
        pool = skill_pool(f.sheet.skill(weapon.skill), f.trait("agility" if weapon.kind != "aimed" else "reflexes"))
        parts: list[str] = []
        if f.stance == FIRE and melee:
            pool, parts = pool + _FIRE_ATTACK_BONUS, parts + ["fire+2k1"]             # EN-063
        if weapon.reach and distance > 1 and t.weapon.range < distance:
            pool, parts = pool + _STRONG_POSITION, parts + ["strong_position+1k0"]   # EN-119
        if f.prone and weapon.size != "large":
            pool, parts = pool + _PRONE_ATTACK, parts + ["prone-2k0"]                # EN-121
        base_atn = self.atn(target, melee)
        raises = attack.raises
        if attack.special == "disarm" and f.disarm_free_raise:                       # EN-091, EN-G03
            f.disarm_free_raise, raises = 0, raises - 1
            self.events.emit("EN-091", "free_raise", seat, maneuver="disarm")
        if f.tactics_armed and raises > 0:                                             # EN-G09: from the pool
            f.tactics_armed, raises = False, raises - 1
            self.events.emit("EN-G09", "free_raise", seat, source="tactics_pool")
        tn = raised_tn(base_atn, raises)
        total = self._roll(seat, pool, "EN-066", "attack_roll", attack=attack.name, weapon=weapon.name,
                           modifiers=tuple(parts), atn=base_atn, raises=attack.raises, tn=tn)
        if total < tn:
            self.events.emit("EN-066", "miss", seat, total=total, tn=tn)
            self._after_attack(seat, extra=False)
            return
        self.events.emit("EN-066", "hit", seat, total=total, tn=tn, margin=total - base_atn)
        after = []
        if attack.special == "tactical_strike":                                        # EN-082, EN-G09
            team = self.ruleset.seat_teams[seat]
            self.tactics[team] += 1
            self.events.emit("EN-082", "tactics_pool", seat, side=team, pool=self.tactics[team])
        if attack.special == "disarm":                                                 # EN-075
            self._deal(seat, target, _DISARM_DAMAGE, "EN-075", ("disarm",), extra=False)
            return
        if attack.special in ("knockdown", "push", "push_10", "pull"):                 # EN-080, EN-081
            rule = "EN-080" if attack.special == "knockdown" else "EN-081"
            resist = trait_pool(t.trait("strength"))
            if attack.special == "push_10":
                resist = resist.plus(bonus=t.ring("earth"))                            # EN-081: + Earth past 5 ft
            winner = self._contest(seat, target, (trait_pool(f.trait("strength")), resist),
                                   rule, attack.special + "_contest")
            if winner != seat:                                                         # EN-A03
                self.events.emit("EN-A03", "no_damage", seat, maneuver=attack.special)
                self._after_attack(seat, extra=False)
                return
            after.append(attack.special)
        other = Pool(0, 0)
        if attack.feint:                                                               # EN-078
            bonus = feint_bonus(total, base_atn, f.sheet.insight_rank)
            other = other.plus(bonus=bonus)
            self.events.emit("EN-078", "feint", seat, margin=total - base_atn, bonus=bonus,
                             cap=5 * f.sheet.insight_rank)
        steps = damage_pool(weapon.damage, f.trait("strength"), attack.extra_damage, other, explode=not f.sheet.mook)
        for rule, step in steps:
            self.events.emit(rule, "damage_pool", seat, pool=str(step))
        if attack.special == "focus_head":
            after.append("focus_head")
        self._deal(seat, target, steps[-1][1], "EN-039", tuple(after), extra=attack.special == "extra_attack")

    def _deal(self, seat: int, target: int, pool: Pool, rule: str, after: tuple[str, ...], extra: bool) -> None:
        """Roll damage (EN-039; not a test: no wound penalty), then let the target Endure (EN-109)."""
        rolled = self._roll(seat, pool, rule, "damage_roll", test=False)
        reduction = self.fighters[target].sheet.armour.reduction                      # EN-G06
        self.pending = {"attacker": seat, "target": target, "rolled": rolled, "reduction": reduction,
                        "after": after, "extra": extra}
        t = self.fighters[target]
        if t.void_points > 0 and "endure" not in t.void_spent and rolled - reduction > 0:
            self.phase, self._legal = ENDURE, sorted([PASS, VOID_ENDURE])
            return
        self._finish_damage(endure=False)

    def _finish_damage(self, endure: bool) -> None:
        """EN-041: the damage left after reduction (and Endure, EN-109) becomes Wounds; EN-054/EN-055."""
        p = self.pending
        assert p is not None  # damage is pending until Endure is decided (EN-109)
        self.pending = None
        attacker, target = p["attacker"], p["target"]
        t = self.fighters[target]
        if endure:
            self._spend_void(target, "endure", "EN-109")
        dealt = max(0, p["rolled"] - p["reduction"] - (ENDURE_REDUCTION if endure else 0))
        before = t.wounds
        t.wounds += dealt
        self.events.emit("EN-041", "wounds", target, rolled=p["rolled"], reduction=p["reduction"],
                         endure=ENDURE_REDUCTION if endure else 0, dealt=dealt, before=before, after=t.wounds,
                         rank=t.rank().name, penalty=t.wound_penalty())
        result = w.outcome(before, t.wounds, t.ranks)
        if result is not None:
            self.outcome[target] = result
            self.credits.append((attacker, target, result))
            self.events.emit("EN-055" if result == "killed" else "EN-054", result, attacker, target=target,
                             rank=t.rank().name)
        if t.can_act():
            for effect in p["after"]:
                self._after_damage(attacker, target, effect)
        self._after_attack(attacker, extra=p["extra"])

    def _after_damage(self, seat: int, target: int, effect: str) -> None:
        f, t = self.fighters[seat], self.fighters[target]
        if effect == "disarm":                                                         # EN-075
            winner = self._contest(seat, target, (trait_pool(f.trait("strength")), trait_pool(t.trait("strength"))),
                                   "EN-075", "disarm_contest")
            if winner == seat:
                t.weapon_state = GROUND
                self.events.emit("EN-075", "disarmed", target, weapon=t.sheet.weapon.name)
        elif effect == "knockdown":                                                    # EN-080
            t.prone = True
            self.events.emit("EN-080", "prone", target)
        elif effect in ("push", "push_10", "pull"):                                    # EN-081
            self._shove(seat, target, effect)
        elif effect == "focus_head":                                                   # EN-079, EN-G08
            t.stun_tn = STUN_TN
            self.events.emit("EN-G08", "stunned", target, tn=STUN_TN)

    def _shove(self, seat: int, target: int, effect: str) -> None:
        """EN-081: a Push moves the target away by its squares (to the arena's edge), a Pull one square
        toward the attacker (to adjacency); the duel's distance records it."""
        before = self.distance
        if effect == "pull":
            self.distance = max(1, before - 1)
        else:
            self.distance = min(self.ruleset.max_distance, before + PUSH_SQUARES[effect])
        self.events.emit("EN-081", "pulled" if effect == "pull" else "pushed", target, before=before * 5,
                         after=self.distance * 5)

    def _after_attack(self, seat: int, extra: bool) -> None:
        """EN-076: a successful Extra Attack grants one Free attack at once (once per turn)."""
        if self.is_terminal():
            self._defeat()
            return
        f = self.fighters[seat]
        if extra and not f.extra_attack_done:
            f.extra_attack_done = True
            self.events.emit("EN-076", "extra_attack", seat)
            legal = self._extra_attack_legal(seat)
            if legal:
                self.phase, self._legal = EXTRA, sorted([PASS] + legal)
                return
        self._continue_turn()

    # ----------------------------------------------------------------- grapples

    def _start_grapple(self, seat: int, with_weapon: bool) -> None:
        """EN-083: Jujutsu/Agility against the adjacent target's ATN without its armour; a Weapon Grapple
        tests the weapon's skill instead (EN-088)."""
        f, target = self.fighters[seat], 1 - seat
        self._spend(seat, 2, "weapon_grapple" if with_weapon else "grapple")
        tn = self.atn(target, ignore_armour=True)
        skill = f.sheet.skill(f.sheet.weapon.skill if with_weapon else "jujutsu")
        total = self._roll(seat, skill_pool(skill, f.trait("agility")), "EN-088" if with_weapon else "EN-083",
                           "grapple_test", tn=tn)
        if total >= tn:
            self.grapple, self.controller = True, None
            self.weapon_grapple = seat if with_weapon else None
            self.events.emit("EN-083", "grappled", seat, target=target,
                             weapon=f.sheet.weapon.name if with_weapon else None)

    def _grapple_skill(self, seat: int) -> int:
        """EN-087 / EN-089: Jujutsu, or in a Weapon Grapple the weapon's skill if that is higher."""
        f = self.fighters[seat]
        rank = f.sheet.skill("jujutsu")
        if self.weapon_grapple is not None:
            rank = max(rank, f.sheet.skill(self.fighters[self.weapon_grapple].sheet.weapon.skill))
        return rank

    def _grapple_contest(self, seat: int) -> None:
        """EN-087: at the start of a grappled character's turn both contest Jujutsu/Strength; a tie leaves
        control where it was (EN-G04). Maintain's +1k1 goes into this contest (EN-097)."""
        pools = []
        for s in (seat, 1 - seat):
            f = self.fighters[s]
            pool = skill_pool(self._grapple_skill(s), f.trait("strength"))
            if f.maintain:
                f.maintain = False
                pool = pool + _MAINTAIN_BONUS
            pools.append(pool)
        totals = (self._roll(seat, pools[0], "EN-087", "grapple_contest_roll"),
                  self._roll(1 - seat, pools[1], "EN-087", "grapple_contest_roll"))
        if totals[0] != totals[1]:
            self.controller = seat if totals[0] > totals[1] else 1 - seat
        self.events.emit("EN-087", "grapple_control", self.controller, totals=totals)

    def _end_grapple(self, seat: int, rule: str, why: str) -> None:
        if why == "break" and self.weapon_grapple not in (None, seat):                # EN-091
            self.fighters[seat].disarm_free_raise = 2
            self.events.emit("EN-091", "disarm_free_raise", seat, against=self.weapon_grapple)
        self.grapple, self.controller, self.weapon_grapple = False, None, None
        self.events.emit(rule, "grapple_ends", seat, why=why)

    def _grapple_action(self, seat: int, flat_action: int) -> None:
        """Break, Maintain and Throw (EN-094, EN-097, EN-095)."""
        f, target = self.fighters[seat], 1 - seat
        if flat_action == G_NEVERMIND:                                                # EN-099: ask the other
            f.free_used.add("nevermind")
            self.events.emit("EN-099", "nevermind_proposed", seat)
            self.phase, self._legal = NEVERMIND, sorted([PASS, G_NEVERMIND])
        elif flat_action == G_BREAK:                                                  # EN-094, EN-086
            self._spend(seat, 1, "grapple:break")
            self._end_grapple(seat, "EN-094", "break")
        elif flat_action == G_MAINTAIN:                                               # EN-097
            self._spend(seat, 2, "grapple:maintain")
            f.maintain = True
            self.events.emit("EN-097", "maintain", seat)
        elif flat_action == G_THROW:                                                  # EN-095, EN-A09
            self._spend(seat, 1, "grapple:throw")
            before = self.distance
            self.distance = min(self.ruleset.max_distance, max(1, f.trait("strength")))
            self.fighters[target].prone = True
            self.events.emit("EN-095", "thrown", target, before=before * 5, after=self.distance * 5)
            self._end_grapple(seat, "EN-A09", "throw")

    def _grapple_hit(self, seat: int) -> None:
        """EN-093: the controller rolls unarmed damage, no maneuvers; the starter of a Weapon Grapple rolls its
        weapon's (EN-090)."""
        f, target = self.fighters[seat], 1 - seat
        self._spend(seat, 2, "grapple:hit")
        weapon = f.sheet.weapon if self.weapon_grapple == seat else f.unarmed
        steps = damage_pool(weapon.damage, f.trait("strength"), explode=not f.sheet.mook)
        self.events.emit("EN-090" if self.weapon_grapple == seat else "EN-093", "damage_pool", seat,
                         pool=str(steps[-1][1]), weapon=weapon.name)
        self._deal(seat, target, steps[-1][1], "EN-093", (), extra=False)
