"""Skills, weapons, armour and archetypes of the encounter system (001) as validated TOML data.

The text names Traits, Rings, skills, weapons and armour but gives numbers only for three weapons
(Tonfa 0k3, Katana 3k2, Ono 0k4); everything else is data (EN-G05, EN-G06) a designer edits. The
pydantic models check every file (ranges, unknown fields, cross-references); a problem is one
:class:`~issoku.rules.kernel.content.DataError` naming the file, the field and why. The engine sees only
the frozen dataclasses below.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from issoku.rules.encounters.dice import Pool
from issoku.rules.kernel.content import ContentCache, DataError, file_digest, overlaid, read_toml, validate

DATA_DIR = Path(__file__).parent / "data"
FILES = ("skills", "weapons", "armour", "archetypes")
UNARMED = "unarmed"
"""The weapon entry a disarmed character fights with; weapons.toml must define it."""

TRAITS = ("stamina", "willpower", "strength", "perception", "agility", "intelligence", "reflexes", "awareness")
RINGS = {"earth": ("stamina", "willpower"), "water": ("strength", "perception"),
         "fire": ("agility", "intelligence"), "air": ("reflexes", "awareness")}
"""EN-G05: each ring but Void is the lower of its two traits."""
RULE_SKILLS = ("defense", "jujutsu", "athletics")
"""Skills the rules themselves test (Air/Earth stance, grapples and unarmed attacks, Blind movement)."""
SIZES = ("small", "medium", "large")
SQUARE_FT = 5
"""EN-G10: the grid's squares are 5 ft."""
_XKY = re.compile(r"^(\d+)k(\d+)$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SkillsFile(_Strict):
    skills: dict[str, str]

    @model_validator(mode="after")
    def _rules_skills_present(self) -> "SkillsFile":
        missing = [name for name in RULE_SKILLS if name not in self.skills]
        if missing:
            raise ValueError(f"the rules test these skills, so they must be listed: {missing}")
        return self


class WeaponModel(_Strict):
    """One entry of weapons.toml."""

    damage: str = Field(description="damage characteristic XkY (EN-035)")
    size: Literal["small", "medium", "large"]
    skill: str
    kind: Literal["melee", "thrown", "aimed"] = "melee"
    reach: bool = False
    samurai: bool = False
    grapple: bool = Field(default=False, description="can start a Weapon Grapple (EN-088)")
    range_ft: int = Field(default=0, ge=0, le=1000, description="range of an aimed or thrown weapon (EN-G19)")

    @field_validator("damage")
    @classmethod
    def _xky(cls, value: str) -> str:
        match = _XKY.match(value)
        if not match or int(match[1]) > 10 or int(match[2]) > 10:
            raise ValueError(f"damage must look like '3k2' (0..10 each), not {value!r}")
        return value

    @model_validator(mode="after")
    def _range_fits_kind(self) -> "WeaponModel":
        if self.kind != "melee" and self.range_ft < SQUARE_FT:
            raise ValueError("an aimed or thrown weapon needs range_ft >= 5")
        if self.kind == "melee" and self.range_ft:
            raise ValueError("a melee weapon's range comes from [Reach]; leave range_ft out")
        return self


class ArmourModel(_Strict):
    """One entry of armour.toml."""

    bonus: int = Field(ge=0, le=30, description="Armor Bonus to the ATN (EN-069)")
    reduction: int = Field(ge=0, le=20, description="subtracted from each damage total (EN-G06)")


class ArchetypeModel(_Strict):
    """One entry of archetypes.toml (EN-G05)."""

    description: str = ""
    stamina: int = Field(ge=1, le=5)
    willpower: int = Field(ge=1, le=5)
    strength: int = Field(ge=1, le=5)
    perception: int = Field(ge=1, le=5)
    agility: int = Field(ge=1, le=5)
    intelligence: int = Field(ge=1, le=5)
    reflexes: int = Field(ge=1, le=5)
    awareness: int = Field(ge=1, le=5)
    void: int = Field(ge=1, le=5)
    insight_rank: int = Field(ge=1, le=8)
    weapon: str
    armour: str
    skills: dict[str, int] = Field(default_factory=dict)
    mook: bool = False

    @field_validator("skills")
    @classmethod
    def _ranks(cls, value: dict[str, int]) -> dict[str, int]:
        bad = {name: rank for name, rank in value.items() if not 0 <= rank <= 10}
        if bad:
            raise ValueError(f"skill ranks must lie in 0..10: {bad}")
        return value


class WeaponsFile(_Strict):
    weapons: dict[str, WeaponModel]


class ArmourFile(_Strict):
    armour: dict[str, ArmourModel]


class ArchetypesFile(_Strict):
    archetypes: dict[str, ArchetypeModel]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as the engine reads it; ``range`` is in 5-ft squares (EN-G06, EN-G10, EN-G19)."""

    name: str
    damage: Pool
    size: str
    skill: str
    kind: str
    reach: bool
    samurai: bool
    range: int
    grapple: bool

    @property
    def hands(self) -> int:
        """EN-G13: [Large] weapons take both hands, every other weapon one."""
        return 2 if self.size == "large" else 1


@dataclass(frozen=True, slots=True)
class Armour:
    """Worn armour."""

    name: str
    bonus: int
    reduction: int


@dataclass(frozen=True, slots=True)
class Archetype:
    """A character sheet: traits, rings, skills, equipment."""

    name: str
    traits: dict[str, int]
    void: int
    insight_rank: int
    skills: dict[str, int]
    weapon: Weapon
    armour: Armour
    mook: bool

    def ring(self, name: str) -> int:
        """EN-G05: Earth, Water, Fire and Air are the lower of their traits; Void is its own."""
        if name == "void":
            return self.void
        first, second = RINGS[name]
        return min(self.traits[first], self.traits[second])

    def skill(self, name: str) -> int:
        """The rank in a skill (0 when the sheet does not list it)."""
        return self.skills.get(name, 0)

    def content(self) -> tuple[str, ...]:
        """The data items the sheet fields (archetype, weapon, armour): what a rules variant's edit can touch, for a
        ruleset's ``seat_content``."""
        return self.name, self.weapon.name, self.armour.name


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything loaded from one data folder, plus the digest of its files (the rules-data hash)."""

    skills: tuple[str, ...]
    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    archetypes: dict[str, Archetype]
    digest: str


def _weapon(name: str, model: WeaponModel) -> Weapon:
    roll, keep = (int(part) for part in model.damage.split("k"))
    reach = (model.range_ft // SQUARE_FT) if model.kind != "melee" else (2 if model.reach else 1)
    return Weapon(name, Pool(roll, keep), model.size, model.skill, model.kind, model.reach, model.samurai, reach,
                  model.grapple)


def load_catalog(data_dir: Path | str = DATA_DIR, files: Mapping[str, Path] | None = None) -> Catalog:
    """Load and cross-check skills, weapons, armour and archetypes from ``data_dir``.

    ``files`` replaces some of them by name (``{"armour.toml": path}``): a rules variant's edited copies, the
    others staying ``data_dir``'s. Loaded once per set of file bytes
    (:class:`~issoku.rules.kernel.content.ContentCache`): a lever sweep builds a ruleset per loadout and lever.
    """
    return _CATALOGS(overlaid(data_dir, [f"{name}.toml" for name in FILES], files))


def _read_catalog(files: tuple[Path, ...]) -> Catalog:
    paths = dict(zip(FILES, files))
    skills = validate(paths["skills"], read_toml(paths["skills"]), SkillsFile).skills
    weapons_file = validate(paths["weapons"], read_toml(paths["weapons"]), WeaponsFile)
    armour_file = validate(paths["armour"], read_toml(paths["armour"]), ArmourFile)
    archetypes_file = validate(paths["archetypes"], read_toml(paths["archetypes"]), ArchetypesFile)

    problems = [(f"weapons.{name}.skill", f"unknown skill {model.skill!r}; known: {sorted(skills)}")
                for name, model in weapons_file.weapons.items() if model.skill not in skills]
    if UNARMED not in weapons_file.weapons:
        problems.append((f"weapons.{UNARMED}", "an entry is required (disarmed characters fight with it)"))
    if problems:
        raise DataError(paths["weapons"], problems)
    for name, model in archetypes_file.archetypes.items():
        if model.weapon not in weapons_file.weapons:
            problems.append((f"archetypes.{name}.weapon",
                             f"unknown weapon {model.weapon!r}; known: {sorted(weapons_file.weapons)}"))
        if model.armour not in armour_file.armour:
            problems.append((f"archetypes.{name}.armour",
                             f"unknown armour {model.armour!r}; known: {sorted(armour_file.armour)}"))
        problems.extend((f"archetypes.{name}.skills.{skill}", f"unknown skill; known: {sorted(skills)}")
                        for skill in model.skills if skill not in skills)
    if problems:
        raise DataError(paths["archetypes"], problems)

    weapons = {name: _weapon(name, model) for name, model in weapons_file.weapons.items()}
    armour = {name: Armour(name, model.bonus, model.reduction) for name, model in armour_file.armour.items()}
    archetypes = {
        name: Archetype(name, {trait: getattr(model, trait) for trait in TRAITS}, model.void, model.insight_rank,
                        dict(model.skills), weapons[model.weapon], armour[model.armour], model.mook)
        for name, model in archetypes_file.archetypes.items()
    }
    return Catalog(tuple(skills), weapons, armour, archetypes, file_digest(*files))


_CATALOGS = ContentCache(_read_catalog)
