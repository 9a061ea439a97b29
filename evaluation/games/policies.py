"""What a user types to name a policy -> a :class:`PolicySpec` a tournament (and its worker processes) can use.

One parser for study files, ``balance-report -p`` and ``issoku benchmark``:

* ``ma_heuristic`` — a registered policy (``issoku.agents.registry``);
* ``path/to/model.zip`` — a trained checkpoint (with its ``.json`` metadata), named by its file stem
  and fingerprinted by its bytes, so a retrained file never reuses old games;
* ``shipped:breath_duel_v0`` — the checkpoint shipped with issoku for that env (``agents/shipped/<env>.zip``,
  wherever issoku is installed), named by the env id;
* ``per_loadout:DIR`` — a loadout grid's learned field: each seat played by the checkpoint ``DIR/<label>.zip``
  of the loadout label it fields (``issoku finetune-loadouts`` writes them), named by the folder's name and
  fingerprinted by all its checkpoints;
* ``package.module:attribute`` — a policy factory (a class, or a callable taking ``seed``), else a
  plain policy callable ``(observation, mask) -> action`` (the same object plays every game, so it
  must keep no state between games);
* ``name=<any of the above>`` — the same under another name.
"""

from __future__ import annotations

import copy
import functools
import inspect
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from issoku.evaluation.games.tournament import PolicySpec
from issoku.rules.kernel.content import file_digest
from issoku.common.backend import SHIPPED

SHIPPED_PREFIX = "shipped:"
"""A policy entry naming a checkpoint shipped inside the package: ``shipped:<env id>``."""
PER_LOADOUT_PREFIX = "per_loadout:"
"""A policy entry naming a folder of per-loadout checkpoints: ``per_loadout:<folder>``."""
SHIPPED_DIR = Path(__file__).resolve().parents[2] / "agents" / "shipped"
"""Where the shipped checkpoints live (``issoku/agents/shipped/<env id>.zip`` and ``.json``; the wheel ships them)."""


def shipped_checkpoints() -> dict[str, Path]:
    """Every shipped checkpoint by env id."""
    return {path.stem: path for path in sorted(SHIPPED_DIR.glob("*.zip"))}


def expand_shipped(entry: str) -> str:
    """``[name=]shipped:<env id>`` as ``<name or env id>=<path of the shipped checkpoint>``; any other entry as it is.

    Study files and commands name a shipped agent this way, so the default studies find it whatever
    the working directory and wherever issoku is installed.
    """
    name, sep, target = entry.partition("=")
    if not sep:
        name, target = "", entry
    if not target.startswith(SHIPPED_PREFIX):
        return entry
    env_id = target[len(SHIPPED_PREFIX):]
    shipped = shipped_checkpoints()
    if env_id not in shipped:
        raise ValueError(f"no shipped checkpoint {target!r} (shipped: {', '.join(SHIPPED_PREFIX + n for n in shipped)})")
    return f"{name or env_id}={shipped[env_id]}"


@functools.lru_cache(maxsize=8)
def _loaded_checkpoint(path: str) -> Any:
    """A checkpoint loaded once per process (loading costs far more than a game; files are never rewritten in place)."""
    from issoku.agents.checkpoint import CheckpointPolicy

    return CheckpointPolicy(path)


@dataclass(frozen=True)
class CheckpointFactory:
    """A picklable policy factory for a trained checkpoint.

    Each game gets its own policy object with its own seeded generator, sharing the network loaded
    once per process (read-only, in evaluation mode).
    """

    path: str = field(metadata=SHIPPED)

    def __call__(self, seed: int | None = None) -> Any:
        policy = copy.copy(_loaded_checkpoint(self.path))
        policy.seed(seed)
        return policy


