"""XkY pools of system 001: roll X d10, keep the Y highest, 10s explode (EN-G01, EN-G02, EN-G03, EN-G04).

The text writes every roll as ``XkY`` (a rank-2 character with Reflexes 3 rolls 5k3, a Katana deals
3k2) but never says how such a pool is rolled; the gap defaults are ours (docs/rules/encounters.md):

* EN-G01: roll X d10, keep the Y highest, sum them; a 10 is rolled again and added, repeatedly
  (mooks' damage never explodes, EN-040). Y > X keeps all X. The ten-dice rule (a data toggle, on by
  default): rolled dice beyond 10 become kept dice at 2:1, kept dice beyond 10 become +2 each.
* EN-G02: "test A/B" rolls (A + B)kB; a lone ring or trait V rolls VkV; success is total ≥ TN.
* EN-G03: raises are declared before the roll, each adding 5 to the TN.
* EN-G04: a contest is two rolls, the higher total wins, a tie goes to the defender.

Faces come from the kernel's :class:`~issoku.rules.kernel.dice.Dice` one d10 at a time, so a
``ScriptedDice`` replays a worked example face by face.
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.kernel.dice import Dice

RAISE_STEP = 5
"""EN-G03: each declared raise adds 5 to the TN."""
TEN_DICE_LIMIT = 10


@dataclass(frozen=True, slots=True)
class Pool:
    """``roll`` k ``keep`` + ``bonus``; ``explode`` False for dice that never explode (EN-040)."""

    roll: int
    keep: int
    bonus: int = 0
    explode: bool = True

    def __add__(self, other: "Pool") -> "Pool":
        """Pools add part by part (``+2k1`` on ``6k2`` is ``8k3``); explosion needs both sides' consent."""
        return Pool(self.roll + other.roll, self.keep + other.keep, self.bonus + other.bonus,
                    self.explode and other.explode)

    def plus(self, roll: int = 0, keep: int = 0, bonus: int = 0) -> "Pool":
        """This pool with ``+rollkkeep+bonus`` added."""
        return Pool(self.roll + roll, self.keep + keep, self.bonus + bonus, self.explode)

    def normalised(self, ten_dice_rule: bool = True) -> "Pool":
        """EN-G01: negatives to 0, keep at most roll, and (optionally) the ten-dice rule."""
        roll, keep, bonus = max(0, self.roll), max(0, self.keep), self.bonus
        if ten_dice_rule and roll > TEN_DICE_LIMIT:
            keep += (roll - TEN_DICE_LIMIT) // 2
            roll = TEN_DICE_LIMIT
        if ten_dice_rule and keep > TEN_DICE_LIMIT and roll == TEN_DICE_LIMIT:
            bonus += 2 * (keep - TEN_DICE_LIMIT)
        keep = min(keep, roll)
        return Pool(roll, keep, bonus, self.explode)

    def __str__(self) -> str:
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.roll}k{self.keep}{bonus}"


def skill_pool(skill: int, trait: int) -> Pool:
    """EN-G02: "test Skill/Trait" rolls (Skill + Trait) k Trait (EN-T01: Insight 2 / Reflexes 3 is 5k3)."""
    return Pool(skill + trait, trait)


def trait_pool(value: int) -> Pool:
    """EN-G02: a ring or trait tested alone rolls value k value ("test Earth")."""
    return Pool(value, value)


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A rolled pool: the pool as rolled (after normalising), each die's total (highest first), the total."""

    pool: Pool
    dice: tuple[int, ...]
    total: int

    def record(self) -> dict:
        """The fields an event logs for this roll."""
        return {"pool": str(self.pool), "dice": self.dice, "total": self.total}


def roll_pool(dice: Dice, pool: Pool, ten_dice_rule: bool = True) -> PoolRoll:
    """Roll ``pool`` (EN-G01): each die explodes on 10 unless the pool cannot explode."""
    pool = pool.normalised(ten_dice_rule)
    faces: list[int] = []
    for _ in range(pool.roll):
        value = face = dice.d10()
        while pool.explode and face == 10:
            face = dice.d10()
            value += face
        faces.append(value)
    faces.sort(reverse=True)
    return PoolRoll(pool, tuple(faces), sum(faces[:pool.keep]) + pool.bonus)


def raised_tn(tn: int, raises: int) -> int:
    """EN-G03: the TN a roll must meet once ``raises`` are declared."""
    return tn + RAISE_STEP * raises


def contest_winner(attacker_total: int, defender_total: int) -> int:
    """EN-G04: 0 if the side acting wins, 1 if the side acted upon does (ties go to it)."""
    return 0 if attacker_total > defender_total else 1
