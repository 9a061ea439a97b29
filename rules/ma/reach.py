"""Whether and how well a weapon reaches at the current ma (MA-017..MA-025, MA-A02, MA-A03, MA-A04, MA-G20).

A weapon's ideal range (MA-G25: one table for every weapon row) comes from the breath catalog
(``Weapon.ideal_range``, MA-017, MA-018, MA-019, MA-020,
MA-021); "a long sword or yari" of MA-024 is the catalog's ``long`` class (nodachi, zanbato, yari; MA-A03). The
verdicts depend only on (weapon, rung), so :func:`range_table` precomputes the five of a weapon
once and the engine looks them up on the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from issoku.rules.breath.content import Weapon
from issoku.rules.ma.ladder import Rung

OFF_BY_ONE = -2
"""Attack modifier one rung outside the ideal range (MA-022)."""


@dataclass(frozen=True, slots=True)
class WeaponReach:
    """A weapon's ideal range on the ladder, as the duel uses it."""

    weapon: str
    ideal_far: Rung
    ideal_near: Rung
    close_fighting_banned: bool

    @classmethod
    def of(cls, weapon: Weapon) -> "WeaponReach":
        """The reach of a breath-catalog weapon."""
        far, near = weapon.ideal_range
        return cls(weapon.key, Rung(far), Rung(near), weapon.weapon_class == "long")

    def rungs_off(self, rung: Rung) -> int:
        """How many half-steps ``rung`` lies outside the ideal range (0 inside it)."""
        if rung < self.ideal_far:
            return self.ideal_far - rung
        if rung > self.ideal_near:
            return rung - self.ideal_near
        return 0


@dataclass(frozen=True, slots=True)
class RangeVerdict:
    """``modifier`` for an ordinary attack at a rung, or None when no ordinary attack is possible; ``rule`` says why."""

    modifier: int | None
    rule: str
    can_attack: bool = field(init=False, repr=False, compare=False)
    """Whether an ordinary attack technique may be made at all (``modifier`` is not None): a field, not a
    property, since the legal mask and every observation read it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "can_attack", self.modifier is not None)


def range_verdict(reach: WeaponReach, rung: Rung, long_weapon_opening: bool = False) -> RangeVerdict:
    """The ordinary-attack verdict of one weapon at one rung.

    Tsubazeriai forbids every ordinary cut (MA-025, MA-A04). In close fighting a long sword or yari
    cannot attack (MA-024) unless the scenario grants the GM's "opening to swing", then −2. Otherwise
    MA-022: 0 inside the ideal range, −2 one rung off, nothing two or more off.
    """
    if rung is Rung.TSUBAZERIAI:
        return RangeVerdict(None, "MA-025")
    if rung is Rung.CLOSE and reach.close_fighting_banned:
        return RangeVerdict(OFF_BY_ONE if long_weapon_opening else None, "MA-024")
    off = reach.rungs_off(rung)
    if off == 0:
        return RangeVerdict(0, "MA-022")
    return RangeVerdict(OFF_BY_ONE if off == 1 else None, "MA-022")


def range_table(reach: WeaponReach, long_weapon_opening: bool = False) -> tuple[RangeVerdict, ...]:
    """The verdicts of one weapon at every rung, far to close."""
    return tuple(range_verdict(reach, rung, long_weapon_opening) for rung in Rung)


def overpowers(longer: WeaponReach, shorter: WeaponReach, rung: Rung) -> bool:
    """MA-023 with MA-G20: ``longer`` neutralizes ``shorter``'s stance, reach and initiative modifiers.

    The ideal ranges are compared by their farthest rung; the effect holds only while the ma is
    inside the longer weapon's ideal range (so a nodachi closed to near range loses it, MA-A02).
    """
    return longer.ideal_far < shorter.ideal_far and longer.rungs_off(rung) == 0
