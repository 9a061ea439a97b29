"""Spells (seed 004): a module of the breath canon, like Ma and Blade.

:mod:`.content` (the spell catalog, perks and caster sheets as validated data), :mod:`.build` (character
build: access, acquisition, slots), :mod:`.casting` (the casting arithmetic) and :mod:`.module`
(:class:`SpellsModule`, the breath-engine module). :func:`fields_casters` says whether a fight needs it;
:func:`with_spells` adds it to a fight's data and modules. Decisions: ``docs/rules/spells.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from issoku.rules.breath.content import DATA_DIR as BREATH_DATA_DIR
from issoku.rules.breath.modules import BreathModule
from issoku.rules.spells.content import BREATH_FILE, SpellContent, default_spell_content
from issoku.rules.spells.module import SpellsModule


def fields_casters(archetypes: Iterable[str], content: SpellContent | None = None) -> bool:
    """Whether any of these archetypes is a caster (a fight without one keeps its rules byte for byte)."""
    casters = (content or default_spell_content()).casters
    return any(name in casters for name in archetypes)


def spell_data(data: Sequence[str] | None, content: SpellContent | None = None) -> tuple[str, ...]:
    """The breath data a fight with casters loads: the given (or shipped) files plus the casters' sheets
    (``content``'s, a rules variant's; else the shipped ones)."""
    breath = content.breath if content is not None else BREATH_FILE
    return (*(data if data is not None else (str(BREATH_DATA_DIR),)), str(breath))


def with_spells(archetypes: Iterable[str], data: Sequence[str] | None,
                content: SpellContent | None = None) -> tuple[tuple[str, ...] | None, tuple[BreathModule, ...]]:
    """``(data, modules)`` for a fight of these archetypes: unchanged without a caster; with one, the
    casters' breath sheets joined to the data and a :class:`SpellsModule` (to go last: it reads the final
    Wounds of a hit, SP-040)."""
    if not fields_casters(archetypes, content):
        return (tuple(data) if data is not None else None), ()
    return spell_data(data, content), (SpellsModule(content),)


__all__ = ["SpellsModule", "fields_casters", "spell_data", "with_spells"]
