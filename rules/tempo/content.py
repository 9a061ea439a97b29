"""Weapons, armour and fighters of the tempo duel as validated TOML data (TP-G01, TP-G02, TP-G03, TP-G04, TP-G07,
TP-G12).

003 names skills, armour and "By Weapon" costs but gives no numbers; the numbers are data a designer
edits. The pydantic models below check every file (ranges, unknown fields, cross-references such as a
fighter naming an unknown weapon) and report problems as a :class:`DataError` naming file and field.
The engine never sees pydantic objects: :func:`load_roster` converts them to the frozen slotted
:class:`Weapon`, :class:`Armour` and :class:`Fighter` below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from issoku.rules.kernel.content import (LEVER_DEFAULT, LEVER_KEYS, ContentCache, DataError, file_digest, overlaid,
                                        read_toml, validate)
from issoku.rules.tempo.actions import BY_WEAPON_TECHNIQUES, SKILL_NAMES

DATA_DIR = Path(__file__).parent / "data"
MELEE_KIND, RANGED_KIND, UNARMED_KIND = "melee", "ranged", "unarmed"
WEAPON_KINDS = (MELEE_KIND, RANGED_KIND, UNARMED_KIND)
UNARMED = "unarmed"
"""The weapon entry every fighter falls back on when disarmed (TP-G10); weapons.toml must define it."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_BY_WEAPON: list[JsonValue] = [name for name in sorted(BY_WEAPON_TECHNIQUES)]
"""The actions ``ap_by_action`` may price; one it leaves out costs the weapon's ``ap``."""


class WeaponModel(_Strict):
    """One weapon entry of weapons.toml."""

    kind: Literal["melee", "ranged", "unarmed"]
    ap: int = Field(ge=1, le=12, description="AP of every 'By Weapon' action (TP-G04)")
    ap_by_action: dict[str, int] = Field(default_factory=dict, description="per-action AP overrides",
                                         json_schema_extra={LEVER_KEYS: _BY_WEAPON, LEVER_DEFAULT: "ap"})
    damage_die: int = Field(ge=2, le=20, description="sides of the damage die (TP-G03)")
    damage_bonus: int = Field(default=0, ge=0, le=10)
    reach: int = Field(ge=0, le=4, description="threatened distance in squares (TP-G07)")
    range: int = Field(default=0, ge=0, le=99)
    accuracy: int = Field(default=0, ge=-5, le=5, description="unaimed ranged modifier (TP-G12)")
    aimed_accuracy: int = Field(default=0, ge=-5, le=10, description="modifier after a successful Aim (TP-G12)")
    attack_speed: int = Field(default=0, ge=0, le=99, description="Dodge needs a distance above this (TP-038)")
    reload_ap: int = Field(default=0, ge=0, le=12, description="AP to reload after each shot; 0: none (TP-G04)")

    @model_validator(mode="after")
    def _kind_fits_stats(self) -> "WeaponModel":
        unknown = sorted(set(self.ap_by_action) - BY_WEAPON_TECHNIQUES)
        if unknown:
            raise ValueError(f"ap_by_action names actions not priced 'By Weapon': {unknown}; "
                             f"known: {sorted(BY_WEAPON_TECHNIQUES)}")
        if any(not 1 <= cost <= 12 for cost in self.ap_by_action.values()):
            raise ValueError("ap_by_action costs must lie in 1..12")
        if self.kind == RANGED_KIND and self.range < 1:
            raise ValueError("a ranged weapon needs range >= 1")
        if self.kind != RANGED_KIND and self.reach < 1:
            raise ValueError("a melee or unarmed weapon needs reach >= 1")
        return self


class ArmourModel(_Strict):
    """One armour entry of armour.toml."""

    rating: int = Field(ge=0, le=10, description="added to Combat Defence (Armoured), soaks Hits (TP-G02/TP-G03)")
    encumbrance: int = Field(ge=0, le=5, description="subtracted from Recover Stamina (TP-G15)")


class FighterModel(_Strict):
    """One fighter entry of fighters.toml: equipment and the six skills of TP-G01 (0..5)."""

    weapon: str
    armour: str
    melee: int = Field(ge=0, le=5)
    ranged: int = Field(ge=0, le=5)
    wrestling: int = Field(ge=0, le=5)
    athletics: int = Field(ge=0, le=5)
    defence: int = Field(ge=0, le=5)
    endurance: int = Field(ge=0, le=5)


