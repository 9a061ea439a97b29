"""The breath's principles over every loadout: what a breath may hold (BR-010) and what may run at
0 Energy (BR-034), checked on the legal actions the engine offers rather than on one scripted fight."""

from __future__ import annotations

import pytest

from issoku.rules.breath.content import load_catalog
from issoku.rules.breath.ruleset import FighterSpec

from .helpers import legal_names, ruleset, scripted

CATALOG = load_catalog()
ARCHETYPES = sorted(CATALOG.archetypes)


def own_maneuver(name: str, fighter) -> bool:
    """Whether action ``name`` is on ``fighter``'s own maneuver list (BR-010)."""
    kind, _, what = name.partition(":")
    if kind in ("attack", "reserve"):
        return what.split(".")[0] == fighter.weapon.key
    if kind == "kata":
        return what in {kata.key for kata in fighter.sheet.katas}
    if kind == "stance":
        return what in {stance.key for stance in fighter.sheet.stances}
    return kind in ("release_stance", "end_breath", "stand")


@pytest.mark.rule("BR-010")
@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_br_010_a_breath_offers_only_the_fighters_own_maneuvers(archetype):
    state = scripted(ruleset(FighterSpec(archetype, 0, finesse=5), FighterSpec("ronin", 1)), [])
    me = state.fighters[state.current_seat()]
    offered = legal_names(state)
    assert any(name.startswith("attack:") for name in offered)
    assert all(own_maneuver(name, me) for name in offered), sorted(offered)


@pytest.mark.rule("BR-034")
@pytest.mark.parametrize("archetype", ARCHETYPES)
def test_br_034_at_zero_energy_only_the_whitelist_runs(archetype):
    state = scripted(ruleset(FighterSpec(archetype, 0, finesse=5), FighterSpec("ronin", 1)), [])
    me = state.fighters[state.current_seat()]
    me.energy = 0  # as if its breaths had spent everything; the state computed its legal set before
    state.invalidate_legal()
    offered = legal_names(state)
    assert offered & {"end_breath", "stand"}, offered
    for name in offered:
        kind, _, what = name.partition(":")
        if kind == "kata":
            assert CATALOG.katas[what].cost == 0, name  # (4) a [Kata] whose text says 0 Energy
        elif kind == "stance":
            assert CATALOG.stances[what].cost == 0, name  # the samurai guard stance, a 0-Energy [Kata]
        else:
            assert kind in ("release_stance", "end_breath", "stand"), name  # (2) release is free
