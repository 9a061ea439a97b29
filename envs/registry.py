"""Env ids -> env factories, by import path, so that a new env registers with one line.

A factory is a callable ``env(**kwargs) -> RulesetAECEnv``; its keyword arguments are the ruleset's
(fighters, options...) plus the adapter's (``render_mode``, ``illegal_action``, ``illegal_reward``,
``record_events``, ``round_limit_payoff``). Factories are named by ``"module:attribute"`` strings and imported
only when an env is made, so listing ids costs nothing and a missing optional module fails only when asked for.

To add an env: ``ENV_FACTORIES["my_duel_v0"] = "issoku.envs.my_duel_v0:env"`` below (or
:func:`register_env` at run time, e.g. from a test).

:func:`resolve_env` is the one resolver of env ids, used by every command: a registered id, a
PettingZoo classic id (``connect_four_v3``), or an import path ``package.module:factory``. An import
path runs code, so a name read from a file (a study, a suite, a training config, a checkpoint's
metadata, a scenario) may be one only when the user passes ``--allow-imports``: a file someone sent
you must not be able to run ``os:system``. What a user types on the command line stays allowed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

ENV_FACTORIES: dict[str, str] = {
    "breath_duel_v0": "issoku.envs.breath_duel_v0:env",
    "breath_skirmish_v0": "issoku.envs.breath_skirmish_v0:env",
    "tempo_duel_v0": "issoku.envs.tempo_duel_v0:env",
    "tempo_skirmish_v0": "issoku.envs.tempo_skirmish_v0:env",
    "encounter_duel_v0": "issoku.envs.encounter_duel_v0:env",
    "encounter_skirmish_v0": "issoku.envs.encounter_skirmish_v0:env",
}


class UnknownNameError(KeyError):
    """An env id or policy name that no registry lists."""

    def __init__(self, what: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {what} {name!r}; known: {', '.join(known) or '(none)'}")

    def __str__(self) -> str:
        return str(self.args[0])


FOREIGN_PACKAGE = "pettingzoo.classic"
"""Where env ids that issoku does not register are looked up (``connect_four_v3`` is ``pettingzoo.classic.connect_four_v3:env``)."""


class ImportRefusedError(ValueError):
    """An import path read from a file, without ``--allow-imports``."""


def is_import_path(name: str) -> bool:
    """Whether ``name`` is written ``package.module:attribute`` (rather than a registered name)."""
    return ":" in name


def refuse_imports(named: Iterable[tuple[str, str]], where: str, *, allow_imports: bool) -> None:
    """Refuse the import paths among ``(field, value)`` pairs read from ``where`` unless ``allow_imports``."""
    if allow_imports:
        return
    for field, value in named:
        if isinstance(value, str) and is_import_path(value):
            raise ImportRefusedError(
                f"{where}: {field} {value!r} is an import path, which would run code named by a file; a file may "
                "name registered envs and policies only (pass --allow-imports if you trust it)")


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


def resolve_env(env_id: str, *, allow_imports: bool = True, where: str = "env") -> Callable[..., Any]:
    """The factory of ``env_id``: registered, PettingZoo classic, or (if ``allow_imports``) an import path.

    Raises :class:`UnknownNameError` or :class:`ImportRefusedError` (``where`` names the file or option).
    """
    if env_id in ENV_FACTORIES:
        return import_object(ENV_FACTORIES[env_id])
    if is_import_path(env_id):
        refuse_imports([("env", env_id)], where, allow_imports=allow_imports)
        return import_object(env_id)
    if env_id.isidentifier():
        try:
            return importlib.import_module(f"{FOREIGN_PACKAGE}.{env_id}").env
        except ModuleNotFoundError as error:
            if error.name is None or not f"{FOREIGN_PACKAGE}.{env_id}".startswith(error.name):
                raise ValueError(f"{where}: {env_id} needs the package {error.name!r}, which issoku's set-up does "
                                 f"not install (pip install {error.name.partition('.')[0] if error.name else '...'})") \
                    from None
        except ImportError as error:  # the module is there but a dependency of it is not importable
            raise ValueError(f"{where}: {env_id} cannot be imported ({' '.join(str(error).split())})") from None
    raise UnknownNameError("env id", env_id, [*env_ids(), f"a {FOREIGN_PACKAGE} id", "package.module:factory"])


def make_env(env_id: str, **kwargs: Any):
    """A new env of id ``env_id`` (see :func:`resolve_env`) built with ``kwargs``."""
    return resolve_env(env_id)(**kwargs)
