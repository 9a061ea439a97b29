"""PettingZoo's classic board games, the peers issoku's envs are measured against.

The classic envs import pygame at module level only to render; where pygame is not installed (it is
not a dependency of issoku) an empty stand-in module lets them import, and they run unrendered.
"""

from __future__ import annotations

import sys
import types
import warnings
from typing import Any

from issoku.envs.registry import resolve_env

CLASSIC_IDS = ("connect_four_v3", "tictactoe_v3")


def allow_classic_import() -> None:
    """Make ``pettingzoo.classic`` importable without pygame (a stand-in module, never called)."""
    try:
        import pygame  # noqa: F401
    except ImportError:
        sys.modules.setdefault("pygame", types.ModuleType("pygame"))


def classic_env(env_id: str) -> Any:
    """A new ``pettingzoo.classic.<env_id>`` env, with its standard wrappers, as users make it."""
    allow_classic_import()
    with warnings.catch_warnings():  # PettingZoo's notice that env() will give way to a registry one day
        warnings.simplefilter("ignore", DeprecationWarning)
        return resolve_env(env_id)()
