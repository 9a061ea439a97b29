"""The duel's own content data: the terrain stages (MA-049, MA-050, MA-051, MA-052, MA-053).

Ideal ranges (MA-017, MA-018, MA-019, MA-020, MA-021) are not here: every weapon of the breath catalog already names its
``ideal_range`` (``rules/breath/data/weapons.toml``), and one table is the single source of truth.
Designers edit ``terrain.toml``; pydantic validates it once (a stage with no or several effects, an
unknown field, fail with a :class:`~issoku.rules.kernel.DataError` naming file and field), and the
result becomes frozen slotted runtime objects, so nothing pydantic is touched during a fight.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from pydantic import BaseModel, ConfigDict, Field, model_validator

from issoku.rules.kernel.content import ContentCache, file_digest, read_toml, validate

DEFAULT_TERRAIN = Path(__file__).parent / "terrain.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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

    stages: Mapping[str, Stage]
    digest: str

    def stage(self, name: str) -> Stage:
        """The terrain stage called ``name``."""
        try:
            return self.stages[name]
        except KeyError:
            raise KeyError(f"unknown terrain stage {name!r}; known: {sorted(self.stages)}") from None


def load_content(terrain_path: Path | str = DEFAULT_TERRAIN) -> MaContent:
    """Read, validate and freeze the terrain file (loaded once per set of bytes:
    :class:`~issoku.rules.kernel.content.ContentCache`)."""
    return _TERRAINS([Path(terrain_path)])


def _read_terrain(paths: tuple[Path, ...]) -> MaContent:
    (terrain_path,) = paths
    terrain = validate(terrain_path, read_toml(terrain_path), TerrainModel)
    stages = {
        name: Stage(name, s.rule, s.description, s.initiator_contest, s.far_range_usable,
                    s.upper_side_first_contest, s.glare_checks)
        for name, s in terrain.stage.items()
    }
    return MaContent(MappingProxyType(stages), file_digest(terrain_path))


_TERRAINS = ContentCache(_read_terrain)


@lru_cache(maxsize=1)
def default_content() -> MaContent:
    """The shipped content, loaded once per process."""
    return load_content()
