"""The rules data an env loads: three keywords, ``data``, ``variant`` and ``terrain``, with one meaning in every env.

Every env (and its ``make_ruleset``) takes them, keyword-only, and hands them to :func:`choose_content`, the one
place they are checked:

``data``
    a file or folder, or a list of them, replacing the shipped data of the env's rules system (breath: content
    TOML files or folders; tempo and encounters: one folder holding that system's files by their shipped names).
``variant``
    a rules variant folder (:mod:`issoku.rules.variant`): edited copies of files under ``rules/``, laid over the
    shipped data. A variant edits the shipped data, not a ``data`` folder, so the two do not combine.
``terrain``
    the Ma duel's terrain file (only ``breath_duel_v0`` with the Ma module reads one); a variant carries its own.

Why one place: the envs each grew their own reading and drifted (the tempo envs took ``data`` with ``variant``
while the breath and encounter envs refused them together; ``terrain`` given to an env without terrain was a
TypeError from deep inside the adapter). A bad value is a :class:`ContentOptionError`, a ValueError whose one line
names the env, the keyword and why: what the commands' bad-input policy prints (exit 2). The store key leaves these
keywords out (:func:`issoku.evaluation.games.records.match_key`), as the rules fingerprint is a digest of the bytes
they load.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from issoku.rules.variant import Variant, data_digest

CONTENT_KEYWORDS = ("variant", "data", "terrain")
"""The env keywords that choose rules data (every issoku env takes them): paths to data files or a variant folder."""

PathLike = Path | str
DataPaths = PathLike | Sequence[PathLike]


class ContentOptionError(ValueError):
    """A content keyword an env cannot take (its message: the env, the keyword, why)."""


@dataclass(frozen=True)
class ContentChoice:
    """The content keywords of one env, checked and as plain strings (hashable: rulesets are cached on them)."""

    env_id: str
    data: tuple[str, ...] | None = None
    variant: str | None = None
    terrain: str | None = None

    def overlay(self) -> Variant | None:
        """The variant folder as a :class:`Variant` (its files checked: a bad folder is a DataError), or None."""
        return None if self.variant is None else Variant(self.variant)

    def folder(self, files: str) -> str | None:
        """The one data folder of a system that reads its ``files`` by name from a folder (tempo, encounters);
        None for the shipped one."""
        if self.data is None:
            return None
        if len(self.data) != 1:
            raise ContentOptionError(f"{self.env_id}: data must be one folder holding {files}, "
                                     f"not {len(self.data)} paths")
        return self.data[0]


def choose_content(env_id: str, data: DataPaths | None = None, variant: PathLike | None = None,
                   terrain: PathLike | None = None, *, reads_terrain: bool = False) -> ContentChoice:
    """The content keywords ``env_id`` was given, checked (``reads_terrain``: whether its rules read a terrain
    file); :class:`ContentOptionError` names the keyword and why."""
    if data is not None and variant is not None:
        raise ContentOptionError(f"{env_id}: data and variant given together; a variant is laid over the shipped "
                                 "data, so give one or the other")
    if terrain is not None and not reads_terrain:
        raise ContentOptionError(f"{env_id}: terrain is read by the Ma duel only (breath_duel_v0 with ma=True); "
                                 f"these rules have no terrain")
    if terrain is not None and variant is not None:
        raise ContentOptionError(f"{env_id}: terrain and variant given together; a variant carries its own "
                                 "ma/terrain.toml, so give one or the other")
    return ContentChoice(env_id, _data_paths(env_id, data), _path(env_id, "variant", variant),
                         _path(env_id, "terrain", terrain))


def _data_paths(env_id: str, data: DataPaths | None) -> tuple[str, ...] | None:
    if data is None:
        return None
    paths = [data] if isinstance(data, (str, Path)) else data
    if not isinstance(paths, Sequence) or not paths or not all(isinstance(p, (str, Path)) for p in paths):
        raise ContentOptionError(f"{env_id}: data must be a file or folder path or a non-empty list of them, "
                                 f"not {data!r}")
    return tuple(str(path) for path in paths)


def _path(env_id: str, keyword: str, value: PathLike | None) -> str | None:
    if value is None:
        return None
    if not isinstance(value, (str, Path)):
        raise ContentOptionError(f"{env_id}: {keyword} must be a path, not {value!r}")
    return str(value)


@dataclass(frozen=True)
class FolderRules:
    """A rules system that reads its data files by name from one folder (tempo, encounters), as its env modules
    build it: ``load(folder, overrides)`` loads them (``overrides``: a variant's copies by file name, from
    ``variant_files``) and the ruleset takes the result as its ``keyword`` argument."""

    files: str
    """The files' names, for a message (``weapons.toml, armour.toml and fighters.toml``)."""
    data_dir: Path
    """The shipped folder."""
    load: Callable[[Path | str, Mapping[str, Path]], Any]
    keyword: str
    variant_files: Callable[[Variant], dict[str, Path]]


Rules = TypeVar("Rules")


def folder_ruleset(kind: Callable[..., Rules], config: Any, content: ContentChoice, system: FolderRules) -> Rules:
    """The ruleset ``kind(config, <system.keyword>=loaded data)`` on the data ``content`` chooses for ``system``
    (one data folder, or the shipped one with a variant's files), shared by every env built alike while those
    files' bytes stay the same. ``config``: ``kind``'s own (a duel's or a skirmish's config)."""
    folder = content.folder(system.files)
    overlay = content.overlay()
    overrides = tuple(system.variant_files(overlay).items()) if overlay is not None else ()
    return _cached_folder_ruleset(kind, config, system, folder, overrides,
                                  data_digest(folder, *(path for _, path in overrides)))


@lru_cache(maxsize=64)
def _cached_folder_ruleset(kind: Callable[..., Rules], config: Any, system: FolderRules, folder: str | None,
                           overrides: tuple[tuple[str, Path], ...], digest: str) -> Rules:
    """Rulesets are immutable, so vectorised envs share one instead of each loading the content; ``digest``: the
    bytes of the data files (:func:`~issoku.rules.variant.data_digest`), so an edited file builds a new ruleset."""
    loaded = system.load(system.data_dir if folder is None else folder, dict(overrides))
    return kind(config, **{system.keyword: loaded})
