"""Pure rules of a weapon attack: the Armor Target Number, the attack and damage pools, the maneuvers.

Each function takes plain numbers and names its rule; the state machine (:mod:`.state`) gathers the
numbers and logs the parts. Maneuvers are a table of raises (EN-074..EN-082, EN-T12).
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.encounters.dice import Pool

STANCES = ("air", "earth", "fire", "void", "water")
AIR, EARTH, FIRE, VOID, WATER = STANCES

MANEUVER_RAISES = {
    "disarm": 3,            # EN-075
    "extra_attack": 5,      # EN-076
    "extra_damage": 1,      # EN-077: per +1k0, at least one
    "feint": 2,             # EN-078
    "knockdown": 2,         # EN-080 (4 against four legs)
    "push": 2,              # EN-081 (5 ft; +2 per further 5 ft)
    "pull": 2,              # EN-081
    "tactical_strike": 2,   # EN-082 (needs a party: never in a duel)
}
FOCUS_RAISES = {"arm": 1, "leg": 1, "hand": 2, "foot": 2, "head": 3, "finger": 4, "eye": 4, "ear": 4}
"""EN-079 / EN-T12: Focused Attack's raises by the part aimed at."""
MANEUVER_RAISES["focus_head"] = FOCUS_RAISES["head"]   # EN-079 with EN-G08's effect: the head Stuns
STUN_TN, STUN_TN_STEP = 20, 10                         # EN-113, EN-G15: 20 -> 10 -> 0
STUN_PENALTY = -3                                      # EN-113 / EN-A11: -3k0 on every roll but damage
KNOCKDOWN_QUADRUPED_RAISES = 4
"""EN-080: creatures with four legs need four raises to be knocked down."""

FIRE_ATN_MALUS = 10          # EN-063
DEFLECT_BONUS = 10           # EN-108
ENDURE_REDUCTION = 10        # EN-109
PRONE_MELEE_MALUS = 10       # EN-121


PUSH_SQUARES = {"push": 1, "push_10": 2, "pull": 1}
"""EN-081: how far each Push/Pull maneuver moves its target, in 5-ft squares."""


def push_raises(feet: int) -> int:
    """EN-081 / EN-T12: 2 raises to push or pull 5 ft, two more per further 5 ft (10 ft: 4)."""
    if feet < 5 or feet % 5:
        raise ValueError("pushes go in 5-ft steps")
    return MANEUVER_RAISES["push"] + 2 * (feet // 5 - 1)


MANEUVER_RAISES["push_10"] = push_raises(10)


@dataclass(frozen=True, slots=True)
class Defence:
    """What a character's Armor Target Number is made of (EN-067..EN-073, EN-112, EN-118, EN-121, EN-122).

    ``unignorable`` is an increase the text says "can not be ignored in any way": Deflect's +10 (EN-108). It
    is no Misc bonus, so the replacement formulas of Blind, Grappled and Incapacitated keep it."""

    reflexes: int
    armour: int
    stance: int = 0
    technique: int = 0
    misc: int = 0
    maluses: int = 0
    unignorable: int = 0
    blind: bool = False
    grappled: bool = False
    incapacitated: bool = False
    prone: bool = False

    def atn(self, melee: bool = True, ignore_armour: bool = False) -> int:
        """The ATN against an attack (``melee``: Prone's −10 applies, EN-121); ``ignore_armour`` for the
        grapple test (EN-083). Grappled and Incapacitated: 5 + Armor (EN-118, EN-122, EN-A07); Blind:
        5 + Reflexes + Armor + Misc (EN-112); otherwise EN-067's full formula. Deflect's increase is added
        after whichever formula applies (EN-108: it "can not be ignored in any way")."""
        armour = 0 if ignore_armour else self.armour
        if self.grappled or self.incapacitated:
            value = 5 + armour
        elif self.blind:
            value = 5 + self.reflexes + armour + self.misc - self.maluses
        else:   # EN-068: 5 × Reflexes; EN-071: Technique (0 in v0, EN-G12); EN-072: Misc (being guarded)
            value = 5 + 5 * self.reflexes + armour + self.stance + self.technique + self.misc - self.maluses
        value += self.unignorable                                                       # EN-108
        if self.prone and melee:
            value -= PRONE_MELEE_MALUS
        return value


def stance_atn_bonus(stance: str, air_ring: int, defense: int, earth_bonus: int, exhausted: bool = False) -> int:
    """EN-070: Air gives Air Ring + Defense (EN-061), Earth what its test earned (EN-062); Exhaustion
    takes Earth's bonus away (EN-116). Every other stance gives none (Water: nothing at all, EN-065)."""
    if stance == AIR:
        return air_ring + defense
    if stance == EARTH and not exhausted:
        return earth_bonus
    return 0


def stance_atn_malus(stance: str) -> int:
    """EN-063 / EN-073: Fire stance's −10 (kept even when Exhausted, EN-116)."""
    return FIRE_ATN_MALUS if stance == FIRE else 0


def earth_stance_bonus(total: int) -> int:
    """EN-062 / EN-G16: half the margin by which the Defense/Reflexes test beat TN 0, rounded down."""
    return max(0, total) // 2


def feint_bonus(attack_total: int, base_atn: int, insight_rank: int) -> int:
    """EN-078 / EN-A02: half the amount by which the roll beat the (unraised) ATN, capped at 5 × Insight
    Rank (EN-D04)."""
    return min(max(0, attack_total - base_atn) // 2, 5 * insight_rank)


def defenseless_bonus(attack_total: int, base_atn: int) -> int:
    """EN-117: against a Defenseless target, half the excess over the ATN, uncapped; with Feint the two do
    not stack, the larger counts (EN-A10; no source of the status in v0)."""
    return max(0, attack_total - base_atn) // 2


def damage_pool(weapon: Pool, strength: int, extra_damage: int = 0, other: Pool = Pool(0, 0),
                explode: bool = True) -> list[tuple[str, Pool]]:
    """EN-035, EN-036, EN-037, EN-038, EN-039: the damage pool after each step, as ``(rule, pool)``: the weapon's
    characteristic, + Strength k0, + maneuvers and every other bonus (Extra Damage's +1k0 per raise, EN-077). Step 4
    (techniques, and a Void Point's Boost, EN-A01) adds to the last pool; step 5 rolls it. ``explode``
    False for a mook (EN-040)."""
    step1 = Pool(weapon.roll, weapon.keep, weapon.bonus, explode)
    step2 = step1.plus(roll=strength)
    step3 = step2.plus(roll=extra_damage) + Pool(other.roll, other.keep, other.bonus)
    return [("EN-035", step1), ("EN-036", step2), ("EN-037", step3)]
