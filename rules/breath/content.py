"""Breath content as data: weapons and their techniques, armor, stances, [Kata], archetypes, common maneuvers.

Designers edit TOML files; :func:`load_catalog` validates every file with the pydantic models below
(wrong types, negative costs, missing fields, unknown names fail with the file, the field and the
reason) and then turns them into a frozen :class:`Catalog` of plain slotted dataclasses, which is all
the engine touches at runtime. The default files live in ``rules/breath/data/``.

Each file may hold any of the tables ``[[weapon]]``, ``[[armor]]``, ``[[stance]]``, ``[[kata]]``,
``[[archetype]]``, ``[[maneuver]]``; a catalog is the union of the files given, and a key defined
twice is an error. Cross references (an archetype's weapon, a stance's weapons) are checked against
the union, naming the file that holds the bad reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from issoku.rules.breath.kinds import ATTACK_TECHNIQUE, DEFENSE_TECHNIQUE
from issoku.rules.kernel.content import ContentCache, DataError, file_digest, read_toml, validate

DATA_DIR = Path(__file__).resolve().parent / "data"

RUNGS: tuple[str, ...] = ("far", "issoku_itto", "near", "close", "tsubazeriai")
"""The Ma-and-Blade ladder, far to close (MA-002). Every weapon names its ideal range on it."""

SKILLS = ("swordsmanship", "spearmanship", "staffmanship", "unarmed_combat", "archery", "gunnery",
          "speed", "footwork", "medicine")
TRAITS = ("seal_of_shura", "asura", "takenouchi_license", "shinobi", "infiltration_master", "ronin", "mikkyo_monk")
"""Always-on [aptitude]s and classes the cost, limit and zone rules know by name (BR-053, BR-061, BR-058, BR-076;
the classes ronin, Mikkyo monk and shinobi enter the Core Zone freely, BR-073). The retainer command's −1 on
squad orders (BR-046, BR-T09) is not here: no squad orders exist yet, nothing would read it, so data naming
it is refused rather than accepted and ignored."""

_KEY = r"^[a-z][a-z0-9_]*$"

Rung = Literal["far", "issoku_itto", "near", "close", "tsubazeriai"]

TEXT = "text"
Source = Annotated[str, Field(pattern=r"^(text|[A-Z]{2}-[GAZ]\d{2})$")]
"""Where a data value comes from: ``"text"`` when the seed states it, else the ID of the project decision
that set it (``"BR-G13"``: a gap of seed 002 we filled, recorded in docs/rules/breath.md). The balance
report names the decisions behind a finding, so a designer knows what to change (:mod:`.provenance`)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class TechniqueModel(_Strict):
    """One weapon technique: an attack (Attack A/B) or a defense technique (BR-010, BR-023)."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    kind: Literal["attack", "defense"]
    cost: int = Field(ge=1, le=10, description="base Energy cost; the floor of 1 holds for every maneuver (BR-028)")
    check_bonus: int = Field(default=0, ge=-5, le=5)
    damage: int = Field(default=1, ge=1, le=2, description="Wounds removed by a normal hit (BR-G04)")
    direct: int = Field(default=0, ge=0, le=5, description="[Direct N]: armor and stance Defense ignored (BR-G02)")
    ranged: bool = Field(default=False, description="attack: a ranged shot; defense: usable against shots (BR-G03)")
    source: Source = Field(default="BR-G13", description="the cost: 'text' (seed 002 prints it) or a decision ID")


class WeaponModel(_Strict):
    """A weapon: its class, skill, MA ideal range and techniques (BR-G13)."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    aliases: list[str] = []
    weapon_class: Literal["long", "standard", "short", "staff", "ranged"] = Field(alias="class")
    skill: Literal["swordsmanship", "spearmanship", "staffmanship", "unarmed_combat", "archery", "gunnery"]
    ideal_range: tuple[Rung, Rung]
    technique: list[TechniqueModel] = Field(min_length=1)

    @field_validator("ideal_range")
    @classmethod
    def _ordered(cls, value: tuple[str, str]) -> tuple[str, str]:
        if RUNGS.index(value[0]) > RUNGS.index(value[1]):
            raise ValueError("ideal_range must go from the far rung to the close rung")
        return value

    @field_validator("technique")
    @classmethod
    def _unique_techniques(cls, value: list[TechniqueModel]) -> list[TechniqueModel]:
        keys = [t.key for t in value]
        if len(set(keys)) != len(keys):
            raise ValueError(f"technique keys repeat: {keys}")
        if not any(t.kind == ATTACK_TECHNIQUE for t in value):
            raise ValueError("a weapon needs at least one attack technique")
        return value


