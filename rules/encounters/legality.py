"""What a character may do now: the legal actions of each decision, read off the state (never changed here).

The state machine (:mod:`.state`) asks these functions and applies what they allow; keeping them apart
keeps "what may be done" (each condition with its rule ID) in one short module.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from issoku.rules.encounters.actions import (
    ATTACKS, CODEC, EARTH_DEFEND, G_BREAK, G_HIT, G_MAINTAIN, G_NEVERMIND, G_THROW,
    GRAPPLE, LET_GO, MOVES, PASS, READY_WEAPON, RECOVER, STAND, STANCE_ACTIONS, VOID_ACCELERATE, VOID_BOOST,
    VOID_DEFLECT, WEAPON_GRAPPLE,
)
from issoku.rules.encounters.combat import AIR, EARTH, FIRE, STANCES, VOID, WATER
from issoku.rules.encounters.fighter import GROUND, HELD, READY

if TYPE_CHECKING:
    from issoku.rules.encounters.state import EncounterState


def round_start(state: "EncounterState", seat: int) -> list[int]:
    """EN-007, EN-105: Accelerate and Deflect, each once a round, while Void Points last (EN-G07)."""
    f = state.fighters[seat]
    legal = [PASS]
    if f.void_points > 0:
        legal += [a for a, name in ((VOID_ACCELERATE, "accelerate"), (VOID_DEFLECT, "deflect"))
                  if name not in f.void_spent]
    return sorted(legal)


def stance(state: "EncounterState", seat: int) -> list[int]:
    """EN-011, with Prone's Water or Air only (EN-121) and Stun's Air or Earth only (EN-113)."""
    f = state.fighters[seat]
    return list(_stances(f.prone, f.stun_tn is not None))


@cache
def _stances(prone: bool, stunned: bool) -> tuple[int, ...]:
    """:func:`stance`'s answer for a Prone and a Stunned character or not (a table: asked every turn)."""
    allowed = tuple(s for s in STANCES if not (prone and s not in (WATER, AIR))
                    and not (stunned and s not in (AIR, EARTH)))
    return tuple(sorted(STANCE_ACTIONS[s] for s in allowed))


def act(state: "EncounterState", seat: int) -> list[int]:
    """EN-010, EN-011, EN-012, EN-013, EN-014, EN-015: what the turn's character may do next (grappled: only the
    grapple actions, EN-085)."""
    f = state.fighters[seat]
    sa = f.simple_actions
    if state.grapple:                                                               # EN-085, EN-A08
        legal = [PASS] + boost(state, seat)
        if sa >= 1:
            legal.append(G_BREAK)
        if "nevermind" not in f.free_used:
            legal.append(G_NEVERMIND)                                             # EN-099
        if state.controller == seat:
            if sa >= 2:
                legal += [G_HIT, G_MAINTAIN]
            if sa >= 1:
                legal.append(G_THROW)
        return sorted(legal)
    legal = own_actions(state, seat)
    if sa >= 2 and f.stance not in (AIR, EARTH):                                   # EN-061, EN-062
        legal += attacks(state, seat)
    if sa >= 2 and f.free_hand and state.distance == 1:
        legal.append(GRAPPLE)                                                     # EN-083
    if sa >= 2 and f.weapon_state == READY and f.sheet.weapon.grapple and state.distance == 1:
        legal.append(WEAPON_GRAPPLE)                                              # EN-088
    legal += moves(state, seat)
    return sorted(legal)


def boost(state: "EncounterState", seat: int) -> list[int]:
    """EN-107: arm a Boost, once a round, while Void Points last."""
    f = state.fighters[seat]
    return [VOID_BOOST] if f.void_points > 0 and "boost" not in f.void_spent and not f.boost_armed else []


def own_actions(state: "EncounterState", seat: int) -> list[int]:
    """The turn's actions about nobody else (ungrappled): ``pass``, Boost, Earth's test, standing up and the
    weapon handling."""
    f = state.fighters[seat]
    sa = f.simple_actions
    legal = [PASS] + boost(state, seat)
    if sa >= 2 and f.stance == EARTH:
        legal.append(EARTH_DEFEND)                                                # EN-062
    if f.prone and sa >= 1:
        legal.append(STAND)                                                       # EN-121
    if f.weapon_state != GROUND and f.sheet.weapon.name != "unarmed" and "let_go" not in f.free_used:
        legal.append(LET_GO)                                                      # EN-022
    if f.weapon_state == GROUND and sa >= 1:
        legal.append(RECOVER)                                                     # EN-030
    if f.weapon_state == HELD and (sa >= 1 or (f.sheet.weapon.size == "small" and f.small_readies < 2)):
        legal.append(READY_WEAPON)                                                # EN-020, EN-027
    return sorted(legal)


