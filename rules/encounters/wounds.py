"""Wound thresholds, penalties, Downing and Killing (EN-041..EN-060).

Wounds only accumulate. A character's rank is the highest threshold its Wounds have *reached*
(EN-A06: the mook example puts exactly 25 Wounds at Out); its penalty applies to every test and
contest, not to damage rolls (EN-043). Thresholds are built from Earth: Nicked = 5 × Earth + 1, each
later one + 2 × Earth (EN-042); mooks use their own four (EN-056, EN-057, EN-058, EN-059, EN-060).
"""

from __future__ import annotations

from dataclasses import dataclass

HEALTHY = "healthy"
CRIPPLED, OUT, DEAD = "crippled", "out", "dead"


@dataclass(frozen=True, slots=True)
class Rank:
    """One wound rank: its name, the Wounds that reach it, its penalty (None: no actions at all) and rule."""

    name: str
    threshold: int
    penalty: int | None
    rule: str


PENALTY_OF = {HEALTHY: 0, "nicked": -3, "grazed": -5, "hurt": -10, "injured": -15, "bloodied": -20, CRIPPLED: -40}
"""EN-044, EN-045, EN-046, EN-047, EN-048, EN-049 (and a mook's Hurt and Bloodied, EN-057/EN-058): each rank's
penalty by name; Out and Dead have none."""


def _rank(name: str, threshold: int, rule: str) -> Rank:
    return Rank(name, threshold, PENALTY_OF.get(name), rule)


def thresholds(earth: int, mook: bool = False) -> tuple[Rank, ...]:
    """The wound ranks of a character with this Earth Ring, lowest first (EN-042..EN-051, mooks EN-056, EN-057,
    EN-058, EN-059, EN-060)."""
    if mook:
        hurt = 4 * earth + 1                                                   # EN-057
        return (_rank("hurt", hurt, "EN-057"), _rank("bloodied", hurt + 4 * earth, "EN-058"),
                _rank(OUT, hurt + 8 * earth, "EN-059"), _rank(DEAD, hurt + 10 * earth, "EN-060"))
    names = (("nicked", "EN-044"), ("grazed", "EN-045"), ("hurt", "EN-046"), ("injured", "EN-047"),
             ("bloodied", "EN-048"), (CRIPPLED, "EN-049"), (OUT, "EN-050"), (DEAD, "EN-051"))
    nicked = 5 * earth + 1                                                     # EN-042
    return tuple(_rank(name, nicked + 2 * earth * i, rule) for i, (name, rule) in enumerate(names))


HEALTHY_RANK = Rank(HEALTHY, 0, 0, "EN-043")
RANK_NAMES = (HEALTHY, "nicked", "grazed", "hurt", "injured", "bloodied", CRIPPLED, OUT, DEAD)
"""Every rank name, mook ranks included (the observation's one-hot)."""


def rank(wounds: int, ranks: tuple[Rank, ...]) -> Rank:
    """EN-043 / EN-A06: the highest rank whose threshold ``wounds`` has reached (Healthy below all)."""
    current = HEALTHY_RANK
    for candidate in ranks:
        if wounds >= candidate.threshold:
            current = candidate
    return current


def penalty(current: Rank) -> int:
    """EN-043: the malus a rank puts on every test and contest (0 when Healthy; Out and Dead act no more)."""
    return current.penalty if current.penalty is not None else 0


def can_act(current: Rank) -> bool:
    """EN-052 / EN-053: Out and Dead characters take no actions at all."""
    return current.name not in (OUT, DEAD)


def outcome(before: int, after: int, ranks: tuple[Rank, ...]) -> str | None:
    """EN-054 / EN-055: ``"killed"`` if the Wounds entered Dead, ``"downed"`` if they entered Crippled or
    Out (a Kill is never also a Down), else None. A rank already held before is not entered again."""
    old, new = rank(before, ranks).name, rank(after, ranks).name
    if new == old:
        return None
    if new == DEAD:
        return "killed"
    if new in (CRIPPLED, OUT):
        return "downed"
    return None
