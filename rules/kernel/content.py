"""Loading validated content data (weapons, armor, archetypes, terrain, ...) from TOML files.

Content is data a designer edits and passes on the command line. A bad file must fail before any
fight starts, with the file, the field and the reason: :func:`load_model` turns pydantic's
validation errors into one :class:`DataError` that says exactly that.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

Model = TypeVar("Model", bound=BaseModel)
Loaded = TypeVar("Loaded")


MISSING_FILE, NO_SUCH_FILE = "(file)", "no such file"
"""The one problem of a data file that is not there."""

LEVER_KEYS, LEVER_DEFAULT = "lever_keys", "lever_default"
"""``json_schema_extra`` keys of a ``dict[str, int]`` schema field whose absent keys are numbers too (so
``issoku levers --defaults`` can nudge them): the keys it may hold, and the sibling field whose value an
absent key takes (tempo's ``ap_by_action``: an action left out costs the weapon's ``ap``)."""


class DataError(ValueError):
    """A content file is unreadable or invalid. ``problems`` lists ``(field, reason)`` pairs."""

    def __init__(self, path: Path | str, problems: list[tuple[str, str]]) -> None:
        self.path = Path(path)
        self.problems = problems
        if problems == [(MISSING_FILE, NO_SUCH_FILE)]:  # a typo in a path, not bad data: say only that
            super().__init__(f"{self.path}: {NO_SUCH_FILE}")
            return
        lines = "\n".join(f"  {field}: {reason}" for field, reason in problems)
        super().__init__(f"invalid rules data in {self.path}:\n{lines}")


def _field_path(loc: tuple[object, ...]) -> str:
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


MAX_DATA_BYTES = 1 << 20
"""Largest TOML file issoku reads (rules data, variants, studies, suites, configs, scenarios): 1 MiB, over a hundred
times the largest shipped one. A larger file is refused before it is parsed (a 6.5 MB variant took 97 s and 1.6 GB)."""
MAX_NESTING = 32
"""Deepest nesting of tables and arrays a TOML or JSON file may have (the shipped files nest at most 5 deep); deeper
nesting is refused, never a ``RecursionError``."""


def nesting_depth(value: object) -> int:
    """How deeply ``value``'s dicts and lists nest (a scalar: 0), counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


MAX_ENTRIES = 1_000
"""Most entries one table or array of a TOML file may hold (rules data, variants, studies, suites, configs,
scenarios): over 30 times the largest shipped one (the 30 spells of ``spells/data/spells.toml``). A variant of
thousands of weapons fits in 1 MiB and would be played, levered and reported entry by entry; it is refused first."""


class TooManyEntries(ValueError):
    """A table or array of a data file holds more than :data:`MAX_ENTRIES` entries; ``field`` is its path."""

    def __init__(self, field: str, count: int) -> None:
        self.field = field
        super().__init__(f"{count:,} entries, more than the {MAX_ENTRIES:,} a table or array of a data file may hold")


