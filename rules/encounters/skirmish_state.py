"""An encounter skirmish in progress: the duel's state machine with N characters on EN-G10's 5-ft grid.

Everything of the duel is inherited (:class:`~issoku.rules.encounters.state.EncounterState`); what a
skirmish adds is *who*: each character has a square, distances are Chebyshev (diagonals count 5 ft), and
an attack or a move names the character it is about (an enemy slot, or an ally for Guard, Swap and moving
to a friend). Added rules: Guard (EN-100), Swap (EN-111), Tactical Strike and the Tactics Pool (EN-082,
EN-G09), Downed/Killed credits per character (EN-054/EN-055), grapples among many (EN-083..EN-099, :mod:`.holds`); a
character Out or Dead takes no more turns and the encounter ends when a side has nobody able to act (EN-G18).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from mypy_extensions import mypyc_attr

from issoku.rules.encounters import holds, legality
from issoku.rules.encounters.actions import (
    G_BREAK, G_HIT, G_MAINTAIN, G_NEVERMIND, G_THROW, GRAPPLE, GUARD, MOVES, PASS, WEAPON_GRAPPLE,
)
from issoku.rules.encounters.combat import AIR, EARTH, FIRE, PUSH_SQUARES
from issoku.rules.encounters.fighter import READY
from issoku.rules.encounters.skirmish_actions import (
    BY_TARGET, DRAG_BY_TARGET, DRAGS, TACTICS_RAISE, TARGETED, VOID_SWAP,
)
from issoku.rules.encounters.skirmish_observation import describe, encode
from issoku.rules.encounters.state import NEVERMIND, EncounterState
from issoku.rules.kernel import Dice, EventLog, IllegalActionError

if TYPE_CHECKING:
    from issoku.rules.encounters.skirmish import EncounterSkirmish

GUARD_BONUS = 10   # EN-100: the guarded character's ATN
GUARD_MALUS = 5    # EN-100: the guardian's ATN
Square = tuple[int, int]
_STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
"""The eight steps to a neighbouring square, in the order ties between equally good steps are broken."""


def chebyshev(a: Square, b: Square) -> int:
    """EN-G10: squares between two squares, a diagonal step counting as one."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@cache
def ranked_steps(dx: int, dy: int, toward: bool) -> tuple[Square, ...]:
    """The steps (offsets) that bring a character closer to one ``(dx, dy)`` squares away (down to adjacency;
    ``toward``) or farther from it, best first: the one that changes the distance most, ties to the one nearest
    (farthest) in a straight line, then in :data:`_STEPS` order. A move takes the first of them that stays in the
    arena and that nobody blocks; the ranking depends on the offset alone, so it is worked out once per offset."""
    now = max(abs(dx), abs(dy))
    if toward and now <= 1:
        return ()
    sign = 1 if toward else -1
    keyed = []
    for sx, sy in _STEPS:
        gap = max(abs(dx - sx), abs(dy - sy))
        if (gap < now) if toward else (gap > now):
            keyed.append(((sign * gap, sign * ((dx - sx) ** 2 + (dy - sy) ** 2)), (sx, sy)))
    keyed.sort(key=lambda pair: pair[0])   # stable: equal keys keep the scan order
    return tuple(step for _, step in keyed)


@cache
def at_enemy(slot: int, flats: tuple[int, ...]) -> tuple[int, ...]:
    """The duel's actions ``flats`` aimed at enemy ``slot`` (a table: the same few attack lists recur)."""
    return tuple(BY_TARGET[(flat, "enemy", slot)] for flat in flats)


