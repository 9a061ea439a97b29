"""The one place that builds envs for training, evaluation and play (so they never drift apart).

``make_aec_env`` resolves an env id through ``issoku.envs.registry.resolve_env`` (an issoku id, a
PettingZoo classic id, or an importable factory ``package.module:factory``, so any AEC env in the
classic observation/mask convention trains). ``make_seat_env`` gives the learner's
seat: ``issoku.envs.single_agent.SingleAgentEnv``, the one single-seat wrapper, for every AEC env.
``env_identity`` is what checkpoints record and compare; ``action_names`` names the flat actions for
menus and usage statistics.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any

from issoku.envs.registry import UnknownNameError, resolve_env
from issoku.envs.single_agent import MaskedWrapper, SingleAgentEnv
from issoku.training.config import ConfigError, TrainConfig
from issoku.training.matchups import MatchupMixEnv, every_pairing
from issoku.training.opponents import OpponentPool
from issoku.training.selfplay_env import SelfPlayEnv

if TYPE_CHECKING:
    from stable_baselines3.common.monitor import Monitor


def make_aec_env(env_id: str, env_kwargs: dict | None = None) -> Any:
    """A fresh AEC env for ``env_id`` (resolved by :func:`issoku.envs.registry.resolve_env`) built with ``env_kwargs``."""
    try:
        factory = resolve_env(env_id)
    except UnknownNameError as error:
        raise ConfigError(str(error)) from None
    return factory(**(env_kwargs or {}))


def make_config_env(config: TrainConfig, **extra_kwargs: Any) -> Any:
    """The AEC env a run trains on: ``env_id`` with ``env_kwargs``, mixed over ``matchups`` if any."""
    kwargs = {**config.env_kwargs, **extra_kwargs}
    if not config.matchups:
        return make_aec_env(config.env_id, kwargs)
    pairings = every_pairing(config.matchups)
    try:
        members = [make_aec_env(config.env_id, {**kwargs, "fighters": pairing}) for pairing in pairings]
    except TypeError as error:  # an env without a two-fighter ``fighters`` keyword
        raise ConfigError(f"matchups give the env fighters=[a, b]; {config.env_id} cannot take that ({error}); "
                          "fix its fighters in env_kwargs instead") from None
    return MatchupMixEnv(members, [" vs ".join(pairing) for pairing in pairings])


def ruleset_of(aec_env: Any) -> Any:
    """The issoku ruleset behind an env (a matchup mix's current one), or None for a foreign env."""
    return getattr(aec_env.unwrapped, "ruleset", None)


def env_identity(aec_env: Any, env_id: str) -> dict[str, Any]:
    """What a checkpoint must match to be used with this env: id, ``_vN`` version, rules version and fingerprint,
    and the interface the network was built for.

    The version is the ``_vN`` suffix of the env's ``metadata["name"]`` (PettingZoo's convention), else of ``env_id``.
    The ``interface`` digest covers the action names in order and the observation's shape: a rules
    fingerprint hashes configuration and content data, so a code change that renumbers the actions or
    moves observation fields would slip past it, and the agent would read the wrong inputs.
    """
    version = re.search(r"_v(\d+)$", aec_env.metadata.get("name", env_id))
    mix = isinstance(aec_env.unwrapped, MatchupMixEnv)  # a mix carries the fingerprint of all its matchups
    rules = aec_env.unwrapped if mix else ruleset_of(aec_env)
    return {
        "env_id": env_id,
        "env_version": int(version.group(1)) if version else None,
        "rules_version": getattr(rules, "version", None),
        "rules_fingerprint": getattr(rules, "fingerprint", None),
        "interface": interface_digest(aec_env),
    }


def interface_digest(aec_env: Any) -> str:
    """A digest of the env's action names (in action order) and observation shape, as seen by its first seat."""
    space = aec_env.observation_space(aec_env.possible_agents[0])
    shape = space["observation"].shape if "observation" in getattr(space, "spaces", {}) else space.shape
    described = json.dumps({"actions": list(action_names(aec_env)), "observation_shape": list(shape)})
    return hashlib.sha256(described.encode()).hexdigest()[:16]


def action_names(aec_env: Any) -> tuple[str, ...]:
    """Names of the flat actions (the env's or its ruleset's, or ``action <i>`` for a foreign env)."""
    names = getattr(aec_env.unwrapped, "action_names", None) or getattr(ruleset_of(aec_env), "action_names", None)
    if names:
        return tuple(names)
    return tuple(f"action {i}" for i in range(aec_env.action_space(aec_env.possible_agents[0]).n))


def action_kind(name: str) -> str:
    """The maneuver kind of an action name: the part before the first ``:`` (``attack:thrust:wrist`` -> ``attack``)."""
    return name.split(":", 1)[0]


def make_seat_env(aec_env: Any) -> SingleAgentEnv:
    """The learner's seat of ``aec_env``, issoku's or any classic-convention AEC env (its opponent is set
    by the self-play wrapper on each reset)."""
    return SingleAgentEnv(aec_env, opponent=_no_opponent_yet)


def _no_opponent_yet(observation: Any, action_mask: Any) -> int:
    raise RuntimeError("the seat env was stepped before the self-play wrapper set its opponent")


def make_selfplay_env(config: TrainConfig, pool: OpponentPool, *, shaped: bool = True) -> Monitor:
    """The learner's single-agent env for ``config`` against ``pool``, with episode statistics.

    SB3 (and with it torch, seconds of CPU) is imported here, not with the module: the checkpoint checks of
    a study or ``issoku evaluate`` read :func:`env_identity` and :func:`make_config_env` and play without torch.

    With ``config.style`` and ``shaped``, the style's reward bonus is added outside the self-play env (so the
    pool's win rates stay unshaped), and so is ``config.round_limit_reward``; evaluations pass ``shaped=False`` and
    measure the plain game.
    """
    aec_env = make_config_env(config)
    env: MaskedWrapper = SelfPlayEnv(make_seat_env(aec_env), pool)
    if config.style and shaped:
        from issoku.training.shaping import StyleShaping, bonus_per_action, load_style

        bonus = bonus_per_action(load_style(config.style), config.env_id, action_names(aec_env))
        env = StyleShaping(env, bonus, config.style_weight)
    if config.round_limit_reward and shaped:
        from issoku.training.shaping import RoundLimitReward

        env = RoundLimitReward(env, config.round_limit_reward)
    from stable_baselines3.common.monitor import Monitor

    return Monitor(env)
