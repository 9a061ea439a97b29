"""Spell content as data: the spell catalog, the schools' and classes' slot perks, the casters' spell sheets.

Seed 004 names the four spell lists but prints none of their spells (SP-G01), so the catalog is a designer's
file (``data/spells.toml``); the perks (``data/schools.toml``) are the seed's §5/§6 tables; each ready-made
caster's spell sheet (``data/casters.toml``) sits beside its breath-side sheet (``data/archetypes.toml``,
which joins the breath catalog only in a fight that fields a caster). Every file is validated by the
pydantic models below; a bad one fails with the file, the field and why (:class:`DataError`), and then
:func:`issoku.rules.spells.build.check_caster` holds each caster to the character-build rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from issoku.rules.kernel.content import ContentCache, DataError, file_digest, read_toml, validate
from issoku.rules.spells.build import check_caster
from issoku.rules.spells.lists_and_dans import LISTS, SPELL_DANS, TATSUJIN

DATA_DIR = Path(__file__).resolve().parent / "data"
SPELLS_FILE, SCHOOLS_FILE, CASTERS_FILE = DATA_DIR / "spells.toml", DATA_DIR / "schools.toml", DATA_DIR / "casters.toml"
BREATH_FILE = DATA_DIR / "archetypes.toml"
"""The casters' breath-side archetypes and the preparation stance, added to the breath catalog."""

PREPARATION, DISPERSED = "preparation", "dispersed"
"""The two stage modes of the casting structure (SP-019..SP-026)."""
EFFECTS = ("attack", "ward", "dispel", "buff", "summon")
"""What a spell does on activation (SP-G01): the engine knows these by name."""
SPELL_SKILLS = (*LISTS, "hardiness")

