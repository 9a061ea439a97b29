"""The duel's content data: ideal ranges by weapon (MA-017..021) and the terrain stages (MA-049..053).

Designers edit ``ranges.toml`` and ``terrain.toml``; pydantic validates them once (unknown rung names,
a weapon listed in two families, a stage with no or several effects all fail with a
:class:`~issoku.rules.kernel.DataError` naming file and field), and the result becomes frozen slotted
runtime objects, so nothing pydantic is touched during a fight.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, model_validator

from issoku.rules.kernel.content import file_digest, read_toml, validate
from issoku.rules.ma.ladder import RUNG_NAMES, Rung

HERE = Path(__file__).parent
DEFAULT_RANGES = HERE / "ranges.toml"
DEFAULT_TERRAIN = HERE / "terrain.toml"

RungName = Literal["far", "issoku_itto", "near", "close", "tsubazeriai"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FamilyModel(_Strict):
    """One row of the ideal-range table."""

    rule: str = Field(pattern=r"^MA-\d{3}$")
    ideal_far: RungName
    ideal_near: RungName
    close_fighting_banned: bool = False
    weapons: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> "FamilyModel":
        if RUNG_NAMES.index(self.ideal_far) > RUNG_NAMES.index(self.ideal_near):
            raise ValueError("ideal_far must not be closer than ideal_near")
        return self


class RangesModel(_Strict):
    """The whole ideal-range file."""

    family: dict[str, FamilyModel] = Field(min_length=1)

    @model_validator(mode="after")
    def _each_weapon_once(self) -> "RangesModel":
        seen: dict[str, str] = {}
        for family_name, family in self.family.items():
            for weapon in family.weapons:
                if weapon in seen:
                    raise ValueError(f"weapon {weapon!r} is in both {seen[weapon]!r} and {family_name!r}")
                seen[weapon] = family_name
        return self


class StageModel(_Strict):
    """One terrain stage: exactly one imported effect (MA-049)."""

    rule: str = Field(pattern=r"^MA-\d{3}$")
    description: str
    initiator_contest: int = Field(default=0, ge=-3, le=3)
    far_range_usable: bool = True
    upper_side_first_contest: int = Field(default=0, ge=-3, le=3)
    glare_checks: int = Field(default=0, ge=-3, le=3)

    @model_validator(mode="after")
    def _one_effect(self) -> "StageModel":
        effects = [self.initiator_contest != 0, not self.far_range_usable,
                   self.upper_side_first_contest != 0, self.glare_checks != 0]
        if sum(effects) != 1:
            raise ValueError("a stage imports exactly one terrain effect (MA-049)")
        return self


class TerrainModel(_Strict):
    """The whole terrain file."""

    stage: dict[str, StageModel] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class WeaponReach:
    """A weapon's ideal range on the ladder, as the duel uses it."""

    weapon: str
    family: str
    rule: str
    ideal_far: Rung
    ideal_near: Rung
    close_fighting_banned: bool

    def rungs_off(self, rung: Rung) -> int:
        """How many half-steps ``rung`` lies outside the ideal range (0 inside it)."""
        if rung < self.ideal_far:
            return self.ideal_far - rung
        if rung > self.ideal_near:
            return rung - self.ideal_near
        return 0


@dataclass(frozen=True, slots=True)
class Stage:
    """A terrain stage and its one effect. ``sided`` stages favour or hurt one duelist (MA-052, MA-053)."""

    name: str
    rule: str
    description: str
    initiator_contest: int
    far_range_usable: bool
    upper_side_first_contest: int
    glare_checks: int

    @property
    def sided(self) -> bool:
        """Whether the setup must say which duelist the effect belongs to."""
        return self.upper_side_first_contest != 0 or self.glare_checks != 0


@dataclass(frozen=True, slots=True)
class MaContent:
    """All duel content, validated; ``digest`` goes into the ruleset fingerprint."""

    reaches: Mapping[str, WeaponReach]
    stages: Mapping[str, Stage]
    digest: str

    def reach(self, weapon: str) -> WeaponReach:
        """The ideal range of ``weapon``; a name the table lacks is a content error, not a default."""
        try:
            return self.reaches[weapon]
        except KeyError:
            raise KeyError(f"weapon {weapon!r} has no ideal range in the Ma and Blade table") from None

    def stage(self, name: str) -> Stage:
        """The terrain stage called ``name``."""
        try:
            return self.stages[name]
        except KeyError:
            raise KeyError(f"unknown terrain stage {name!r}; known: {sorted(self.stages)}") from None


def load_content(ranges_path: Path | str = DEFAULT_RANGES, terrain_path: Path | str = DEFAULT_TERRAIN) -> MaContent:
    """Read, validate and freeze the ideal-range and terrain files."""
    ranges = validate(ranges_path, read_toml(ranges_path), RangesModel)
    terrain = validate(terrain_path, read_toml(terrain_path), TerrainModel)
    reaches = {
        weapon: WeaponReach(weapon, family_name, family.rule, Rung[family.ideal_far.upper()],
                            Rung[family.ideal_near.upper()], family.close_fighting_banned)
        for family_name, family in ranges.family.items()
        for weapon in family.weapons
    }
    stages = {
        name: Stage(name, s.rule, s.description, s.initiator_contest, s.far_range_usable,
                    s.upper_side_first_contest, s.glare_checks)
        for name, s in terrain.stage.items()
    }
    return MaContent(MappingProxyType(reaches), MappingProxyType(stages), file_digest(ranges_path, terrain_path))


@lru_cache(maxsize=1)
def default_content() -> MaContent:
    """The shipped content, loaded once per process."""
    return load_content()