@cache
def move_flats(who: str, slot: int, direction: str, kinds: tuple[str, ...]) -> tuple[int, ...]:
    """The moves of ``kinds`` toward or away from the character in ``who``'s slot ``slot`` (a few dozen tables)."""
    return tuple(BY_TARGET[(flat, who, slot)] for flat, (kind, way) in MOVES.items() if way == direction and kind in kinds)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class SkirmishState(EncounterState["EncounterSkirmish"]):
    """An encounter between two sides of one to four characters (see the module docstring)."""

    __slots__ = ("positions", "guards", "_focus", "holds", "_askers")

    def __init__(self, ruleset: "EncounterSkirmish", dice: Dice, events: EventLog) -> None:
        self.positions: list[Square] = list(ruleset.start_positions)
        self.guards: dict[int, int] = {}      # guardian -> the ally it guards (EN-100)
        self._focus = 0                       # the character the decision being played is about
        self.holds: list[holds.Hold] = []     # the grapples in progress (EN-083..EN-099)
        self._askers: list[int] = []          # who still has to agree to a Nevermind (EN-099)
        super().__init__(ruleset, dice, events)

    # ----------------------------------------------------------------- who is who

    def allies(self, seat: int) -> tuple[int, ...]:
        """``seat``'s allies in seat order: ally slot ``k`` (1..3) is ``allies(seat)[k - 1]``."""
        return self.ruleset.allies_of[seat]

    def enemies(self, seat: int) -> tuple[int, ...]:
        """``seat``'s enemies in seat order: enemy slot ``k`` is ``enemies(seat)[k]``."""
        return self.ruleset.enemies_of[seat]

    def _slot_seat(self, seat: int, kind: str, slot: int) -> int | None:
        others = self.enemies(seat) if kind == "enemy" else (None, *self.allies(seat))
        return others[slot] if slot < len(others) else None

    def opponent(self, seat: int) -> int:
        """The character the decision being weighed or played is about (chosen by the action's slot)."""
        return self._focus

    def distance_between(self, seat: int, other: int) -> int:
        """EN-G10: Chebyshev distance in 5-ft squares."""
        return chebyshev(self.positions[seat], self.positions[other])

    def _layout(self) -> dict:
        return {"positions": tuple(self.positions)}

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know, in padded ego-centric slots (:mod:`.skirmish_observation`)."""
        return encode(self, seat)

    def describe_observation(self, seat: int) -> dict[str, Any]:
        """The game values ``observation(seat)`` is made of (``skirmish_observation.describe``)."""
        return describe(self, seat)

    def clone(self) -> "SkirmishState":
        copy = super().clone()
        assert isinstance(copy, SkirmishState)
        copy.positions, copy.guards, copy._focus = list(self.positions), dict(self.guards), self._focus
        copy.holds, copy._askers = [hold.copy() for hold in self.holds], list(self._askers)
        return copy

    def hold_of(self, seat: int) -> holds.Hold | None:
        """The grapple ``seat`` takes part in, if any."""
        for hold in self.holds:
            if seat in hold.members:
                return hold
        return None

    def _nevermind_asked(self) -> int:
        """A Nevermind is asked of each other participant in turn (EN-099)."""
        return self._askers[0]

    # ----------------------------------------------------------------- ATN with Guard

    def guardian_of(self, seat: int) -> int | None:
        """EN-100: the character guarding ``seat`` now (able to act, within 5 ft), if any; Guards do not stack."""
        for guardian, ward in self.guards.items():
            if ward == seat and self.fighters[guardian].can_act() and self.hold_of(guardian) is None \
                    and self.distance_between(guardian, seat) <= 1:
                return guardian
        return None

    def atn(self, seat: int, melee: bool = True, ignore_armour: bool = False) -> int:
        """EN-067 with Guard (EN-100): +10 while guarded (a Misc bonus), −5 while guarding within 5 ft; a grappled
        character's is 5 + Armor only (EN-118)."""
        if self.hold_of(seat) is not None:
            return self.fighters[seat].atn(True, melee, ignore_armour)
        value = super().atn(seat, melee, ignore_armour)
        if self.guardian_of(seat) is not None:
            value += GUARD_BONUS
        ward = self.guards.get(seat)
        if ward is not None and self.distance_between(seat, ward) <= 1:
            value -= GUARD_MALUS
        return value

    # ----------------------------------------------------------------- what may be done

    def _act_legal(self, seat: int) -> list[int]:
        f = self.fighters[seat]
        hold = self.hold_of(seat)
        if hold is not None:
            return self._grappled_legal(seat, hold)
        legal = legality.own_actions(self, seat)
        if f.simple_actions >= 2:                                                   # EN-083, EN-088
            for k, enemy in enumerate(self.enemies(seat)):
                if self.fighters[enemy].can_act() and self.distance_between(seat, enemy) <= 1:
                    if f.free_hand:
                        legal.append(BY_TARGET[(GRAPPLE, "enemy", k)])
                    if f.weapon_state == READY and f.sheet.weapon.grapple:
                        legal.append(BY_TARGET[(WEAPON_GRAPPLE, "enemy", k)])
        if f.simple_actions >= 2 and f.stance not in (AIR, EARTH):                  # EN-061, EN-062
            legal += self._targeted_attacks(seat, free=False)
            team = self.ruleset.seat_teams[seat]
            if self.tactics[team] > 0 and not f.tactics_armed:                      # EN-G09
                legal.append(TACTICS_RAISE)
        legal += self._moves(seat)
        if f.stance != FIRE and (f.simple_actions >= 1 or (f.stance == EARTH and "guard" not in f.free_used)):
            for k, ally in enumerate(self.allies(seat), start=1):                   # EN-100, EN-063
                if self.fighters[ally].can_act() and self.distance_between(seat, ally) <= 1 \
                        and self.guards.get(seat) != ally:
                    legal.append(BY_TARGET[(GUARD, "ally", k)])
        return sorted(legal)

    def _grappled_legal(self, seat: int, hold: holds.Hold) -> list[int]:
        """EN-085 / EN-A08: only grapple actions; Break and Nevermind for all, Hit, Throw, Drag and Maintain for
        the one in control."""
        f = self.fighters[seat]
        sa = f.simple_actions
        legal = [PASS] + legality.boost(self, seat)
        if sa >= 1:
            legal.append(G_BREAK)                                                   # EN-094
        if "nevermind" not in f.free_used:
            legal.append(G_NEVERMIND)                                               # EN-099
        if hold.controller != seat:
            return sorted(legal)
        if sa >= 2:
            legal.append(G_MAINTAIN)                                                # EN-097
        reach = holds.hit_range(self, seat)
        for k, enemy in enumerate(self.enemies(seat)):
            if enemy in hold.members:
                distance = self.distance_between(seat, enemy)
                if sa >= 2 and distance <= reach:
                    legal.append(BY_TARGET[(G_HIT, "enemy", k)])                    # EN-093
                if sa >= 1 and distance <= 1:
                    legal.append(BY_TARGET[(G_THROW, "enemy", k)])                  # EN-095
        if sa >= 1 and len(hold.members) == 2:                                      # EN-096: one other only
            blocked = self._blocked(seat) - {self.positions[m] for m in hold.members}
            for who, k, other in self.ruleset.others_of[seat]:
                for direction in ("away",) if who == "enemy" else ("toward",):
                    if other not in hold.members and self.fighters[other].can_act() \
                            and self._step(seat, other, direction, voluntary=False, blocked=blocked) is not None:
                        legal.append(DRAG_BY_TARGET[(direction, who, k)])
        return sorted(legal)

    def _extra_attack_legal(self, seat: int) -> list[int]:
        return self._targeted_attacks(seat, free=True)

    def _targeted_attacks(self, seat: int, free: bool) -> list[int]:
        """EN-066 against each enemy still able to act, within the weapon's range (EN-G19)."""
        legal: list[int] = []
        for k, enemy in enumerate(self.enemies(seat)):
            if self.fighters[enemy].can_act():
                self._focus = enemy
                legal += at_enemy(k, legality.attack_options(self, seat, free=free))
        return legal

    def _round_start_legal(self, seat: int) -> list[int]:
        """EN-007: Accelerate and Deflect, and Swap with a willing ally (EN-111: allies are the willing ones)."""
        legal = legality.round_start(self, seat)
        f = self.fighters[seat]
        if f.void_points > 0 and "swap" not in f.void_spent:
            legal += [BY_TARGET[(VOID_SWAP, "ally", k)] for k, ally in enumerate(self.allies(seat), start=1)
                      if self.fighters[ally].can_act()]
        return sorted(legal)

    def _moves(self, seat: int) -> list[int]:
        """EN-101, EN-102, EN-103, EN-104 on the grid: toward or away from an enemy, toward an ally; a move needs a
        first step."""
        kinds = legality.move_kinds(self, seat)
        if not kinds:
            return []
        legal: list[int] = []
        blocked, pinned = self._blocked(seat), self._pinned(seat)
        fighters = self.fighters
        for who, k, other in self.ruleset.others_of[seat]:
            if not fighters[other].can_act():
                continue
            for direction in ("toward", "away") if who == "enemy" else ("toward",):
                if self._step(seat, other, direction, blocked=blocked, pinned=pinned) is not None:
                    legal += move_flats(who, k, direction, kinds)
        return legal

    # ----------------------------------------------------------------- playing a decision

    def apply(self, flat_action: int) -> None:
        """Play one decision of the current seat; an action naming a slot plays the duel's action about that
        character."""
        if flat_action not in self._legal:
            raise IllegalActionError(flat_action, self._legal, self.ruleset.action_names, self.decision_kind())
        seat = self.current_seat()
        assert seat is not None
        if self.phase == NEVERMIND:
            self._nevermind_reply(seat, flat_action == G_NEVERMIND)
            return
        if flat_action in (G_BREAK, G_MAINTAIN, G_NEVERMIND) or flat_action in DRAGS:
            self._grapple_action(seat, flat_action)
            return
        if flat_action == TACTICS_RAISE:                                             # EN-G09
            self.fighters[seat].tactics_armed = True
            team = self.ruleset.seat_teams[seat]
            self.tactics[team] -= 1
            self.events.emit("EN-G09", "tactics_raise", seat, side=team, pool=self.tactics[team])
            self._continue_turn()
            return
        target = TARGETED.get(flat_action)
        if target is None:
            self._dispatch(flat_action)
            return
        flat, kind, slot = target
        other = self._slot_seat(seat, kind, slot)
        assert other is not None
        self._focus = other
        if flat == GUARD:
            self._guard(seat, other)
        elif flat == VOID_SWAP:
            self._swap(seat, other)
        elif flat in (GRAPPLE, WEAPON_GRAPPLE):
            holds.start(self, seat, other, with_weapon=flat == WEAPON_GRAPPLE)
            self._continue_turn()
        elif flat == G_HIT:
            holds.hit(self, seat, other)
        elif flat == G_THROW:
            self._throw(seat, other)
        else:
            self._dispatch(flat)

    def _grapple_action(self, seat: int, flat_action: int) -> None:
        """Break (EN-094), Maintain (EN-097), proposing Nevermind (EN-099) and Drag (EN-096)."""
        f = self.fighters[seat]
        hold = self.hold_of(seat)
        assert hold is not None
        if flat_action == G_BREAK:
            self._spend(seat, 1, "grapple:break")
            holds.leave(self, seat, "EN-094", "break")
        elif flat_action == G_MAINTAIN:
            self._spend(seat, 2, "grapple:maintain")
            f.maintain = True
            self.events.emit("EN-097", "maintain", seat)
        elif flat_action == G_NEVERMIND:
            f.free_used.add("nevermind")
            self.events.emit("EN-099", "nevermind_proposed", seat)
            self._askers = [m for m in hold.members if m != seat]
            self.phase, self._legal = NEVERMIND, sorted([PASS, G_NEVERMIND])
            return
        else:
            direction, kind, slot = DRAGS[flat_action]
            other = self._slot_seat(seat, kind, slot)
            assert other is not None
            self._drag(seat, hold, other, direction)
        self._continue_turn()

    def _nevermind_reply(self, seat: int, agree: bool) -> None:
        """EN-099: the grapple ends only if every other active participant agrees."""
        if not agree:
            self.events.emit("EN-099", "nevermind_declined", seat)
            self._askers = []
        else:
            self.events.emit("EN-099", "nevermind_agreed", seat)
            self._askers.pop(0)
            if not self._askers:
                hold = self.hold_of(seat)
                assert hold is not None
                holds.dissolve(self, hold)
        if self._askers:
            return
        self._continue_turn()

    def _throw(self, seat: int, target: int) -> None:
        """EN-095 / EN-A09: the target lands up to 5 × Strength ft away from the thrower, Prone, out of the
        grapple (which ends if one participant is left, EN-086)."""
        self._spend(seat, 1, "grapple:throw")
        before = self.positions[target]
        holds.leave(self, target, "EN-A09", "throw")
        self._walk(target, seat, max(1, self.fighters[seat].trait("strength")), "away", voluntary=False)
        self.fighters[target].prone = True
        self.events.emit("EN-095", "thrown", target, before=before, after=self.positions[target])
        self._continue_turn()

    def _drag(self, seat: int, hold: holds.Hold, other: int, direction: str) -> None:
        """EN-096: the controller moves up to 5 × Water ft toward or away from ``other``, the one other
        participant following square by square into the square it left."""
        self._spend(seat, 1, "grapple:drag")
        partner = next(m for m in hold.members if m != seat)
        before = (self.positions[seat], self.positions[partner])
        for _ in range(self.fighters[seat].ring("water")):
            blocked = self._blocked(seat) - {self.positions[partner]}
            square = self._step(seat, other, direction, voluntary=False, blocked=blocked)
            if square is None:
                break
            self.positions[seat], self.positions[partner] = square, self.positions[seat]
        self.events.emit("EN-096", "drag", seat, partner=partner, before=before,
                         after=(self.positions[seat], self.positions[partner]))

    def _guard(self, seat: int, ward: int) -> None:
        """EN-100: a Simple Action (EN-028; Free once a turn in Earth stance, EN-062) until the start of the
        next turn."""
        f = self.fighters[seat]
        if f.stance == EARTH and "guard" not in f.free_used:
            f.free_used.add("guard")
            self.events.emit("EN-062", "action", seat, what="guard", speed="free", left=f.simple_actions)
        else:
            self._spend(seat, 1, "guard")
        self.guards[seat] = ward
        self.events.emit("EN-100", "guard", seat, ward=ward, ward_atn=self.atn(ward), own_atn=self.atn(seat))
        self._continue_turn()

    def _swap(self, seat: int, ally: int) -> None:
        """EN-111: swap Initiative Values with a willing ally; both join the back of their new values (EN-004)."""
        mine, theirs = self.fighters[seat].initiative, self.fighters[ally].initiative
        self._spend_void(seat, "swap", "EN-111")
        self._set_initiative(seat, theirs, "EN-111")
        self._set_initiative(ally, mine, "EN-111")
        self._next_round_start()

    def _on_turn_start(self, seat: int) -> None:
        """EN-100: a Guard lasts until the start of the guardian's next turn; EN-087: a grappled character's
        turn starts with the contest for control among every participant."""
        ward = self.guards.pop(seat, None)
        if ward is not None:
            self.events.emit("EN-100", "guard_ends", seat, ward=ward)
        holds.prune(self)
        hold = self.hold_of(seat)
        if hold is not None:
            holds.contest(self, hold)

    def _continue_turn(self) -> None:
        holds.prune(self)
        super()._continue_turn()

    # ----------------------------------------------------------------- the grid

    def _blocked(self, mover: int) -> set[Square]:
        """The squares ``mover`` cannot enter: those of the other characters still able to act (the fallen do
        not block)."""
        return {self.positions[s] for s, f in enumerate(self.fighters) if s != mover and f.can_act()}

    def _step(self, mover: int, other: int, direction: str, voluntary: bool = True,
              blocked: set[Square] | None = None, pinned: list[Square] | None = None) -> Square | None:
        """The next square of ``mover`` going toward (down to adjacency) or away from ``other``: the first square of
        :func:`ranked_steps` inside the arena and open; None when no step changes the distance that way. In Fire
        stance no step of the mover's own may increase the distance to an adjacent enemy (EN-063, EN-G10); a shove
        is not bound. ``blocked`` and ``pinned``: :meth:`_blocked` and :meth:`_pinned`, when the caller has them."""
        hx, hy = self.positions[mover]
        tx, ty = self.positions[other]
        ranked = ranked_steps(tx - hx, ty - hy, direction == "toward")
        if not ranked:
            return None
        if blocked is None:
            blocked = self._blocked(mover)
        if pinned is None:
            pinned = self._pinned(mover) if voluntary else []
        size = self.ruleset.arena
        for sx, sy in ranked:
            x, y = hx + sx, hy + sy
            if not (0 <= x < size and 0 <= y < size):
                continue
            square = (x, y)
            if square in blocked:
                continue
            if pinned and any(chebyshev(square, enemy) > 1 for enemy in pinned):
                continue
            return square
        return None

    def _pinned(self, mover: int) -> list[Square]:
        """EN-063 / EN-G10: in Fire stance, the squares of the enemies next to ``mover``, whose reach its own steps
        may not leave; none in any other stance."""
        if self.fighters[mover].stance != FIRE:
            return []
        here = self.positions[mover]
        return [self.positions[e] for e in self.enemies(mover) if self.fighters[e].can_act()
                and chebyshev(here, self.positions[e]) <= 1]

    def _walk(self, mover: int, other: int, squares: int, direction: str, voluntary: bool = True) -> int:
        """Up to ``squares`` steps (:meth:`_step`); returns the steps taken. The others stand still meanwhile, so
        the squares they block are found once."""
        taken = 0
        blocked = self._blocked(mover)
        while taken < squares:
            square = self._step(mover, other, direction, voluntary, blocked)
            if square is None:
                break
            self.positions[mover] = square
            taken += 1
        return taken

    def _relocate(self, seat: int, squares: int, direction: str) -> tuple[int, dict]:
        other = self._focus
        before = self.positions[seat]
        moved = self._walk(seat, other, squares, direction)
        return moved, {"before": before, "after": self.positions[seat], "relative_to": other,
                       "distance": self.distance_between(seat, other) * 5}

    def _shove(self, seat: int, target: int, effect: str) -> None:
        """EN-081 on the grid: a Push moves the target away from the attacker by its squares, a Pull one square
        toward it (not into its square)."""
        before = self.positions[target]
        holds.leave(self, target, "EN-081", effect)                     # moved out of its grapple
        if effect == "pull":
            self._walk(target, seat, 1, "toward", voluntary=False)
        else:
            self._walk(target, seat, PUSH_SQUARES[effect], "away", voluntary=False)
        self.events.emit("EN-081", "pulled" if effect == "pull" else "pushed", target, before=before,
                         after=self.positions[target], distance=self.distance_between(seat, target) * 5)

    def render_text(self) -> str:
        """The duel's picture, one line per character with its square, plus the Tactics Pools and the grapples."""
        lines = super().render_text().splitlines()
        names = self.ruleset.seat_names
        lines[0] = f"round {self.round}  tactics pools {tuple(self.tactics)}  order: " + " > ".join(
            names[s] for s in self.order) + "".join(
            f"  [grapple {', '.join(names[m] for m in hold.members)}"
            + (f"; {names[hold.controller]} in control]" if hold.controller is not None else "]")
            for hold in self.holds)
        return "\n".join([lines[0]] + [f"{line}  at {self.positions[s]}" for s, line in enumerate(lines[1:])])

