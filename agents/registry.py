"""Policy names -> policy factories, by import path, so that a new agent registers with one line.

A factory is called as ``factory(seed=seed, **kwargs)`` and returns a policy
``(observation, action_mask) -> action`` (see :mod:`issoku.agents.policy`). Names are what command
lines, scenario files and tournament configs use.

To add an agent: ``POLICY_FACTORIES["aggressive"] = "issoku.agents.scripted:Aggressive"`` below (or
:func:`register_policy` at run time).
"""

from __future__ import annotations

from typing import Any

from issoku.agents.policy import Policy
from issoku.envs.registry import UnknownNameError, check_import_path, import_object

POLICY_FACTORIES: dict[str, str] = {
    "random": "issoku.agents.policy:RandomLegal",
}


def register_policy(name: str, factory_path: str) -> None:
    """Register (or replace) a policy factory under ``name``."""
    POLICY_FACTORIES[name] = check_import_path(factory_path)


def policy_names() -> list[str]:
    """Every registered policy name, sorted."""
    return sorted(POLICY_FACTORIES)


def make_policy(name: str, seed: int | None = None, **kwargs: Any) -> Policy:
    """A new policy called ``name``, seeded with ``seed``."""
    try:
        path = POLICY_FACTORIES[name]
    except KeyError:
        raise UnknownNameError("policy", name, policy_names()) from None
    return import_object(path)(seed=seed, **kwargs)