class WeaponsFile(_Strict):
    weapons: dict[str, WeaponModel]


class ArmourFile(_Strict):
    armour: dict[str, ArmourModel]


class FightersFile(_Strict):
    fighters: dict[str, FighterModel]


@dataclass(frozen=True, slots=True)
class Weapon:
    """Runtime weapon: ``costs`` maps every "By Weapon" technique to its AP."""

    name: str
    kind: str
    costs: dict[str, int]
    damage_die: int
    damage_bonus: int
    reach: int
    range: int
    accuracy: int
    aimed_accuracy: int
    attack_speed: int
    reload_ap: int


@dataclass(frozen=True, slots=True)
class Armour:
    """Runtime armour."""

    name: str
    rating: int
    encumbrance: int


@dataclass(frozen=True, slots=True)
class Fighter:
    """Runtime fighter: ``skills`` is indexed by the skill constants of :mod:`actions`."""

    name: str
    weapon: Weapon
    armour: Armour
    skills: tuple[int, ...]

    @property
    def combat_defence(self) -> int:
        """TP-G02: Combat Defence = the Defence skill."""
        return self.skills[SKILL_NAMES.index("defence")]

    @property
    def max_health(self) -> int:
        """TP-G03: Health = 10 + 2 x Endurance."""
        return 10 + 2 * self.skills[SKILL_NAMES.index("endurance")]


@dataclass(frozen=True, slots=True)
class Roster:
    """Everything loaded from one data folder, plus the digest of its files (the rules-data hash)."""

    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    fighters: dict[str, Fighter]
    digest: str


def _weapon(name: str, model: WeaponModel) -> Weapon:
    costs = {technique: model.ap_by_action.get(technique, model.ap) for technique in sorted(BY_WEAPON_TECHNIQUES)}
    return Weapon(name, model.kind, costs, model.damage_die, model.damage_bonus, model.reach, model.range,
                  model.accuracy, model.aimed_accuracy, model.attack_speed, model.reload_ap)


def load_roster(data_dir: Path | str = DATA_DIR, files: Mapping[str, Path] | None = None) -> Roster:
    """Load and cross-check weapons.toml, armour.toml and fighters.toml from ``data_dir``.

    ``files`` replaces some of them by name (``{"weapons.toml": path}``): a rules variant's edited copies.
    Loaded once per set of file bytes (:class:`~issoku.rules.kernel.content.ContentCache`).
    """
    return _ROSTERS(overlaid(data_dir, ("weapons.toml", "armour.toml", "fighters.toml"), files))


def _read_roster(paths: tuple[Path, ...]) -> Roster:
    weapons_file = validate(paths[0], read_toml(paths[0]), WeaponsFile)
    armour_file = validate(paths[1], read_toml(paths[1]), ArmourFile)
    fighters_file = validate(paths[2], read_toml(paths[2]), FightersFile)

    weapon_entry = weapons_file.weapons.get(UNARMED)
    if weapon_entry is None or weapon_entry.kind != UNARMED_KIND:
        raise DataError(paths[0], [(f"weapons.{UNARMED}", "an entry of kind 'unarmed' is required (disarmed fighters use it)")])
    problems = []
    for name, fighter in fighters_file.fighters.items():
        if fighter.weapon not in weapons_file.weapons:
            problems.append((f"fighters.{name}.weapon",
                             f"unknown weapon {fighter.weapon!r}; known: {sorted(weapons_file.weapons)}"))
        if fighter.armour not in armour_file.armour:
            problems.append((f"fighters.{name}.armour",
                             f"unknown armour {fighter.armour!r}; known: {sorted(armour_file.armour)}"))
    if problems:
        raise DataError(paths[2], problems)

    weapons = {name: _weapon(name, model) for name, model in weapons_file.weapons.items()}
    armour = {name: Armour(name, model.rating, model.encumbrance) for name, model in armour_file.armour.items()}
    fighters = {
        name: Fighter(name, weapons[model.weapon], armour[model.armour],
                      tuple(getattr(model, skill) for skill in SKILL_NAMES))
        for name, model in fighters_file.fighters.items()
    }
    return Roster(weapons, armour, fighters, file_digest(*paths))


_ROSTERS = ContentCache(_read_roster)