def check_entries(value: object) -> None:
    """Raise :class:`TooManyEntries` for the first table or array of ``value`` (walked without recursion) that holds
    more than :data:`MAX_ENTRIES` entries, naming its path (``weapon``, ``weapon[3].technique``)."""
    stack: list[tuple[object, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            children = [(child, f"{where}.{key}" if where else str(key)) for key, child in item.items()]
        elif isinstance(item, list):
            children = [(child, f"{where}[{index}]") for index, child in enumerate(item)]
        else:
            continue
        if len(children) > MAX_ENTRIES:
            raise TooManyEntries(where or "(top level)", len(children))
        stack.extend(children)


def parse_data_text(raw: bytes, parse: Callable[[str], Loaded], max_bytes: int = MAX_DATA_BYTES) -> Loaded:
    """``parse(text)`` of a data file's bytes within the limits; a ValueError saying why (the caller names the file):
    larger than ``max_bytes``, not UTF-8, a syntax error, or nested deeper than :data:`MAX_NESTING`. The entry count
    (:func:`check_entries`) is the TOML readers' check: a JSON file issoku wrote (a checkpoint's pool scores) may
    hold more."""
    if len(raw) > max_bytes:
        raise ValueError(f"{len(raw):,} bytes, more than the {max_bytes:,} a data file may have")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte {error.start})") from None
    try:
        parsed = parse(text)
    except RecursionError:
        raise ValueError(f"nested more than {MAX_NESTING} levels deep") from None
    if nesting_depth(parsed) > MAX_NESTING:
        raise ValueError(f"nested more than {MAX_NESTING} levels deep")
    return parsed


def read_data_bytes(path: Path, max_bytes: int = MAX_DATA_BYTES) -> bytes:
    """A data file's bytes, refused (ValueError) when larger than ``max_bytes`` before it is read whole."""
    with path.open("rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ValueError(f"more than the {max_bytes:,} bytes a data file may have")
    return raw


def read_toml(path: Path | str) -> dict:
    """Parse a TOML file within the limits (:data:`MAX_DATA_BYTES`, UTF-8, :data:`MAX_NESTING`, :data:`MAX_ENTRIES`),
    reporting any problem as a :class:`DataError` on that file (the entry count naming its table or array)."""
    path = Path(path)
    try:
        parsed = parse_data_text(read_data_bytes(path), tomllib.loads)
        check_entries(parsed)
        return parsed
    except TooManyEntries as error:
        raise DataError(path, [(error.field, str(error))]) from None
    except FileNotFoundError:
        raise DataError(path, [(MISSING_FILE, NO_SUCH_FILE)]) from None
    except ValueError as error:  # tomllib.TOMLDecodeError is one
        raise DataError(path, [("(syntax)" if isinstance(error, tomllib.TOMLDecodeError) else "(file)", str(error))]) \
            from None


def validate(path: Path | str, raw: object, model: type[Model]) -> Model:
    """Validate already-parsed data against ``model``, naming ``path`` in any error."""
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        problems = [(_field_path(tuple(e["loc"])), e["msg"]) for e in error.errors()]
        raise DataError(path, problems) from None


def load_model(path: Path | str, model: type[Model]) -> Model:
    """Read a TOML file and validate it against a pydantic model."""
    return validate(path, read_toml(path), model)


def overlaid(data_dir: Path | str, names: Sequence[str], files: Mapping[str, Path] | None = None) -> list[Path]:
    """The path of each file ``names`` lists: ``files``' copy where it has one (a rules variant's edited files, by
    file name), else the one in ``data_dir``. Why: a variant that edits one file of a system keeps the others
    shipped, so every loader that takes a variant resolves its files the same way."""
    data_dir, files = Path(data_dir), files or {}
    return [Path(files.get(name, data_dir / name)) for name in names]


def file_digest(*paths: Path | str) -> str:
    """A short SHA-256 over the files' bytes, in the order given (the rules-data hash)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


class ContentCache(Generic[Loaded]):
    """Content loaded from data files, kept by the files' paths and bytes (the ``size`` latest sets).

    Why: a lever sweep or a variant study builds a ruleset for every loadout of every rules version, hundreds
    of them over the same dozen files, and parsing and validating the TOML was most of that work (81 of the
    136 s of ruleset building in a 78-lever sweep under cProfile). The key is the bytes, not a modification
    time, so a file rewritten within the file system's timestamp resolution is read again. A load that fails
    is not kept (its error is raised each time), nor one whose files changed while it read them. The content
    loaded is frozen (catalogs, rosters), so every ruleset built on the same bytes may share one.
    """

    def __init__(self, load: Callable[[tuple[Path, ...]], Loaded], size: int = 64) -> None:
        self._load = load
        self._size = size
        self._kept: OrderedDict[tuple[tuple[str, bytes], ...], Loaded] = OrderedDict()

    def __call__(self, paths: Sequence[Path]) -> Loaded:
        """The content of ``paths`` (in that order), loaded once per set of bytes."""
        paths = tuple(paths)
        key = _content_key(paths)
        if key is None:  # a file that cannot be read: the loader says which, as always
            return self._load(paths)
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found
        loaded = self._load(paths)
        if _content_key(paths) == key:
            self._kept[key] = loaded
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return loaded


def _content_key(paths: Sequence[Path]) -> tuple[tuple[str, bytes], ...] | None:
    try:
        return tuple((str(path), hashlib.sha256(path.read_bytes()).digest()) for path in paths)
    except OSError:
        return None
