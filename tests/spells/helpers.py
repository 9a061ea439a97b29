"""Shared set-up for spell tests: caster fights (plain breath or Ma), scripted dice, events by rule."""

from __future__ import annotations

from pathlib import Path

from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.ma.config import MaDuelConfig
from issoku.rules.ma.duel import ma_duel
from issoku.rules.spells import with_spells
from issoku.rules.spells.content import SCHOOLS_FILE, SPELLS_FILE, SpellContent, load_spell_content
from tests.breath.helpers import legal_names, play, scripted

__all__ = ["HIGH_SORCERER", "caster_rules", "content_with", "events", "legal_names", "play", "scripted", "spell_data"]

HIGH_SORCERER = """
[[caster]]
key = "onmyoji"
pc_dan = 9
skills = { sorcery = 3, exorcism = 3, hardiness = 1 }
spells = ["fire_talisman", "paper_shield", "binding_charm", "thunder_seal", "counter_charm", "fox_fire",
          "heavenly_fire", "star_fall", "purifying_strike", "sacred_rope", "blessing", "banishing", "holy_flame",
          "great_exorcism"]
"""
"""A 9-dan onmyoji with Sorcery and Exorcism Licensed: the higher-dan spells in play."""


def content_with(tmp_path: Path, casters: str) -> SpellContent:
    """The shipped spells and perks with these caster sheets."""
    path = tmp_path / "casters.toml"
    path.write_text(casters, encoding="utf-8")
    return load_spell_content(SPELLS_FILE, SCHOOLS_FILE, path)


def caster_rules(*fighters: FighterSpec | str, ma: bool = False, content: SpellContent | None = None,
                 **ma_options) -> BreathRuleset:
    """A fight of these fighters (archetype names fight for their position's side) with the spells module."""
    specs = tuple(f if isinstance(f, FighterSpec) else FighterSpec(f, i) for i, f in enumerate(fighters))
    data, modules = with_spells([s.archetype for s in specs], None, content)
    config = BreathConfig(specs)
    if ma:
        return ma_duel(MaDuelConfig(**ma_options), config, data=data, more_modules=modules)
    return BreathRuleset(config, data=data, modules=modules)


def events(state: BreathState, kind: str) -> list:
    """The events of one kind, in order."""
    return [event for event in state.events if event.kind == kind]


def spell_data(state: BreathState):
    """The spells module's per-fight data."""
    return next(v for k, v in state.ext.items() if k.startswith("spells:"))