def attacks(state: "EncounterState", seat: int, free: bool = False) -> list[int]:
    """EN-066 / EN-G19: a target within the weapon's range; Prone forbids [Large] weapons (EN-121)."""
    return list(attack_options(state, seat, free))


def attack_options(state: "EncounterState", seat: int, free: bool = False) -> tuple[int, ...]:
    """:func:`attacks` as a shared tuple (ascending), for callers that only read it."""
    f = state.fighters[seat]
    weapon = f.weapon
    target = state.opponent(seat)
    distance = state.distance_between(seat, target)
    if distance > weapon.range or (f.prone and weapon.size == "large"):
        return ()
    return _attack_table(state.fighters[target].weapon_state == READY, free, distance == 1, f.extra_attack_done,
                         state.ruleset.focused_attack, state.ruleset.parties)


@cache
def _attack_table(target_armed: bool, free: bool, adjacent: bool, extra_attack_done: bool, focused_attack: bool,
                  parties: bool) -> tuple[int, ...]:
    """The attacks open in range, by the few facts that rule some out (a table: read on every decision in reach)."""
    return tuple(CODEC.encode(a) for a in ATTACKS
                 if not (a.special in ("disarm",) and not target_armed)                 # EN-075
                 and not (free and a.special == "extra_attack")                          # EN-076
                 and not (a.special == "pull" and adjacent)                              # EN-081
                 and not (extra_attack_done and a.special == "extra_attack")
                 and not (a.special == "focus_head" and not focused_attack)              # EN-G08
                 and (a.special != "tactical_strike" or parties))                        # EN-082: a party's pool


def move_allowance(state: "EncounterState", seat: int, kind: str) -> int:
    """Squares a move of ``kind`` covers (EN-102, EN-103, EN-121 Crawl; Fire's +5 ft, EN-063), within
    the round's cap (EN-104)."""
    f = state.fighters[seat]
    water = f.ring("water")
    if kind == "free_move":
        squares = water + (1 if f.stance == FIRE else 0)
    elif kind == "simple_move":
        squares = 2 * water
    elif kind == "crawl":
        squares = water
    else:
        raise KeyError(kind)
    return max(0, min(squares, f.move_cap() - f.moved))


def moves(state: "EncounterState", seat: int) -> list[int]:
    """EN-101, EN-102, EN-103, EN-104: Earth and Void stances cannot move (EN-062, EN-064, EN-A04); Prone only crawls;
    Fire cannot step away from an adjacent enemy (EN-063, EN-G10)."""
    kinds = move_kinds(state, seat)
    legal = []
    for flat, (kind, direction) in MOVES.items():
        if kind not in kinds:
            continue
        if direction == "toward" and state.distance == 1:
            continue
        if direction == "away" and (state.distance == state.ruleset.max_distance
                                    or (state.fighters[seat].stance == FIRE and state.distance == 1)):
            continue
        legal.append(flat)
    return legal


def move_kinds(state: "EncounterState", seat: int) -> tuple[str, ...]:
    """The moves ``seat`` can make now, wherever to: none in Earth or Void stance (EN-062, EN-064, EN-A04);
    Prone only crawls (EN-121); each paid with its actions (Free Move once a turn, EN-013) and within the
    round's cap (EN-104)."""
    f = state.fighters[seat]
    if f.stance in (EARTH, VOID):
        return ()
    if f.moved >= f.move_cap():                                                   # EN-104: no room left
        return ()
    return tuple([kind for kind, cost in _MOVE_COSTS
                  if (kind == "crawl") == f.prone and f.simple_actions >= cost
                  and not (kind == "free_move" and "free_move" in f.free_used)
                  and move_allowance(state, seat, kind) > 0])


_MOVE_COSTS = (("free_move", 0), ("simple_move", 1), ("crawl", 2))
"""Each move and the Simple Actions it costs (EN-102, EN-103, EN-121)."""