@dataclass(frozen=True)
class PerLoadoutFactory:
    """A picklable policy factory playing each seat with the checkpoint of the loadout label that seat fields."""

    labels: tuple[str, ...]
    paths: tuple[str, ...] = field(metadata=SHIPPED)

    def __call__(self, seed: int | None = None, seat_label: str = "") -> Any:
        folder = Path(self.paths[0]).parent
        if not seat_label:
            raise ValueError(f"{PER_LOADOUT_PREFIX}{folder} plays only loadouts whose seats are labelled (a study's "
                             "loadout_grid); these games label none")
        if seat_label not in self.labels:
            raise ValueError(f"no fine-tuned checkpoint {folder / seat_label}.zip for loadout "
                             f"{seat_label!r} (issoku finetune-loadouts writes one per label of the study's grid)")
        return CheckpointFactory(self.paths[self.labels.index(seat_label)])(seed)


def per_loadout_policy(name: str, folder: str, where: str) -> PolicySpec:
    """The :class:`PolicySpec` of ``per_loadout:<folder>``: its ``<label>.zip`` checkpoints, one per loadout label."""
    paths = sorted(path for path in Path(folder).glob("*.zip") if not path.name.endswith(".partial.zip"))
    if not paths:
        raise ValueError(f"{where}: no checkpoints in {folder} (issoku finetune-loadouts writes them)")
    return PolicySpec(name or Path(folder).name, PerLoadoutFactory(tuple(p.stem for p in paths), tuple(map(str, paths))),
                      file_digest(*paths))


@dataclass(frozen=True)
class FixedCallable:
    """A picklable factory returning the plain policy callable an import path names."""

    path: str

    def __call__(self, seed: int | None = None) -> Any:
        from issoku.envs.registry import import_object

        return import_object(self.path)


def resolve_policy(entry: str, *, allow_imports: bool = True, where: str = "policy") -> PolicySpec:
    """The :class:`PolicySpec` of a policy as a user names it (see the module docstring).

    Names and import paths go through the one policy resolver,
    :func:`issoku.agents.registry.resolve_policy_factory`: an entry read from a file passes
    ``allow_imports=False`` unless the user gave ``--allow-imports``.
    """
    from issoku.agents.registry import resolve_policy_factory

    name, sep, target = expand_shipped(entry).partition("=")
    if not sep:
        target = entry
        name = Path(entry).stem if entry.endswith(".zip") else entry.rpartition(":")[2]
    if target.startswith(PER_LOADOUT_PREFIX):
        return per_loadout_policy(name if sep else "", target[len(PER_LOADOUT_PREFIX):], where)
    if target.endswith(".zip"):
        if not Path(target).is_file():
            raise ValueError(f"{where}: no checkpoint file at {target}")
        return PolicySpec(name, CheckpointFactory(target), file_digest(target))
    obj = resolve_policy_factory(target, allow_imports=allow_imports, where=where)
    takes_seed = inspect.isclass(obj) or "seed" in inspect.signature(obj).parameters
    return PolicySpec(name, obj if takes_seed else FixedCallable(target), code_fingerprint(obj))


def code_fingerprint(obj: Any) -> str:
    """A digest of the source files defining ``obj`` (:func:`fingerprinted_files`).

    Part of every match key, so editing a scripted agent never reuses the games of its old version
    (and a benchmark suite can tell that its references changed since calibration).
    """
    files = fingerprinted_files(obj)
    return file_digest(*files) if files else ""


def fingerprinted_files(obj: Any) -> list[str]:
    """The source files :func:`code_fingerprint` reads for ``obj``: its module, its base classes' modules, and the
    modules of its package those import from (a scripted duelist built on another agent's module), sorted."""
    classes = inspect.getmro(obj) if inspect.isclass(obj) else (obj,)
    modules = [sys.modules[item.__module__] for item in classes if item.__module__ in sys.modules]
    package = obj.__module__.rpartition(".")[0]
    for module in list(modules):
        for value in vars(module).values():
            name = value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", None)
            if isinstance(name, str) and package and name.startswith(package + ".") and name in sys.modules:
                modules.append(sys.modules[name])
    files = (getattr(module, "__file__", None) for module in modules)
    return sorted({file for file in files if isinstance(file, str) and file})