class ArmorModel(_Strict):
    """Armor: a Defense value (BR-G02) and an optional one-breath expansion (BR-063)."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    defense: int = Field(ge=10, le=20)
    breath_bonus: int = Field(default=0, ge=0, le=3)
    source: Source = Field(default="BR-G02", description="defense and breath_bonus: 'text' or a decision ID")


class StanceModel(_Strict):
    """A stance (BR-078/BR-079, BR-G14): a declaration cost, Defense bonuses, an optional trigger effect."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    cost: int = Field(ge=0, le=10, description="declaring costs Energy (BR-078); 0 marks a 0-Energy([Kata]) stance (BR-030)")
    defense_bonus: int = Field(default=0, ge=0, le=5)
    closing_defense_bonus: int = Field(default=0, ge=0, le=5,
                                       description="extra Defense against a foe who closed in this round")
    effect: Literal["none", "guard_counter"] = "none"
    weapons: list[str] = Field(default=[], description="weapon keys that may hold it; empty means any")
    source: Source = Field(default="BR-G14", description="the cost: 'text' (seed 002 prints it) or a decision ID")


class KataModel(_Strict):
    """An active [Kata]. Cost 0 marks a 0-Energy([Kata]) maneuver under Rule 3 (BR-030, BR-047, BR-048)."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    cost: int = Field(ge=0, le=10)
    effect: Literal["check_bonus", "defense_until_next_breath", "breath_limit_this_round"]
    amount: int = Field(ge=1, le=5)
    per_round: int = Field(default=1, ge=1, le=5)
    source: Source = Field(default="BR-G22", description="the cost: 'text' (seed 002 prints it) or a decision ID")


class ArchetypeModel(_Strict):
    """A ready-made fighter: attributes (BR-G19), skills, loadout, stances, [Kata] and [aptitude]s."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    finesse: int = Field(ge=0, le=5)
    physique: int = Field(ge=0, le=5)
    wits: int = Field(ge=0, le=5)
    courage: int = Field(ge=0, le=5)
    skills: dict[Literal[SKILLS], int] = {}  # type: ignore[valid-type]
    weapon: str
    armor: str = "none"
    stances: list[str] = []
    kata: list[str] = []
    traits: list[Literal[TRAITS]] = []  # type: ignore[valid-type]
    source: Source = Field(default="BR-G19", description="attributes and skills: no seed gives an archetype, "
                           "so a decision ID (BR-G19) unless a text states the sheet")

    @field_validator("skills")
    @classmethod
    def _skill_range(cls, value: dict[str, int]) -> dict[str, int]:
        for name, level in value.items():
            if not 0 <= level <= 5:
                raise ValueError(f"skill {name!r} must be 0..5, got {level}")
        return value


class ManeuverModel(_Strict):
    """A common maneuver of the cost reference table (BR-067..BR-079)."""

    key: str = Field(pattern=_KEY)
    label: str = ""
    rule: str = Field(pattern=r"^BR-\d{3}$")
    cost: int = Field(ge=0, le=10)
    requires: Literal["zones", "mounted", "squad", "stance", "none"] = "zones"
    check_tn: int | None = Field(default=None, ge=2, le=30)


class ContentFile(_Strict):
    """One TOML file: any subset of the content tables."""

    weapon: list[WeaponModel] = []
    armor: list[ArmorModel] = []
    stance: list[StanceModel] = []
    kata: list[KataModel] = []
    archetype: list[ArchetypeModel] = []
    maneuver: list[ManeuverModel] = []

    @model_validator(mode="after")
    def _unique_keys(self) -> "ContentFile":
        for table in ("weapon", "armor", "stance", "kata", "archetype", "maneuver"):
            keys = [entry.key for entry in getattr(self, table)]
            if len(set(keys)) != len(keys):
                raise ValueError(f"{table} keys repeat in this file: {sorted(keys)}")
        return self


# ---------------------------------------------------------------- runtime (frozen, fast) objects


@dataclass(frozen=True, slots=True)
class Technique:
    """A technique at runtime; ``key`` is ``"<weapon>.<technique>"``, unique over the catalog."""

    key: str
    weapon: str
    name: str
    label: str
    kind: str
    cost: int
    check_bonus: int
    damage: int
    direct: int
    ranged: bool
    source: str
    """Of the cost: ``"text"`` or the decision ID that set it (:data:`Source`)."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon at runtime. ``ideal_range`` holds rung indices (0 = far .. 4 = tsubazeriai)."""

    key: str
    label: str
    aliases: tuple[str, ...]
    weapon_class: str
    skill: str
    ideal_range: tuple[int, int]
    attacks: tuple[Technique, ...]
    defenses: tuple[Technique, ...]

    @property
    def is_short(self) -> bool:
        """Rule 4's short weapons (BR-052): dagger, martial arts, kodachi, ninjato ... not staves."""
        return self.weapon_class == "short"


