"""Grapples among many characters in the encounter skirmish (EN-083..EN-099): who holds whom, the contest for
control among every participant, and the grapple actions, on a :class:`~.skirmish_state.SkirmishState`.

A *hold* is one grapple: its participants (in the order they entered), the one in control (or nobody yet)
and, for a Weapon Grapple, who started it with a weapon. Several holds may exist at once; a character is in at
most one. The duel keeps its own two-character grapple in :mod:`.state`; the skirmish never uses that one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from issoku.rules.encounters.dice import Pool, skill_pool

if TYPE_CHECKING:
    from issoku.rules.encounters.skirmish_state import SkirmishState

MAINTAIN_BONUS = Pool(1, 1)   # EN-097


@dataclass
class Hold:
    """One grapple: ``members`` in the order they entered, ``controller`` (EN-087; None: nobody yet), ``weapon``:
    the member who started it as a Weapon Grapple (EN-088), if any."""

    members: list[int]
    controller: int | None = None
    weapon: int | None = None

    def copy(self) -> "Hold":
        """An independent copy (for ``clone``)."""
        return Hold(list(self.members), self.controller, self.weapon)


def start(state: "SkirmishState", seat: int, target: int, with_weapon: bool) -> None:
    """EN-083 / EN-088: test Jujutsu (or the grappling weapon's skill)/Agility against the adjacent target's ATN
    without its armour; on success the two are grappled, or, if the target is already in a grapple, ``seat``
    joins that one (EN-084)."""
    f = state.fighters[seat]
    state._spend(seat, 2, "weapon_grapple" if with_weapon else "grapple")
    tn = state.atn(target, ignore_armour=True)
    skill = f.sheet.skill(f.sheet.weapon.skill if with_weapon else "jujutsu")
    total = state._roll(seat, skill_pool(skill, f.trait("agility")), "EN-088" if with_weapon else "EN-083",
                        "grapple_test", tn=tn, target=target)
    if total < tn:
        return
    hold = state.hold_of(target)
    if hold is None:
        hold = Hold([target], weapon=seat if with_weapon else None)
        state.holds.append(hold)
        state.events.emit("EN-083", "grappled", seat, target=target,
                          weapon=f.sheet.weapon.name if with_weapon else None)
    else:
        state.events.emit("EN-084", "joins_grapple", seat, target=target, members=tuple(hold.members))
    hold.members.append(seat)


def grapple_skill(state: "SkirmishState", hold: Hold, seat: int) -> int:
    """EN-087 / EN-089: Jujutsu, or in a Weapon Grapple the weapon's skill if that is higher."""
    sheet = state.fighters[seat].sheet
    rank = sheet.skill("jujutsu")
    if hold.weapon is not None:
        rank = max(rank, sheet.skill(state.fighters[hold.weapon].sheet.weapon.skill))
    return rank


def contest(state: "SkirmishState", hold: Hold) -> None:
    """EN-087: every participant rolls Jujutsu/Strength (Maintain's +1k1 spent here, EN-097); the single highest
    total takes control; a tie at the top leaves control where it was (EN-G04)."""
    totals = []
    for seat in hold.members:
        f = state.fighters[seat]
        pool = skill_pool(grapple_skill(state, hold, seat), f.trait("strength"))
        if f.maintain:
            f.maintain = False
            pool = pool + MAINTAIN_BONUS
        totals.append(state._roll(seat, pool, "EN-087", "grapple_contest_roll"))
    best = max(totals)
    if totals.count(best) == 1:
        hold.controller = hold.members[totals.index(best)]
    state.events.emit("EN-087", "grapple_control", hold.controller, members=tuple(hold.members),
                      totals=tuple(totals))


def leave(state: "SkirmishState", seat: int, rule: str, why: str) -> None:
    """``seat`` is no longer grappled; EN-086: a grapple left with one participant ends. Breaking out of a
    Weapon Grapple earns the Free Raise toward Disarm (EN-091)."""
    hold = state.hold_of(seat)
    if hold is None:
        return
    hold.members.remove(seat)
    if hold.controller == seat:
        hold.controller = None
    if why == "break" and hold.weapon not in (None, seat):
        state.fighters[seat].disarm_free_raise = 2
        state.events.emit("EN-091", "disarm_free_raise", seat, against=hold.weapon)
    if hold.weapon == seat:
        hold.weapon = None
    state.events.emit(rule, "leaves_grapple", seat, why=why, members=tuple(hold.members))
    if len(hold.members) < 2:
        state.holds.remove(hold)
        state.events.emit("EN-086", "grapple_ends", hold.members[0] if hold.members else None)


def prune(state: "SkirmishState") -> None:
    """A character Out or Dead takes part in nothing (EN-052/EN-053): it drops out of its grapple."""
    for hold in list(state.holds):
        for seat in list(hold.members):
            if not state.fighters[seat].can_act():
                leave(state, seat, "EN-052", "fallen")


def dissolve(state: "SkirmishState", hold: Hold) -> None:
    """EN-099: every active participant agreed; nobody is grappled any more."""
    state.holds.remove(hold)
    state.events.emit("EN-099", "grapple_ends", None, why="nevermind", members=tuple(hold.members))


def hit(state: "SkirmishState", seat: int, target: int) -> None:
    """EN-093: the controller rolls unarmed damage, no maneuvers; the starter of a Weapon Grapple its weapon's
    (EN-090)."""
    from issoku.rules.encounters.combat import damage_pool

    f = state.fighters[seat]
    hold = state.hold_of(seat)
    assert hold is not None
    state._spend(seat, 2, "grapple:hit")
    weapon = f.sheet.weapon if hold.weapon == seat else f.unarmed
    steps = damage_pool(weapon.damage, f.trait("strength"), explode=not f.sheet.mook)
    state.events.emit("EN-090" if hold.weapon == seat else "EN-093", "damage_pool", seat, pool=str(steps[-1][1]),
                      weapon=weapon.name, target=target)
    state._deal(seat, target, steps[-1][1], "EN-093", (), extra=False)


def hit_range(state: "SkirmishState", seat: int) -> int:
    """EN-093: the reach of the Hit's weapon profile (the starter's weapon in a Weapon Grapple, else bare hands)."""
    f = state.fighters[seat]
    hold = state.hold_of(seat)
    return (f.sheet.weapon if hold is not None and hold.weapon == seat else f.unarmed).range
