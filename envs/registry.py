"""Env ids -> env factories, by import path, so that a new env registers with one line.

A factory is a callable ``env(**kwargs) -> RulesetAECEnv``; its keyword arguments are the ruleset's
(fighters, options...) plus the adapter's (``render_mode``, ``illegal_action``, ``illegal_reward``,
``record_events``). Factories are named by ``"module:attribute"`` strings and imported only when an
env is made, so listing ids costs nothing and a missing optional module fails only when asked for.

To add an env: ``ENV_FACTORIES["my_duel_v0"] = "issoku.envs.my_duel_v0:env"`` below (or
:func:`register_env` at run time, e.g. from a test).
"""

from __future__ import annotations

import importlib
from typing import Any

ENV_FACTORIES: dict[str, str] = {
    "breath_duel_v0": "issoku.envs.breath_duel_v0:env",
    "breath_skirmish_v0": "issoku.envs.breath_skirmish_v0:env",
    "tempo_duel_v0": "issoku.envs.tempo_duel_v0:env",
    "encounter_duel_v0": "issoku.envs.encounter_duel_v0:env",
}


class UnknownNameError(KeyError):
    """An env id or policy name that no registry lists."""

    def __init__(self, what: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {what} {name!r}; known: {', '.join(known) or '(none)'}")

    def __str__(self) -> str:
        return str(self.args[0])


def check_import_path(path: str) -> str:
    """``path`` itself if it looks like ``"package.module:attribute"``; ValueError otherwise."""
    module_name, sep, attribute = path.partition(":")
    if not (module_name and sep and attribute):
        raise ValueError(f"import path must look like 'package.module:attribute', not {path!r}")
    return path


def import_object(path: str) -> Any:
    """The object a ``"package.module:attribute"`` string names."""
    module_name, _, attribute = check_import_path(path).partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def register_env(env_id: str, factory_path: str) -> None:
    """Register (or replace) an env factory under ``env_id``."""
    ENV_FACTORIES[env_id] = check_import_path(factory_path)


def env_ids() -> list[str]:
    """Every registered env id, sorted."""
    return sorted(ENV_FACTORIES)


def make_env(env_id: str, **kwargs: Any):
    """A new env of id ``env_id`` built with ``kwargs``."""
    try:
        path = ENV_FACTORIES[env_id]
    except KeyError:
        raise UnknownNameError("env id", env_id, env_ids()) from None
    return import_object(path)(**kwargs)