@dataclass(frozen=True, slots=True)
class Armor:
    key: str
    label: str
    defense: int
    breath_bonus: int
    source: str = "BR-G02"
    """Of ``defense`` and ``breath_bonus``: ``"text"`` or the decision ID that set them (:data:`Source`)."""


@dataclass(frozen=True, slots=True)
class Stance:
    key: str
    label: str
    cost: int
    defense_bonus: int
    closing_defense_bonus: int
    effect: str
    weapons: tuple[str, ...]
    source: str = "BR-G14"
    """Of the cost: ``"text"`` or the decision ID that set it (:data:`Source`)."""


@dataclass(frozen=True, slots=True)
class Kata:
    key: str
    label: str
    cost: int
    effect: str
    amount: int
    per_round: int
    source: str = "BR-G22"
    """Of the cost: ``"text"`` or the decision ID that set it (:data:`Source`)."""

    @property
    def zero_energy(self) -> bool:
        """A 0-Energy([Kata]) maneuver, limited by Rule 3 (BR-030, BR-047, BR-048)."""
        return self.cost == 0


def skill_level(skills: tuple[tuple[str, int], ...], name: str) -> int:
    """A level from a ``(skill, level)`` table; 0 when the skill is untrained."""
    for skill, level in skills:
        if skill == name:
            return level
    return 0


@dataclass(frozen=True, slots=True)
class Archetype:
    key: str
    label: str
    finesse: int
    physique: int
    wits: int
    courage: int
    skills: tuple[tuple[str, int], ...]
    weapon: str
    armor: str
    stances: tuple[str, ...]
    kata: tuple[str, ...]
    traits: tuple[str, ...]
    source: str = "BR-G19"
    """Of the attributes and skills: ``"text"`` or the decision ID that set them (:data:`Source`)."""

    def skill(self, name: str) -> int:
        """The archetype's level in a skill (0 when untrained)."""
        return skill_level(self.skills, name)


@dataclass(frozen=True, slots=True)
class Maneuver:
    key: str
    label: str
    rule: str
    cost: int
    requires: str
    check_tn: int | None


@dataclass(frozen=True)
class Catalog:
    """Every content entry, in a fixed order (file order, then entry order), keyed by name.

    The order is what the action table follows, so it is part of the ruleset fingerprint (``digest``).
    """

    weapons: dict[str, Weapon]
    techniques: dict[str, Technique]
    armors: dict[str, Armor]
    stances: dict[str, Stance]
    katas: dict[str, Kata]
    archetypes: dict[str, Archetype]
    maneuvers: dict[str, Maneuver]
    digest: str

    def __post_init__(self) -> None:
        # Positions in the catalog order: the observation's one-hot fields use them.
        index: dict[str, Iterable[str]] = {
            "weapon_index": self.weapons, "armor_index": self.armors, "stance_index": self.stances,
            "kata_index": self.katas,
            "defense_index": [key for key, t in self.techniques.items() if t.kind == DEFENSE_TECHNIQUE],
        }
        for name, keys in index.items():
            object.__setattr__(self, name, {key: i for i, key in enumerate(keys)})

    weapon_index: dict[str, int] = field(init=False, repr=False)
    armor_index: dict[str, int] = field(init=False, repr=False)
    stance_index: dict[str, int] = field(init=False, repr=False)
    kata_index: dict[str, int] = field(init=False, repr=False)
    defense_index: dict[str, int] = field(init=False, repr=False)

    def weapon(self, name: str) -> Weapon:
        """A weapon by key or alias (``katana`` -> uchigatana); KeyError names the choices."""
        if name in self.weapons:
            return self.weapons[name]
        for weapon in self.weapons.values():
            if name in weapon.aliases:
                return weapon
        raise KeyError(f"unknown weapon {name!r}; known: {sorted(self.weapons)}")


def _data_files(sources: Path | str | Sequence[Path | str] | None) -> list[Path]:
    if sources is None:
        sources = [DATA_DIR]
    elif isinstance(sources, (str, Path)):
        sources = [sources]
    files: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(path.glob("*.toml"))
            if not found:
                raise DataError(path, [("(directory)", "holds no *.toml file")])
            files.extend(found)
        else:
            files.append(path)
    return files


