"""ATN, damage pools and maneuver raises as pure rules (EN-D01, D02, D04, EN-T02, T03, T12)."""

import pytest

from issoku.rules.encounters.combat import (
    AIR, EARTH, FIRE, FOCUS_RAISES, KNOCKDOWN_QUADRUPED_RAISES, MANEUVER_RAISES, WATER, Defence, damage_pool,
    defenseless_bonus, earth_stance_bonus, feint_bonus, push_raises, stance_atn_bonus, stance_atn_malus,
)
from issoku.rules.encounters.dice import Pool


@pytest.mark.rule("EN-D01", "EN-067", "EN-068", "EN-061", "EN-070", "EN-073", "EN-063", "EN-065", "EN-108", "EN-100")
def test_en_d01_atn_by_stance():
    def atn(stance, **extra):
        return Defence(reflexes=3, armour=0, stance=stance_atn_bonus(stance, 2, 3, 0),
                       maluses=stance_atn_malus(stance), **extra).atn()
    assert atn(WATER) == 20 and atn(AIR) == 25 and atn(FIRE) == 10
    assert atn(WATER, misc=10) == 30                       # being guarded (a Misc bonus, EN-072)
    assert atn(WATER, unignorable=10) == 30                # Deflect (EN-108)
    assert Defence(reflexes=3, armour=0, maluses=5).atn() == 15   # the guard's own -5


@pytest.mark.rule("EN-D02", "EN-118", "EN-112", "EN-A07", "EN-069", "EN-122", "EN-083")
def test_en_d02_grappled_blind_incapacitated_formulas():
    assert Defence(reflexes=3, armour=5, stance=5, misc=10, grappled=True).atn() == 10
    assert Defence(reflexes=3, armour=5, blind=True).atn() == 13
    assert Defence(reflexes=3, armour=5, misc=2, incapacitated=True).atn() == 10
    assert Defence(reflexes=3, armour=5).atn(ignore_armour=True) == 20


@pytest.mark.rule("EN-121")
def test_en_121_prone_is_minus_ten_against_melee_only():
    assert Defence(reflexes=3, armour=0, prone=True).atn(melee=True) == 10
    assert Defence(reflexes=3, armour=0, prone=True).atn(melee=False) == 20


@pytest.mark.rule("EN-062", "EN-G16", "EN-116")
def test_en_062_earth_bonus_is_half_the_margin_and_exhaustion_takes_it():
    assert earth_stance_bonus(17) == 8 and earth_stance_bonus(0) == 0
    assert stance_atn_bonus(EARTH, 2, 3, 8) == 8
    assert stance_atn_bonus(EARTH, 2, 3, 8, exhausted=True) == 0
    assert stance_atn_malus(FIRE) == 10


@pytest.mark.rule("EN-D04", "EN-078", "EN-A02", "EN-117", "EN-A10")
def test_en_d04_feint_cap_is_five_per_insight_rank():
    assert feint_bonus(40, 20, insight_rank=1) == 5
    assert feint_bonus(33, 20, insight_rank=2) == 6
    assert defenseless_bonus(40, 20) == 10


@pytest.mark.rule("EN-T02", "EN-035", "EN-036", "EN-037", "EN-038", "EN-039", "EN-A01")
def test_en_t02_katana_feint_damage_steps():
    steps = damage_pool(Pool(3, 2), strength=3, other=Pool(1, 0) + Pool(0, 0, feint_bonus(33, 20, 5)))
    assert [str(pool) for _, pool in steps] == ["3k2", "6k2", "7k2+6"]
    assert str(steps[-1][1] + Pool(1, 1)) == "8k3+6"        # step 4: a Void Point's +1k1 (EN-A01)


@pytest.mark.rule("EN-T03", "EN-077")
def test_en_t03_ono_extra_damage_steps():
    steps = damage_pool(Pool(0, 4), strength=5, extra_damage=2, other=Pool(1, 1, 4))
    assert [str(pool) for _, pool in steps] == ["0k4", "5k4", "8k5+4"]


@pytest.mark.rule("EN-T12", "EN-079", "EN-080", "EN-081", "EN-074", "EN-075", "EN-076", "EN-082")
def test_en_t12_maneuver_raises():
    assert [FOCUS_RAISES[p] for p in ("arm", "leg", "hand", "foot", "head", "finger", "eye", "ear")] == [
        1, 1, 2, 2, 3, 4, 4, 4]
    assert KNOCKDOWN_QUADRUPED_RAISES == 4 and push_raises(10) == 4 and push_raises(5) == 2
    assert (MANEUVER_RAISES["disarm"], MANEUVER_RAISES["extra_attack"], MANEUVER_RAISES["feint"],
            MANEUVER_RAISES["knockdown"], MANEUVER_RAISES["tactical_strike"]) == (3, 5, 2, 2, 2)


@pytest.mark.rule("EN-071")
def test_en_071_technique_bonuses_add_to_the_atn_but_not_when_grappled():
    assert Defence(reflexes=2, armour=5, technique=3).atn() == 23
    assert Defence(reflexes=2, armour=5, technique=3, grappled=True).atn() == 10


@pytest.mark.rule("EN-108", "EN-118", "EN-122", "EN-112", "EN-A07")
def test_en_108_deflect_survives_every_replacement_formula():
    """Deflect's +10 "can not be ignored in any way": the Grappled and Incapacitated formulas (5 + Armor, no
    Misc) and Blind's keep it, where a Misc bonus of 10 (being guarded) is dropped by the first two."""
    for status in ("grappled", "incapacitated"):
        assert Defence(reflexes=3, armour=5, misc=10, **{status: True}).atn() == 10
        assert Defence(reflexes=3, armour=5, unignorable=10, **{status: True}).atn() == 20
    assert Defence(reflexes=3, armour=5, unignorable=10, blind=True).atn() == 23
    assert Defence(reflexes=3, armour=5, unignorable=10, grappled=True, prone=True).atn(melee=True) == 10
