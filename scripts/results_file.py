"""The command line every docs/results/ writer shares: one count option, ``--out`` (``-`` prints), and the file's
head line (date, machine, command and code: ``results_header``) above the table the script measures."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from issoku.evaluation.strength.skill_ladder import results_header


def write_results(argv: list[str] | None, doc: str, script: str, out: Path, count: str, default: int, minimum: int,
                  help_text: str, table: Callable[[int], str]) -> None:
    """Parse ``--<count> N --out PATH``, then write (or print) the head line and ``table(N)``; a count under
    ``minimum`` is one line naming the option, exit status 2."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(f"--{count}", type=int, default=default, help=help_text)
    parser.add_argument("--out", default=str(out), help=f"Where to write (default {out}; - prints).")
    args = parser.parse_args(argv)
    value = getattr(args, count)
    if value < minimum:
        parser.error(f"--{count} must be at least {minimum}")
    command = f"python scripts/{script}" + (f" --{count} {value}" if value != default else "")
    text = results_header(command) + "\n" + table(value)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
