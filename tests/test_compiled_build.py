"""The compiled build (``ISSOKU_COMPILE=1``, scripts/compiled_venv.sh) against the checkout it was built from.

Run with the compiled venv's Python: scripts/compiled_check.sh runs this file beside the golden event logs,
observation digests, playthroughs and scenario replays, which then show that the compiled modules play byte for
byte as the Python ones. In the normal suite issoku is pure Python and this file skips, saying so: a compile takes
minutes and is no part of the suite.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

import pytest

import issoku

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = Path(issoku.__file__).resolve().parent


def _compiled_files() -> list[Path]:
    return sorted(path for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in INSTALLED.rglob(f"*{suffix}"))


@pytest.fixture(scope="module")
def compiled() -> list[Path]:
    found = _compiled_files()
    if not found:
        pytest.skip(f"pure-Python issoku ({INSTALLED}): build the compiled one with scripts/compiled_venv.sh, then "
                    "run scripts/compiled_check.sh")
    return found


def test_the_compiled_modules_were_built_from_this_checkout(compiled):
    """An install is a copy: after an edit to a compiled module it is stale until rebuilt (the .py beside each
    extension is the source it was compiled from)."""
    sources = [path.with_name(path.name.split(".")[0] + ".py") for path in compiled]
    checkout = [ROOT / source.relative_to(INSTALLED) for source in sources]
    stale = [str(mine.relative_to(ROOT)) for source, mine in zip(sources, checkout)
             if not mine.is_file() or source.read_bytes() != mine.read_bytes()]
    assert not stale, f"stale compiled modules, rebuild with scripts/compiled_venv.sh: {stale}"


def test_the_engines_run_compiled(compiled):
    """The modules the benchmark times are the compiled ones, not their .py copies."""
    from issoku.rules.breath import engine
    from issoku.rules.encounters import skirmish_state
    from issoku.rules.encounters import state as encounter_state
    from issoku.rules.tempo import state

    for module in (engine, state, encounter_state, skirmish_state):
        assert not module.__file__.endswith(".py"), module.__file__
