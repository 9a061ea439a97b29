"""Ideal range by weapon, close fighting, and the longer weapon's overpower (MA-017..025)."""

import pytest

from issoku.rules.ma.ladder import Rung
from issoku.rules.breath.content import load_catalog
from issoku.rules.ma.reach import WeaponReach, overpowers, range_table, range_verdict

CATALOG = load_catalog()


def reach(name):
    return WeaponReach.of(CATALOG.weapon(name))

X = None  # no ordinary attack

# MA-T03: by rung far / issoku / near / close / tsuba.
MA_T03 = {
    "nodachi": (0, 0, -2, X, X),
    "yari": (0, 0, -2, X, X),
    "uchigatana": (-2, 0, 0, -2, X),
    "kodachi": (X, -2, 0, 0, X),
    "tanto": (X, X, -2, 0, X),
    "unarmed": (X, X, -2, 0, X),
}


@pytest.mark.rule("MA-017", "MA-018", "MA-019", "MA-020", "MA-021", "MA-022")
@pytest.mark.parametrize("weapon", sorted(MA_T03))
def test_ma_t03_range_modifiers_by_rung(weapon):
    table = range_table(reach(weapon))
    assert tuple(v.modifier for v in table) == MA_T03[weapon]


@pytest.mark.rule("MA-017", "MA-018", "MA-019", "MA-020", "MA-021")
def test_ma_017_to_021_ideal_ranges_follow_the_table():
    spans = {w: (reach(w).ideal_far, reach(w).ideal_near)
             for w in ("nodachi", "yari", "uchigatana", "kodachi", "wakizashi", "tanto", "kaiken", "unarmed")}
    assert spans["nodachi"] == spans["yari"] == (Rung.FAR, Rung.ISSOKU_ITTO)
    assert spans["uchigatana"] == (Rung.ISSOKU_ITTO, Rung.NEAR)
    assert spans["kodachi"] == spans["wakizashi"] == (Rung.NEAR, Rung.CLOSE)
    assert spans["tanto"] == spans["kaiken"] == spans["unarmed"] == (Rung.CLOSE, Rung.TSUBAZERIAI)


@pytest.mark.rule("MA-G25", "MA-024")
def test_ma_g25_the_catalog_places_the_weapons_the_table_does_not_name():
    assert (reach("zanbato").ideal_far, reach("zanbato").ideal_near) == (Rung.FAR, Rung.ISSOKU_ITTO)
    assert reach("zanbato").close_fighting_banned and not reach("staff").close_fighting_banned
    assert (reach("ninjato").ideal_far, reach("ninjato").ideal_near) == (Rung.NEAR, Rung.CLOSE)
    assert (reach("staff").ideal_far, reach("staff").ideal_near) == (Rung.ISSOKU_ITTO, Rung.NEAR)
    for ranged in ("bow", "teppo"):
        assert tuple(v.modifier for v in range_table(reach(ranged))) == (0, -2, X, X, X)


@pytest.mark.rule("MA-022")
def test_ma_022_one_rung_off_is_minus_2_two_off_is_no_attack():
    kodachi = reach("kodachi")
    assert range_verdict(kodachi, Rung.NEAR).modifier == 0
    assert range_verdict(kodachi, Rung.ISSOKU_ITTO).modifier == -2
    far = range_verdict(kodachi, Rung.FAR)
    assert far.modifier is None and not far.can_attack and far.rule == "MA-022"


@pytest.mark.rule("MA-024", "MA-A03")
def test_ma_024_long_sword_and_yari_cannot_attack_in_close_fighting():
    for weapon in ("nodachi", "yari", "zanbato"):
        verdict = range_verdict(reach(weapon), Rung.CLOSE)
        assert verdict.modifier is None and verdict.rule == "MA-024"
        assert range_verdict(reach(weapon), Rung.CLOSE, long_weapon_opening=True).modifier == -2
    # MA-A03: the uchigatana is not a "long sword": one rung off, −2.
    assert range_verdict(reach("uchigatana"), Rung.CLOSE).modifier == -2


@pytest.mark.rule("MA-025", "MA-A04")
def test_ma_025_no_ordinary_cut_at_tsubazeriai_even_for_the_tanto():
    for weapon in ("tanto", "kodachi", "uchigatana"):
        verdict = range_verdict(reach(weapon), Rung.TSUBAZERIAI)
        assert verdict.modifier is None and verdict.rule == "MA-025"


@pytest.mark.rule("MA-023", "MA-G20", "MA-A02")
def test_ma_t04_longer_weapon_overpowers_inside_its_ideal_range():
    nodachi, uchigatana, yari, kodachi = (reach(w) for w in ("nodachi", "uchigatana", "yari", "kodachi"))
    assert overpowers(nodachi, uchigatana, Rung.ISSOKU_ITTO)
    assert overpowers(nodachi, uchigatana, Rung.FAR)
    assert not overpowers(nodachi, uchigatana, Rung.NEAR)  # MA-A02: closed to near range, neutralized
    assert not overpowers(uchigatana, nodachi, Rung.ISSOKU_ITTO)
    assert not overpowers(yari, nodachi, Rung.FAR) and not overpowers(nodachi, yari, Rung.FAR)  # a draw
    assert overpowers(uchigatana, kodachi, Rung.NEAR)