def _convert_weapon(model: WeaponModel) -> Weapon:
    techniques = [
        Technique(key=f"{model.key}.{t.key}", weapon=model.key, name=t.key, label=t.label or t.key.replace("_", " "),
                  kind=t.kind, cost=t.cost, check_bonus=t.check_bonus, damage=t.damage, direct=t.direct,
                  ranged=t.ranged, source=t.source)
        for t in model.technique
    ]
    return Weapon(key=model.key, label=model.label or model.key, aliases=tuple(model.aliases),
                  weapon_class=model.weapon_class, skill=model.skill,
                  ideal_range=(RUNGS.index(model.ideal_range[0]), RUNGS.index(model.ideal_range[1])),
                  attacks=tuple(t for t in techniques if t.kind == ATTACK_TECHNIQUE),
                  defenses=tuple(t for t in techniques if t.kind == DEFENSE_TECHNIQUE))


def load_catalog(sources: Path | str | Sequence[Path | str] | None = None) -> Catalog:
    """Validate the content files (a directory, files, or the defaults) into a frozen :class:`Catalog` (loaded
    once per set of file bytes: :class:`~issoku.rules.kernel.content.ContentCache`)."""
    return _CATALOGS(_data_files(sources))


def _read_catalog(files: tuple[Path, ...]) -> Catalog:
    origin: dict[tuple[str, str], Path] = {}
    tables: dict[str, list] = {name: [] for name in ("weapon", "armor", "stance", "kata", "archetype", "maneuver")}
    for path in files:
        parsed = validate(path, read_toml(path), ContentFile)
        for table, entries in tables.items():
            for index, entry in enumerate(getattr(parsed, table)):
                if (table, entry.key) in origin:
                    raise DataError(path, [(f"{table}[{index}].key",
                                            f"{table} {entry.key!r} is already defined in {origin[(table, entry.key)]}")])
                origin[(table, entry.key)] = path
                entries.append((path, index, entry))
    _check_references(tables)
    weapons = {m.key: _convert_weapon(m) for _, _, m in tables["weapon"]}
    return Catalog(
        weapons=weapons,
        techniques={t.key: t for w in weapons.values() for t in (*w.attacks, *w.defenses)},
        armors={m.key: Armor(m.key, m.label or m.key, m.defense, m.breath_bonus, m.source)
                for _, _, m in tables["armor"]},
        stances={m.key: Stance(m.key, m.label or m.key, m.cost, m.defense_bonus, m.closing_defense_bonus, m.effect,
                               tuple(m.weapons), m.source) for _, _, m in tables["stance"]},
        katas={m.key: Kata(m.key, m.label or m.key, m.cost, m.effect, m.amount, m.per_round, m.source)
               for _, _, m in tables["kata"]},
        archetypes={m.key: Archetype(m.key, m.label or m.key, m.finesse, m.physique, m.wits, m.courage,
                                     tuple(sorted(m.skills.items())), m.weapon, m.armor, tuple(m.stances),
                                     tuple(m.kata), tuple(m.traits), m.source) for _, _, m in tables["archetype"]},
        maneuvers={m.key: Maneuver(m.key, m.label or m.key, m.rule, m.cost, m.requires, m.check_tn)
                   for _, _, m in tables["maneuver"]},
        digest=file_digest(*files),
    )


_CATALOGS = ContentCache(_read_catalog)


def _check_references(tables: dict[str, list]) -> None:
    """Unknown names in cross references fail with the file and field that hold them."""
    weapon_names = {m.key for _, _, m in tables["weapon"]} | {a for _, _, m in tables["weapon"] for a in m.aliases}
    known = {
        "weapon": weapon_names,
        "armor": {m.key for _, _, m in tables["armor"]},
        "stances": {m.key for _, _, m in tables["stance"]},
        "kata": {m.key for _, _, m in tables["kata"]},
    }
    for path, index, stance in tables["stance"]:
        _expect_known(path, f"stance[{index}].weapons", stance.weapons, known["weapon"], "weapon")
    for path, index, archetype in tables["archetype"]:
        where = f"archetype[{index}]"
        _expect_known(path, f"{where}.weapon", [archetype.weapon], known["weapon"], "weapon")
        _expect_known(path, f"{where}.armor", [archetype.armor], known["armor"], "armor")
        _expect_known(path, f"{where}.stances", archetype.stances, known["stances"], "stance")
        _expect_known(path, f"{where}.kata", archetype.kata, known["kata"], "kata")


def _expect_known(path: Path, field: str, names: Iterable[str], known: set[str], what: str) -> None:
    for name in names:
        if name not in known:
            raise DataError(path, [(field, f"unknown {what} {name!r} (known: {', '.join(sorted(known)) or 'none'})")])
