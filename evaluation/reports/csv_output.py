"""CSV files that a designer opens in a spreadsheet: every cell reads as the text or number it holds, never as a
formula.

Names in these files come from data files, studies, variants and stores that someone else may have written. A
spreadsheet treats a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return before one) as
a formula, which can fetch a URL or run a command when the file is opened. OWASP's CSV-injection guidance is the
fix used here: such a text cell gets a leading ``'``, which spreadsheets show as text; a cell that is a number
(``-0.25``) is left as it is.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection)."""


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a cell no spreadsheet evaluates: a text that would start a formula gets a leading ``'``; numbers,
    and texts that are numbers, are kept."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """Write ``header`` and ``rows`` to ``path``, every cell through :func:`spreadsheet_cell`."""
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return path
