"""Checkpoints of a self-play run: written atomically, with the metadata that makes them safe to reuse.

A checkpoint is ``<run_dir>/checkpoints/step_<steps>.zip`` (the MaskablePPO model) and a ``.json``
beside it (see :func:`issoku.agents.checkpoint.read_metadata`). Each file is written to a temporary
name and moved into place with ``os.replace``, zip first and JSON last, so a run killed at any moment
(SIGKILL included) leaves only complete checkpoints: one counts only once its JSON exists.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from issoku.agents.checkpoint import metadata_path

CHECKPOINT_DIR = "checkpoints"
LIBRARIES = ("issoku", "numpy", "torch", "gymnasium", "pettingzoo", "stable-baselines3", "sb3-contrib")


def atomic_write(path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write ``path`` through ``write(file)`` into a temporary file, then move it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as file:
        write(file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def atomic_write_json(path: Path, data: Any) -> None:
    """Atomically write ``data`` as indented JSON."""
    atomic_write(path, lambda file: file.write(json.dumps(data, indent=2, sort_keys=True).encode()))


def library_versions() -> dict[str, str]:
    """Versions of Python and the libraries a checkpoint depends on."""
    versions = {"python": platform.python_version()}
    for library in LIBRARIES:
        try:
            versions[library] = importlib.metadata.version(library)
        except importlib.metadata.PackageNotFoundError:
            versions[library] = "not installed"
    return versions


def checkpoint_path(run_dir: str | Path, steps: int) -> Path:
    """Where the checkpoint after ``steps`` learner steps lives."""
    return Path(run_dir) / CHECKPOINT_DIR / f"step_{steps:012d}.zip"


def complete_checkpoints(run_dir: str | Path) -> list[Path]:
    """Checkpoints whose zip and metadata both exist, oldest first."""
    directory = Path(run_dir) / CHECKPOINT_DIR
    return sorted(path for path in directory.glob("step_*.zip") if metadata_path(path).is_file())


def newest_usable_checkpoint(run_dir: str | Path, say: Callable[[str], None] = print) -> Path | None:
    """The newest complete checkpoint whose zip and JSON are both intact, or None.

    A damaged newest one (a disk filled up, a file edited) is skipped for the previous complete one,
    and ``say`` is told which and why, so a resume never dies on, or silently ignores, a broken file.
    """
    from issoku.agents.checkpoint import read_metadata
    from issoku.agents.checkpoint_zip import CheckpointError, verify_zip

    for path in reversed(complete_checkpoints(run_dir)):
        try:
            read_metadata(path)
            verify_zip(path)
            return path
        except CheckpointError as error:
            say(f"skipping damaged checkpoint {path.name}: {error}")
    return None


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    """The newest complete checkpoint of a run, or None."""
    checkpoints = complete_checkpoints(run_dir)
    return checkpoints[-1] if checkpoints else None


def save_checkpoint(model: Any, run_dir: str | Path, *, identity: Mapping[str, Any], config: Mapping[str, Any],
                    pool: list[dict[str, Any]]) -> Path:
    """Save ``model`` and its metadata (identity, config, seed, steps, pool, library versions); return the zip path."""
    steps = int(model.num_timesteps)
    path = checkpoint_path(run_dir, steps)
    atomic_write(path, model.save)
    metadata = {
        **identity,
        "steps": steps,
        "seed": config["seed"],
        "config": dict(config),
        "pool": pool,
        "library_versions": library_versions(),
        "saved_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    atomic_write_json(metadata_path(path), metadata)
    return path