_KEY = r"^[a-z][a-z0-9_]*$"
Source = Field(default="SP-G01", pattern=r"^(text|[A-Z]{2}-[GAZ]\d{2})$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class StageModel(_Strict):
    """One casting stage: its Energy and whether it is a preparation or a dispersed stage."""

    energy: int = Field(ge=1, le=10, description="Energy paid in the breath the stage is cast (SP-G05)")
    mode: Literal["preparation", "dispersed"]


class PerkDiscountModel(_Strict):
    """SP-063: "school perk: activation Energy −N", written in the spell's body."""

    school: str = Field(pattern=_KEY)
    amount: int = Field(default=1, ge=1, le=3)


class SpellModel(_Strict):
    """One spell (SP-G01): list, dan, casting stages, effect."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    spell_list: Literal["sorcery", "exorcism", "barrier", "prophecy"] = Field(alias="list")
    dan: Literal[1, 3, 5, 7, 9]
    effect: Literal["attack", "ward", "dispel", "buff", "summon"]
    amount: int = Field(ge=1, le=5, description="Wounds, Defense, check bonus or the unit's attack bonus")
    instant: bool = Field(default=False, description="SP-024: a single-stage spell above 1-dan")
    reactive: bool = Field(default=False, description="SP-024/SP-G13: cast only as an improvised reaction to "
                           "an enemy spell aimed at the caster (a ward or a dispel of one stage)")
    unit: Literal["shikigami", "puppet", "squad"] | None = Field(
        default=None, description="a summon's unit (SP-G14): shikigami or puppet (control actions, BR-041) or "
        "squad (squad orders, BR-042); a summon without one brings a shikigami")
    perk_discount: PerkDiscountModel | None = Field(default=None, description="SP-063: the activation stage "
                                                    "costs `amount` less to a caster of `school` (floor 1)")
    stages: list[StageModel] = Field(min_length=1, max_length=4)
    source: str = Source

    @field_validator("stages")
    @classmethod
    def _within_a_fight(cls, stages: list[StageModel]) -> list[StageModel]:
        if sum(stage.energy for stage in stages) > 12:
            raise ValueError("a spell's stages total at most 12 Energy (a 9-dan spell is 10, SP-022)")
        return stages


class PerkModel(_Strict):
    """A school's (SP-050..SP-062) or class's (SP-065, SP-066, SP-067, SP-068, SP-069, SP-070) extra slots.

    The shipped rows (``data/schools.toml``), by rule: folk_sorcery SP-051, nanban_black_magic SP-052,
    joseon_daoism SP-053, chinese_daoist_priest SP-054, tibetan_esotericism SP-055, catholic_exorcism SP-056,
    orthodox_church SP-057, daoist_demon_quelling SP-058, joseon_shamanism SP-059, brahmin SP-060,
    barrier_school SP-061, prophecy_school SP-062; the classes onmyoji SP-066, esoteric_monk SP-067,
    pure_land_monk SP-068, shugenja SP-069, feng_shui_master SP-070."""

    key: str = Field(pattern=_KEY)
    lists: list[Literal["sorcery", "exorcism", "barrier", "prophecy"]] = Field(min_length=1)
    dans: list[Literal[1, 3, 5, 7, 9, 10]] = Field(description="dans gaining `slots` each; empty: flexible slots")
    slots: int = Field(ge=1, le=3)
    source: str = Field(default="text", pattern=r"^(text|[A-Z]{2}-[GAZ]\d{2})$")


class CasterModel(_Strict):
    """A caster's spell sheet, fixed at character build (SP-001..SP-016, SP-050..SP-071)."""

    key: str = Field(pattern=_KEY)
    pc_dan: int = Field(ge=1, le=TATSUJIN)
    skills: dict[Literal["sorcery", "exorcism", "barrier", "prophecy", "hardiness"], Annotated[int, Field(ge=0, le=5)]]
    school: str | None = None
    class_: str | None = Field(default=None, alias="class")
    spells: list[str] = Field(min_length=1)
    studied: list[str] = []
    techniques: bool = Field(default=False, description="SP-071: a spell PC never uses the core technique system")
    transfer: bool = Field(default=False, description="BR-031: a scholar, who may transfer Energy to an ally 1:1")
    retainer_command: bool = Field(default=False, description="BR-046: −1 Energy on the commander's squad orders, "
                                   "and on nothing else")


class SpellsFile(_Strict):
    spell: list[SpellModel] = Field(min_length=1)


class SchoolsFile(_Strict):
    school: list[PerkModel] = []
    class_: list[PerkModel] = Field(default=[], alias="class")


class CastersFile(_Strict):
    caster: list[CasterModel] = []


@dataclass(frozen=True, slots=True)
class Stage:
    energy: int
    mode: str


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell at runtime: plain fields the module reads on every decision."""

    key: str
    label: str
    list: str
    dan: int
    effect: str
    amount: int
    instant: bool
    stages: tuple[Stage, ...]
    source: str
    perk_discount: tuple[str, int] | None = None
    """SP-063: ``(school, amount)`` off the activation stage for a caster of that school."""
    unit: str | None = None
    """A summon's unit (SP-G14): ``shikigami``, ``puppet`` or ``squad``; None for any other effect."""
    reactive: bool = False
    """SP-G13: cast only as a reaction to an enemy spell aimed at the caster."""

    @property
    def total_energy(self) -> int:
        """The structure's total (SP-018, SP-019, SP-020, SP-021, SP-022: 2, 4, 6, 8, 10 by dan; SP-025/SP-026 for
        great and mixed spells)."""
        return sum(stage.energy for stage in self.stages)

    @property
    def dispersed(self) -> bool:
        """Whether any stage is dispersed: completing it within one round is forced (SP-041)."""
        return any(stage.mode == DISPERSED for stage in self.stages)

    @property
    def notation(self) -> str:
        """The seed's notation: ``2``, ``2+2 (preparation)``, ``2+2 (preparation) +3 (dispersed)``."""
        if len(self.stages) == 1:
            return str(self.stages[0].energy)
        parts: list[str] = []
        for mode in (PREPARATION, DISPERSED):
            run = [str(s.energy) for s in self.stages if s.mode == mode]
            if run:
                parts.append(f"{'+'.join(run)} ({mode})")
        return " +".join(parts)


@dataclass(frozen=True, slots=True)
class Perk:
    key: str
    lists: tuple[str, ...]
    dans: tuple[int, ...]
    slots: int


@dataclass(frozen=True, slots=True)
class Caster:
    """A caster's spell sheet (validated by :func:`~issoku.rules.spells.build.check_caster`)."""

    key: str
    pc_dan: int
    skills: tuple[tuple[str, int], ...]
    school: str | None
    class_: str | None
    spells: tuple[str, ...]
    studied: tuple[str, ...]
    techniques: bool
    transfer: bool = False
    """BR-031: a scholar's Energy transfer to an ally (SP-G14)."""
    retainer_command: bool = False
    """BR-046 (BR-T09): the commander's squad orders cost 1 less (Rule 2, floor 1); nothing else does."""

    def skill(self, name: str) -> int:
        """Level in a spell skill or hardiness (0 untrained)."""
        return dict(self.skills).get(name, 0)


@dataclass(frozen=True)
class SpellContent:
    """Every spell, perk and caster sheet, validated; ``digest`` goes into the ruleset fingerprint."""

    spells: dict[str, Spell]
    schools: dict[str, Perk]
    classes: dict[str, Perk]
    casters: dict[str, Caster]
    digest: str
    files: tuple[Path, ...]
    breath: Path = BREATH_FILE
    """The casters' breath-side sheets and the preparation stance, joined to a caster fight's breath data."""


def load_spell_content(spells: Path | str = SPELLS_FILE, schools: Path | str = SCHOOLS_FILE,
                       casters: Path | str = CASTERS_FILE, breath: Path | str = BREATH_FILE) -> SpellContent:
    """Validate the three files into a frozen :class:`SpellContent`; each caster is held to the build rules.
    ``breath``: the casters' breath sheets (validated with the breath data they join, by the breath catalog)."""
    spell_file = validate(spells, read_toml(spells), SpellsFile)
    school_file = validate(schools, read_toml(schools), SchoolsFile)
    caster_file = validate(casters, read_toml(casters), CastersFile)
    catalog: dict[str, Spell] = {}
    for index, m in enumerate(spell_file.spell):
        if m.key in catalog:
            raise DataError(spells, [(f"spell[{index}].key", f"spell {m.key!r} is defined twice")])
        if len(m.stages) == 1 and m.dan > 1 and not m.instant:
            raise DataError(spells, [(f"spell[{index}].stages", "a single stage above 1-dan needs instant = true "
                                      "(SP-024: an instant spell at a higher dan is named as such)")])
        if m.reactive and (m.effect not in ("ward", "dispel") or len(m.stages) != 1):
            raise DataError(spells, [(f"spell[{index}].reactive", "a reactive spell is a ward or a dispel of one "
                                      "stage (SP-024: a reactive defensive or emergency dispel spell is instant)")])
        if m.unit is not None and m.effect != "summon":
            raise DataError(spells, [(f"spell[{index}].unit", f"only a summon brings a unit; this spell's effect "
                                      f"is {m.effect!r}")])
        discount = (m.perk_discount.school, m.perk_discount.amount) if m.perk_discount is not None else None
        unit = (m.unit or "shikigami") if m.effect == "summon" else None
        catalog[m.key] = Spell(m.key, m.label or m.key.replace("_", " "), m.spell_list, m.dan, m.effect, m.amount,
                               m.instant, tuple(Stage(s.energy, s.mode) for s in m.stages), m.source, discount,
                               unit, m.reactive)
    school_perks = _perks(schools, "school", school_file.school)
    for index, m in enumerate(spell_file.spell):
        if m.perk_discount is not None and m.perk_discount.school not in school_perks:
            raise DataError(spells, [(f"spell[{index}].perk_discount.school",
                                      f"unknown school {m.perk_discount.school!r} (known: {', '.join(sorted(school_perks))})")])
    class_perks = _perks(schools, "class", school_file.class_)
    sheets: dict[str, Caster] = {}
    for index, c in enumerate(caster_file.caster):
        sheet = Caster(c.key, c.pc_dan, tuple(sorted(c.skills.items())), c.school, c.class_, tuple(c.spells),
                       tuple(c.studied), c.techniques, c.transfer, c.retainer_command)
        problem = check_caster(sheet, catalog, school_perks, class_perks)
        if problem is not None:
            field, why = problem
            raise DataError(casters, [(f"caster[{index}].{field}", why)])
        sheets[c.key] = sheet
    files = (Path(spells), Path(schools), Path(casters))
    return SpellContent(catalog, school_perks, class_perks, sheets, file_digest(*files), files, Path(breath))


def _perks(path: Path | str, table: str, models: list[PerkModel]) -> dict[str, Perk]:
    perks: dict[str, Perk] = {}
    for index, m in enumerate(models):
        if m.key in perks:
            raise DataError(path, [(f"{table}[{index}].key", f"{table} {m.key!r} is defined twice")])
        perks[m.key] = Perk(m.key, tuple(m.lists), tuple(m.dans), m.slots)
    return perks


@lru_cache(maxsize=1)
def default_spell_content() -> SpellContent:
    """The shipped spell content, loaded once per process."""
    return load_spell_content()


def spell_content_at(spells: str, schools: str, casters: str, breath: str) -> SpellContent:
    """The spell content of these files (a rules variant's), loaded once per set of file bytes
    (:class:`~issoku.rules.kernel.content.ContentCache`: an edited file is read again)."""
    return _SPELL_CONTENTS([Path(spells), Path(schools), Path(casters), Path(breath)])


_SPELL_CONTENTS = ContentCache(lambda paths: load_spell_content(*paths), size=16)


__all__ = ["BREATH_FILE", "Caster", "DISPERSED", "LISTS", "PREPARATION", "Perk", "SPELL_DANS", "Spell",
           "SpellContent", "Stage", "TATSUJIN", "default_spell_content", "load_spell_content",
           "spell_content_at"]
