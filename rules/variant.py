"""Rules variants: a folder of edited data files laid over the shipped rules data.

A designer's loop is *edit one number, ask what it did*. A variant folder holds only the edited files,
at their paths under ``rules/`` (``breath/data/weapons.toml``, ``ma/terrain.toml``,
``tempo/data/weapons.toml``, ``spells/data/spells.toml``, ``encounters/data/armour.toml``); every other
file stays the shipped one. :class:`Variant` resolves each data file to its overlay or shipped path, so a
ruleset loads a variant exactly as it loads the shipped data (``breath_duel_v0.env(variant=DIR)``,
``tempo_duel_v0.env(variant=DIR)``, ``encounter_duel_v0.env(variant=DIR)``), and the fingerprint changes
with the bytes, as for any data change.

:meth:`Variant.validate` loads every system the variant touches before anything is played: a
malformed file, an unknown field or item, a broken cross reference (a stance whitelist, an
archetype's weapon) fails as a :class:`~issoku.rules.kernel.content.DataError` naming the file, the
field and why. :func:`data_diff` is the structural diff a report opens with
(``breath/data/weapons.toml: nodachi / parry: cost 2 → 1``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

import tomli_w
from pydantic import BaseModel

from issoku.rules.kernel.content import LEVER_DEFAULT, LEVER_KEYS, DataError, read_toml

RULES_DIR = Path(__file__).resolve().parent
DATA_GLOBS = ("breath/data/*.toml", "ma/terrain.toml", "tempo/data/*.toml", "spells/data/*.toml",
              "encounters/data/*.toml")
"""The shipped data files a variant may replace, relative to ``rules/``."""


@functools.cache
def shipped_files() -> tuple[str, ...]:
    """Every shipped data file, as a ``/``-separated path relative to ``rules/``, sorted (listed once per process:
    the installed package's files do not change under it, and a lever sweep asks for them at every ruleset)."""
    return tuple(sorted(path.relative_to(RULES_DIR).as_posix() for pattern in DATA_GLOBS
                        for path in RULES_DIR.glob(pattern)))


_SHIPPED = f"{RULES_DIR}{os.sep}"


def data_digest(*sources: Path | str | None) -> str:
    """A SHA-256 over the names and bytes of the files ``sources`` name (a folder: its ``*.toml`` files, all a
    loader reads there), for a cache of rulesets to key on beside the paths. None and the shipped files under
    :data:`RULES_DIR` (the defaults, and :class:`Variant`'s paths for what a variant leaves alone) are skipped:
    they do not change under a running process, and reading them would slow every env built.

    Why: a ruleset kept by its data paths alone outlives an edit of those files, and a designer who rewrites
    ``weapons.toml`` and builds the env again in the same process would play the old rules. A file that
    cannot be read adds only its name: its loader raises, and nothing failed is cached.
    """
    digest = hashlib.sha256()
    for source in sources:
        if source is None or str(source).startswith(_SHIPPED):
            continue
        files = (sorted(entry.path for entry in os.scandir(source) if entry.name.endswith(".toml"))
                 if os.path.isdir(source) else [source])
        for file in files:
            digest.update(f"{file}\0".encode())
            try:
                with open(file, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


class Variant:
    """The shipped data with the files of ``root`` laid over it (``root=None``: the shipped data itself)."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = None if root is None else Path(root)
        self.files: dict[str, Path] = {}
        """The overlay's files by their path under ``rules/``."""
        if self.root is None:
            return
        if not self.root.is_dir():
            raise DataError(self.root, [("(variant)", "not a folder (a variant is a folder of edited data files)")])
        known = set(shipped_files())
        for path in sorted(self.root.rglob("*")):
            if path.is_symlink():  # a variant is the files of its folder: a link could read any file on the machine
                raise DataError(path, [("(path)", "a symbolic link; a variant holds its edited files themselves")])
            if path.is_dir():
                continue
            relative = path.relative_to(self.root).as_posix()
            if relative not in known:
                raise DataError(path, [("(path)", f"{relative!r} is no shipped data file; a variant holds edited "
                                                  f"copies at their paths under rules/: {', '.join(sorted(known))}")])
            self.files[relative] = path
        if not self.files:
            raise DataError(self.root, [("(variant)", "holds no data file")])

    def path(self, relative: str) -> Path:
        """The file the variant uses for a shipped data file (its own copy, else the shipped one)."""
        return self.files.get(relative, RULES_DIR / relative)

    def touches(self, system: str) -> bool:
        """Whether the variant edits a file of ``system`` (``breath``, ``ma``, ``tempo``, ``spells``,
        ``encounters``)."""
        return any(relative.split("/")[0] == system for relative in self.files)

    def breath_data(self) -> list[Path]:
        """The breath content files, shipped order, each replaced by the variant's copy where it has one."""
        return [self.path(relative) for relative in shipped_files() if relative.startswith("breath/data/")]

    def spell_files(self) -> tuple[str, str, str, str]:
        """The spells module's files (catalog, perks, caster sheets, the casters' breath sheets), each the
        variant's copy where it has one: the arguments of :func:`~issoku.rules.spells.content.spell_content_at`."""
        return tuple(str(self.path(f"spells/data/{name}.toml"))  # type: ignore[return-value]
                     for name in ("spells", "schools", "casters", "archetypes"))

    def terrain(self) -> Path:
        """The Ma duel's terrain file."""
        return self.path("ma/terrain.toml")

    def tempo_files(self) -> dict[str, Path]:
        """The variant's own tempo data files by file name (``{"weapons.toml": path}``)."""
        return self._own_files("tempo/data/")

    def encounter_files(self) -> dict[str, Path]:
        """The variant's own encounter data files by file name (``{"armour.toml": path}``): the ``files`` of
        :func:`~issoku.rules.encounters.content.load_catalog`."""
        return self._own_files("encounters/data/")

    def _own_files(self, folder: str) -> dict[str, Path]:
        return {relative.rsplit("/", 1)[1]: path for relative, path in self.files.items()
                if relative.startswith(folder)}

    def validate(self) -> None:
        """Load every system the variant touches; bad data raises :class:`DataError` (file, field, why)."""
        from issoku.rules.breath.content import load_catalog
        from issoku.rules.encounters.content import DATA_DIR as ENCOUNTER_DATA
        from issoku.rules.encounters.content import load_catalog as load_encounter_catalog
        from issoku.rules.ma.content import load_content
        from issoku.rules.spells.content import load_spell_content
        from issoku.rules.tempo.content import DATA_DIR, load_roster

        if self.touches("breath") or self.touches("ma"):
            load_catalog(self.breath_data())
            load_content(self.terrain())
        if self.touches("tempo"):
            load_roster(DATA_DIR, self.tempo_files())
        if self.touches("spells"):
            content = load_spell_content(*self.spell_files())
            load_catalog([*self.breath_data(), content.breath])
        if self.touches("encounters"):
            load_encounter_catalog(ENCOUNTER_DATA, self.encounter_files())


@dataclass(frozen=True)
class Change:
    """One edited value: ``file`` under ``rules/``, the ``item`` (``nodachi / parry``), the ``field``."""

    file: str
    item: str
    field: str
    before: Any
    after: Any

    def __str__(self) -> str:
        item = f"{self.item}: " if self.item else ""
        return f"{self.file}: {item}{self.field} {shown(self.before)} → {shown(self.after)}"


def shown(value: Any) -> str:
    """A data value as the diff names it (``(absent)`` for a field one side leaves out)."""
    if value is _ABSENT:
        return "(absent)"
    return str(value).lower() if isinstance(value, bool) else str(value)


_ABSENT = object()


def _leaves(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """``(path, value)`` of every leaf; a table in an array is named by its ``key`` (else its index) in
    place of the array's name (``nodachi / parry``, not ``weapon / nodachi / technique / parry``)."""
    if isinstance(value, dict):
        for name, inner in value.items():
            yield from _leaves(inner, (*path, str(name)))
    elif isinstance(value, list) and value and all(isinstance(entry, dict) for entry in value):
        for index, entry in enumerate(value):
            yield from _leaves(entry, (*path[:-1], str(entry.get("key", index))))
    else:
        yield path, value


def _flatten(raw: dict) -> dict[tuple[str, ...], Any]:
    # A top-level table (``[weapons.rapier]``) is what the file is about: its name is left out.
    leaves = (leaf for name, inner in raw.items()
              for leaf in (_leaves(inner) if isinstance(inner, dict) else _leaves({name: inner})))
    return {path: value for path, value in leaves if path[-1:] != ("key",)}


def data_diff(base: Variant, variant: Variant) -> list[Change]:
    """Every value the ``variant`` sets differently from ``base``, file by file, in file order."""
    changes: list[Change] = []
    for relative in sorted(set(base.files) | set(variant.files)):
        before = _flatten(read_toml(base.path(relative)))
        after = _flatten(read_toml(variant.path(relative)))
        for path in list(before) + [p for p in after if p not in before]:
            old, new = before.get(path, _ABSENT), after.get(path, _ABSENT)
            if old != new:
                changes.append(Change(relative, " / ".join(path[:-1]), path[-1], old, new))
    return changes


@dataclass(frozen=True)
class NumericField:
    """One number a data file sets: its ``file`` under ``rules/``, where it sits in the parsed file
    (``address``: table keys and array indices), and its value. ``absent``: the file leaves the field out
    and ``value`` is what the schema gives it (a technique's ``check_bonus`` 0, a tempo action's AP: its
    weapon's ``ap``); writing it adds the field."""

    file: str
    address: tuple[str | int, ...]
    value: int | float
    absent: bool = False

    @property
    def pool_part(self) -> str:
        """``rolled`` or ``kept`` when the number is one half of a dice pool string (``"2k2"``), else ""."""
        return str(self.address[-1]) if len(self.address) > 1 and self.address[-1] in POOL_PARTS else ""


DICE_POOL = re.compile(r"^(\d+)k(\d+)$")
"""A dice pool as data writes it: ``XkY``, roll X dice and keep Y (the encounters' damage)."""
POOL_PARTS = ("rolled", "kept")
"""The two numbers of a dice pool, as the last step of a :class:`NumericField` address (``(..., "damage",
"kept")``): each is a lever of its own (``2k2 -> 2k1``, ``2k2 -> 3k2``), written back into the string."""


def pool_parts(value: str) -> tuple[int, int] | None:
    """``(rolled, kept)`` of a dice pool string (``"0k4"``: ``(0, 4)``), None for any other string."""
    match = DICE_POOL.match(value)
    return (int(match[1]), int(match[2])) if match else None


def file_model(relative: str) -> type[BaseModel]:
    """The pydantic model a shipped data file is validated against."""
    from issoku.rules.breath.content import ContentFile
    from issoku.rules.encounters import content as encounters
    from issoku.rules.ma.content import TerrainModel
    from issoku.rules.tempo.content import ArmourFile, FightersFile, WeaponsFile

    if relative.startswith("breath/data/"):
        return ContentFile
    models: dict[str, type[BaseModel]] = {"ma/terrain.toml": TerrainModel, "tempo/data/weapons.toml": WeaponsFile,
                                          "tempo/data/armour.toml": ArmourFile,
                                          "tempo/data/fighters.toml": FightersFile,
                                          "encounters/data/skills.toml": encounters.SkillsFile,
                                          "encounters/data/weapons.toml": encounters.WeaponsFile,
                                          "encounters/data/armour.toml": encounters.ArmourFile,
                                          "encounters/data/archetypes.toml": encounters.ArchetypesFile}
    if relative not in models:
        raise KeyError(f"{relative!r} is no shipped data file")
    return models[relative]


def _is_number(annotation: Any) -> bool:
    return annotation in (int, float)


def _absent_numbers(model: type[BaseModel], raw: dict, address: tuple[str | int, ...]
                    ) -> Iterator[tuple[tuple[str | int, ...], int | float]]:
    """``(address, schema value)`` of every number the ``model`` would give a field ``raw`` leaves out."""
    for name, info in model.model_fields.items():
        key = info.alias or name
        here = (*address, key)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if LEVER_KEYS in extra:
            fallback, present, keys = raw.get(str(extra[LEVER_DEFAULT])), raw.get(key, {}), extra[LEVER_KEYS]
            if isinstance(fallback, int | float) and isinstance(keys, list):
                yield from (((*here, str(k)), fallback) for k in keys if k not in present)
        elif key not in raw:
            if _is_number(info.annotation) and not info.is_required() and _is_number(type(info.default)):
                yield here, info.default
        else:
            yield from _absent_inner(info.annotation, raw[key], here)


def _absent_inner(annotation: Any, value: Any, address: tuple[str | int, ...]
                  ) -> Iterator[tuple[tuple[str | int, ...], int | float]]:
    origin, args = get_origin(annotation), get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel) and isinstance(value, dict):
        yield from _absent_numbers(annotation, value, address)
    elif origin is list and args and isinstance(value, list):
        for index, entry in enumerate(value):
            yield from _absent_inner(args[0], entry, (*address, index))
    elif origin is dict and len(args) == 2 and isinstance(value, dict):
        for name, entry in value.items():
            yield from _absent_inner(args[1], entry, (*address, name))


def numeric_fields(relative: str, base: Variant | None = None, defaults: bool = False) -> list[NumericField]:
    """Every number (not a boolean) the data file ``relative`` sets (``base``'s copy, default the shipped
    one), in file order: the fields a one-at-a-time sensitivity run (``issoku levers``) nudges. Arrays of
    numbers count one field per entry; a dice pool string (``"2k2"``) counts two, its rolled and its kept dice
    (:data:`POOL_PARTS`). ``defaults``: also every optional number the file leaves at its
    schema value (:class:`NumericField` ``absent``), after the ones it sets."""

    def walk(value: Any, address: tuple[str | int, ...]) -> Iterator[NumericField]:
        if isinstance(value, bool):
            return
        if isinstance(value, int | float):
            yield NumericField(relative, address, value)
        elif isinstance(value, str) and (parts := pool_parts(value)) is not None:
            yield from (NumericField(relative, (*address, part), number) for part, number in zip(POOL_PARTS, parts))
        elif isinstance(value, dict):
            for name, inner in value.items():
                yield from walk(inner, (*address, name))
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                yield from walk(inner, (*address, index))

    raw = read_toml((base or Variant()).path(relative))
    found = list(walk(raw, ()))
    if defaults:
        found += [NumericField(relative, address, value, absent=True)
                  for address, value in _absent_numbers(file_model(relative), raw, ())]
    return found


def write_overrides(folder: Path | str, edits: Sequence[tuple[NumericField, int | float]],
                    base: Variant | None = None) -> Variant:
    """A variant folder: ``base``'s files (default none: the shipped data) with each edited number set, a
    field the file left out added (its tables made where missing)."""
    folder = Path(folder)
    base = base or Variant()
    files = {relative: read_toml(base.path(relative)) for relative in
             sorted(set(base.files) | {number.file for number, _ in edits})}
    for number, value in edits:
        inner: Any = files[number.file]
        address = number.address[:-1] if number.pool_part else number.address
        for step in address[:-1]:
            inner = inner.setdefault(step, {}) if isinstance(inner, dict) else inner[step]
        written: int | float | str = value
        if number.pool_part:  # one half of a dice pool: the string is rewritten with that half changed
            parts = list(pool_parts(str(inner[address[-1]])) or (0, 0))
            parts[POOL_PARTS.index(number.pool_part)] = int(value)
            written = f"{parts[0]}k{parts[1]}"
        inner[address[-1]] = written
    for relative, raw in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(tomli_w.dumps(raw))
    return Variant(folder)


def write_override(folder: Path | str, field: NumericField, value: int | float, base: Variant | None = None) -> Variant:
    """A variant folder holding ``base``'s files (default: the shipped ``field.file``) with that one number set
    to ``value``."""
    return write_overrides(folder, [(field, value)], base)


__all__ = ["Change", "DATA_GLOBS", "DICE_POOL", "NumericField", "POOL_PARTS", "RULES_DIR", "Variant", "data_diff", "data_digest",
           "file_model", "numeric_fields", "pool_parts", "shipped_files", "shown", "write_override", "write_overrides"]
