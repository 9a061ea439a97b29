"""Which build of issoku a run measured: pure Python (the default install) or with modules compiled by mypyc
(``ISSOKU_COMPILE=1``, scripts/compiled_venv.sh). The two play the same games at different speeds, so every run
names its build in its header and JSON, and results of the two are never mistaken for each other."""

from __future__ import annotations

import importlib.machinery
import sys

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """The loaded ``issoku`` modules that are compiled extensions (call it after the subjects are built, so that
    every measured module is loaded)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("issoku.") and str(getattr(module, "__file__", "") or "").endswith(EXTENSIONS))


def describe(compiled: list[str]) -> str:
    """One line: ``pure Python`` or ``mypyc-compiled: N issoku modules``."""
    return f"mypyc-compiled: {len(compiled)} issoku modules" if compiled else "pure Python"
