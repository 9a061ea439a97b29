"""The one bad-input policy of every ``issoku`` command: one line naming the file or option, the field
and why, exit status 2, nothing written or played.

Commands validate everything before they write or play (files are read and names resolved first);
whatever is still wrong surfaces as one of :data:`BAD_INPUT`'s exceptions, whose message names what
is wrong. :func:`one_line_errors` turns those into the one line; any other exception is a bug and
keeps its traceback. :func:`bounded` checks a numeric option against its bounds, so ``--games 0`` or
``--workers -1`` is refused up front instead of playing nothing (or everything) and saying it succeeded.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BAD_INPUT: tuple[type[BaseException], ...] = (ValueError, KeyError, OSError, sqlite3.DatabaseError)
"""What a bad input raises: ValueError (DataError, pydantic's ValidationError, ConfigError, CheckpointError,
ImportRefusedError...), KeyError (UnknownNameError), OSError (a directory or unreadable file), SQLite errors
(a corrupt, foreign, read-only or locked store)."""

MAX_GAMES = 10_000_000
"""Largest game (or duel, or resample) count a command accepts: a typo of extra zeros is refused, not run for days."""


MAX_SEED = 2**31 - 1
"""Largest seed a command or file accepts: derived seeds (a game's, a worker's, a best response's) add offsets to it
and must still fit NumPy's 32-bit seeding and a SQLite integer; a seed of 2^63 used to fail after the store was made."""


class BadInput(ValueError):
    """An option outside its bounds (or otherwise unusable), named in the message."""


def one_line(error: BaseException) -> str:
    """The error's message on one line (a multi-line message's lines joined by ``; ``)."""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        text = f"{error.filename}: {error.strerror}"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    joined = ""
    for n, line in enumerate(lines):  # a heading line ending in ':' runs on into its first item
        joined += line if n == 0 else (" " if lines[n - 1].endswith(":") else "; ") + line
    return joined or type(error).__name__


@contextmanager
def one_line_errors(command: str, also: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """Answer a bad input inside the block with ``<command>: <why>`` on stderr and exit status 2.

    ``also``: further exception types that mean a bad input there (TypeError where a file's keyword
    arguments are passed to an env factory).
    """
    import typer  # here, so the layers can share the bounds above without loading the CLI library

    try:
        yield
    except BAD_INPUT + also as error:
        message = one_line(error)  # a message already naming the command keeps one prefix
        typer.echo(message if message.startswith(f"{command}: ") else f"{command}: {message}", err=True)
        raise typer.Exit(2) from None


def bounded(option: str, value: float | None, low: float | None = None, high: float | None = None) -> None:
    """Refuse ``value`` of ``option`` outside ``[low, high]`` (or not a finite number); None passes (a default)."""
    if value is None:
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise BadInput(f"{option} must be a finite number, not {value}")
    if low is not None and value < low:
        raise BadInput(f"{option} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise BadInput(f"{option} must be at most {high:,}, not {value:,}")


def check_output_dir(option: str, path: Path | None) -> None:
    """Refuse an output folder that is an existing file, or one that cannot be made or written (before anything is
    played into it: an unwritable ``--out`` used to fail after the games)."""
    if path is not None and path.exists() and not path.is_dir():
        raise BadInput(f"{option} {path}: is a file, not a folder")
    if path is not None:
        _check_writable(option, path, path)


def _check_writable(option: str, path: Path, folder: Path) -> None:
    """Refuse ``path`` unless a folder can be made in the nearest existing folder at or above ``folder`` (made and
    removed at once: nothing is left)."""
    import os
    import tempfile

    existing = folder.absolute()
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise BadInput(f"{option} {path}: {existing} is a file, not a folder")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".issoku-probe-", dir=existing))
    except OSError as error:
        raise BadInput(f"{option} {path}: cannot write in {existing} ({error.strerror})") from None


MAX_JSON_BYTES = 64 << 20
"""Largest JSON file issoku reads (checkpoint metadata, ``hunt.json``, ``ladder.json``, manifests): 64 MiB."""


def read_json(path: Path, max_bytes: int = MAX_JSON_BYTES) -> object:
    """A JSON file's value within the limits (size, UTF-8, nesting: :func:`~issoku.rules.kernel.content.parse_data_text`);
    any problem is a ValueError naming the file (a ``RecursionError`` never escapes)."""
    import json

    from issoku.rules.kernel.content import parse_data_text, read_data_bytes

    try:
        return parse_data_text(read_data_bytes(path, max_bytes), json.loads, max_bytes)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def check_input_file(path: Path, name: str) -> None:
    """Refuse an input file that is not there as ``<name>: no such file`` (a typo, not bad data); ``name`` is
    the argument, with the path where the command's prefix does not already say it."""
    if not path.exists():
        raise BadInput(f"{name}: no such file")


def check_output_file(option: str, path: Path | None) -> None:
    """Refuse an output file that is an existing folder, or under a path that is a file."""
    if path is None:
        return
    if path.is_dir():
        raise BadInput(f"{option} {path}: is a folder, not a file")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise BadInput(f"{option} {path}: {parent} is a file, not a folder")
    _check_writable(option, path, path.parent)
