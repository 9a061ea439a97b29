"""The one place that builds envs for training, evaluation and play (so they never drift apart).

``make_aec_env`` resolves an env id: an issoku env (``issoku.envs.<env_id>``) first, then a
PettingZoo classic env (``pettingzoo.classic.<env_id>``), or any importable factory written
``package.module:factory`` (so any AEC env in the classic observation/mask convention trains).
``env_identity`` is what checkpoints record and compare; ``action_names`` names the flat actions for
menus and usage statistics.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from stable_baselines3.common.monitor import Monitor

from issoku.training.config import ConfigError, TrainConfig
from issoku.training.opponents import OpponentPool
from issoku.training.seat_env import SeatEnv
from issoku.training.selfplay_env import SelfPlayEnv

ENV_PACKAGES = ("issoku.envs", "pettingzoo.classic")


def make_aec_env(env_id: str, env_kwargs: dict | None = None) -> Any:
    """A fresh AEC env for ``env_id`` built with ``env_kwargs``."""
    if ":" in env_id:
        module_name, _, factory = env_id.partition(":")
        return getattr(importlib.import_module(module_name), factory)(**(env_kwargs or {}))
    for package in ENV_PACKAGES:
        module_name = f"{package}.{env_id}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and module_name.startswith(error.name):
                continue
            raise
        return module.env(**(env_kwargs or {}))
    raise ConfigError(f"unknown env {env_id!r}: neither issoku.envs.{env_id} nor pettingzoo.classic.{env_id} exists")


def env_ruleset(aec_env: Any) -> Any:
    """The issoku ruleset behind an env, or None for a foreign env."""
    return getattr(aec_env.unwrapped, "ruleset", None)


def env_identity(aec_env: Any, env_id: str) -> dict[str, Any]:
    """What a checkpoint must match to be used with this env: id, ``_vN`` version, rules version and fingerprint.

    The version is the ``_vN`` suffix of the env's ``metadata["name"]`` (PettingZoo's convention), else of ``env_id``.
    """
    version = re.search(r"_v(\d+)$", aec_env.metadata.get("name", env_id))
    ruleset = env_ruleset(aec_env)
    return {
        "env_id": env_id,
        "env_version": int(version.group(1)) if version else None,
        "rules_version": getattr(ruleset, "version", None),
        "rules_fingerprint": getattr(ruleset, "fingerprint", None),
    }


def action_names(aec_env: Any) -> tuple[str, ...]:
    """Names of the flat actions (the ruleset's, or ``action <i>`` for a foreign env)."""
    ruleset = env_ruleset(aec_env)
    if ruleset is not None:
        return tuple(ruleset.action_names)
    return tuple(f"action {i}" for i in range(aec_env.action_space(aec_env.possible_agents[0]).n))


def action_kind(name: str) -> str:
    """The maneuver kind of an action name: the part before the first ``:`` (``attack:thrust:wrist`` -> ``attack``)."""
    return name.split(":", 1)[0]


def make_seat_env(aec_env: Any) -> SeatEnv:
    """The learner's seat of ``aec_env`` (its opponent is set by the self-play wrapper on each reset)."""
    return SeatEnv(aec_env, opponent=_no_opponent_yet)


def _no_opponent_yet(observation: Any, action_mask: Any) -> int:
    raise RuntimeError("the seat env was stepped before the self-play wrapper set its opponent")


def make_selfplay_env(config: TrainConfig, pool: OpponentPool) -> Monitor:
    """The learner's single-agent env for ``config`` against ``pool``, with episode statistics."""
    return Monitor(SelfPlayEnv(make_seat_env(make_aec_env(config.env_id, config.env_kwargs)), pool))
