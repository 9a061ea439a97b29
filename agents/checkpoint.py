"""Trained agents: a MaskablePPO checkpoint loads as a :class:`~issoku.agents.policy.Policy`.

A checkpoint is a pair of files written by ``issoku.training``: ``<name>.zip`` (the SB3 model) and
``<name>.json`` (its metadata: env id and version, rules fingerprint, config, seed, steps, library
versions). The metadata is what makes a checkpoint *compatible*: an agent trained on one version of
the rules is refused by an env whose version or rules fingerprint differs, instead of silently playing
a game it never learned (its action numbers may mean other maneuvers now). What makes loading *safe*
(nothing in the zip is unpickled) is :mod:`issoku.agents.checkpoint_zip`.

Loading is read-only: the network is put in evaluation mode with gradients off, and stochastic play
draws from the policy's own seeded generator (never torch's global one), so a duel is reproducible.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.batched import Decision, SeededSampling, choose, decide_one, masked_softmax
from issoku.agents.numpy_actor import NumpyMLP, numpy_mlp, tanh_mlp

IDENTITY_KEYS = ("env_id", "env_version", "rules_version", "rules_fingerprint")
"""Metadata fields that must match between a checkpoint and the env it plays in."""
RECORDED_IDENTITY_KEYS = ("interface",)
"""Fields that must match when the checkpoint records them: checkpoints written before a field existed
lack it, and are checked on the other fields only."""


class CheckpointMismatchError(ValueError):
    """A checkpoint was trained on another env, env version or rules data than the one at hand."""


def metadata_path(checkpoint: str | Path) -> Path:
    """The metadata JSON that sits beside a checkpoint zip."""
    return Path(checkpoint).with_suffix(".json")


def read_metadata(checkpoint: str | Path) -> dict[str, Any]:
    """The metadata of a checkpoint (raises CheckpointError naming the file when missing or not JSON)."""
    from issoku.agents.checkpoint_zip import CheckpointError

    path = metadata_path(checkpoint)
    if not path.is_file() and not Path(checkpoint).exists():
        raise CheckpointError(f"checkpoint {checkpoint}: no such file")
    if not path.is_file():
        raise CheckpointError(f"{path}: checkpoint metadata not found (a checkpoint is a .zip with a .json beside it)")
    from issoku.rules.kernel.content import parse_data_text, read_data_bytes

    try:
        metadata = parse_data_text(read_data_bytes(path, 64 << 20), json.loads, 64 << 20)
    except json.JSONDecodeError:
        raise CheckpointError(f"{path}: checkpoint metadata is not JSON") from None
    except ValueError as error:  # too large, not UTF-8, nested too deeply
        raise CheckpointError(f"{path}: checkpoint metadata is {error}") from None
    if not isinstance(metadata, dict) or not isinstance(metadata.get("config", {}), dict):
        raise CheckpointError(f"{path}: checkpoint metadata is not a JSON object with a 'config' object")
    return metadata


def env_sizes(env: Any) -> tuple[int, int] | None:
    """``(observation values, actions)`` a network reads and names in ``env`` (its first agent's flat observation and
    discrete actions); None for other spaces, which SB3's own load checks."""
    agent = env.possible_agents[0]
    space, actions = env.observation_space(agent), env.action_space(agent)
    observation = space["observation"] if hasattr(space, "spaces") and "observation" in space.spaces else space
    if getattr(observation, "shape", None) is None or not hasattr(actions, "n"):
        return None
    return math.prod(observation.shape), int(actions.n)


def check_network_fits(checkpoint: str | Path, env: Any) -> None:
    """Refuse ``checkpoint`` when its network does not read ``env``'s observations or name its actions (input and
    output sizes): metadata can claim an env the tensors were not trained for, and the first game then failed with a
    bare ``matmul`` error. A network that is not a plain actor is loaded by SB3, which checks the spaces itself."""
    from issoku.agents.checkpoint_zip import CheckpointError, NotPlainActorError, actor_layers

    try:
        layers = actor_layers(checkpoint)
    except NotPlainActorError:
        return
    wanted = env_sizes(env)
    inputs, outputs = int(layers[0][0].shape[1]), int(layers[-1][0].shape[0])
    if wanted is not None and (inputs, outputs) != wanted:
        raise CheckpointError(f"checkpoint {checkpoint}: its network reads {inputs} observation values and names "
                              f"{outputs} actions; this env has {wanted[0]} and {wanted[1]} (the network was not "
                              "trained for the env its metadata names)")


def check_compatible(metadata: Mapping[str, Any], identity: Mapping[str, Any], *, what: str = "checkpoint") -> None:
    """Refuse a checkpoint whose env identity differs from ``identity`` (see :data:`IDENTITY_KEYS` and
    :data:`RECORDED_IDENTITY_KEYS`).

    Raises :class:`CheckpointMismatchError` listing every differing field, old and new value.
    """
    keys = IDENTITY_KEYS + tuple(key for key in RECORDED_IDENTITY_KEYS if key in metadata)
    differences = [
        f"{key}: {what} has {metadata.get(key)!r}, this env has {identity.get(key)!r}"
        for key in keys
        if metadata.get(key) != identity.get(key)
    ]
    if differences:
        raise CheckpointMismatchError(
            f"{what} was trained on a different env or rules data and cannot be used here:\n  "
            + "\n  ".join(differences)
            + "\nTrain a new agent for this env (a new --run-dir), or use the env version it was trained on."
        )


def clip_range_of(metadata: Mapping[str, Any]) -> float:
    """The PPO clip range a checkpoint was trained with (its JSON metadata's config; SB3's default otherwise)."""
    value = metadata.get("config", {}).get("clip_range", 0.2) if isinstance(metadata.get("config"), Mapping) else 0.2
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.2


class CheckpointPolicy(SeededSampling):
    """A frozen MaskablePPO checkpoint as a policy ``(observation, action_mask) -> action``.

    ``deterministic`` plays the most probable legal action; otherwise the action is sampled from the
    masked action distribution with a generator seeded by ``seed``. Batchable
    (:class:`~issoku.agents.batched.Batchable`): copies of one loaded policy (``copy.copy``, one per game,
    each with its own generator) share the network, so lockstep play evaluates all their decisions at once.
    """

    def __init__(self, checkpoint: str | Path, *, deterministic: bool = True, seed: int | None = None) -> None:
        from issoku.agents.checkpoint_zip import NotPlainActorError, actor_layers, load_model

        self.path = Path(checkpoint)
        self.metadata = read_metadata(self.path)
        self._actor: Any = None
        """The actor as a torch module: made on first use (export), or at once for a network numpy cannot play."""
        try:
            # The actor's weights alone, in numpy: no SB3, no optimizer, no torch (seconds saved per process).
            self._network: NumpyMLP | None = tanh_mlp(actor_layers(self.path))
        except NotPlainActorError:
            policy = load_model(self.path, clip_range=clip_range_of(self.metadata)).policy
            self._actor = _sb3_actor(policy).requires_grad_(False)
            self._network = numpy_mlp(_sb3_layers(policy))
        self.deterministic = deterministic
        self.seed(seed)

    def action_probabilities_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Masked action probabilities for a batch: ``(B, obs), (B, actions) -> (B, actions)``, float64.

        Runs the actor network (features -> actor latent -> logits) in numpy when it is a plain MLP
        (:mod:`issoku.agents.numpy_actor`: several times faster than torch at this size), else under
        ``torch.inference_mode``, and masks in numpy. Lockstep play (:mod:`issoku.agents.batched`) sends
        every pending decision of a round on this network through one call.
        """
        if self._network is not None:
            return masked_softmax(self._network(observations), action_masks)
        import torch

        with torch.inference_mode():
            logits = self._actor(torch.as_tensor(np.asarray(observations)).float())
        return masked_softmax(logits.numpy(), action_masks)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action, zero where masked out (a batch of one)."""
        return self.action_probabilities_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0]

    def begin(self, observation: np.ndarray, action_mask: np.ndarray) -> Decision:
        """This decision as one row of a batch on this checkpoint's network (see :mod:`issoku.agents.batched`)."""
        network = self._network if self._network is not None else self._actor  # copies of this policy share it
        return Decision(network, self.action_probabilities_batch, observation, action_mask,
                        functools.partial(self._finish, observation, action_mask), self.deterministic)

    def _finish(self, observation: np.ndarray, action_mask: np.ndarray, row: np.ndarray, alone: bool) -> int:
        return choose(row, action_mask, deterministic=self.deterministic,
                      rng=None if self.deterministic else self.sampling_rng(), alone=alone,
                      again=lambda: self.action_probabilities(observation, action_mask))

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask.any():
            raise ValueError("CheckpointPolicy got an all-zero action mask")
        return decide_one(self.begin(observation, action_mask))

    def masked_actor(self) -> Any:
        """The actor as one ``torch.nn.Module``: ``(observation, action_mask) -> masked probabilities``.

        The same computation as :meth:`action_probabilities` (features -> actor latent -> logits, masked
        out actions at -inf before a softmax), batched and in float32, for ONNX export: the exported graph
        must pick what this checkpoint picks.
        """
        import torch

        from issoku.agents.checkpoint_zip import load_actor

        actor = self._actor = self._actor if self._actor is not None else load_actor(self.path)

        class MaskedActor(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.actor = actor

            def forward(self, observation: Any, action_mask: Any) -> Any:
                logits = self.actor(observation.float())
                logits = torch.where(action_mask > 0, logits, torch.full_like(logits, float("-inf")))
                return torch.softmax(logits, dim=-1)

        return MaskedActor().eval()


def _sb3_actor(policy: Any) -> Any:
    """The actor of a loaded SB3 policy (features -> actor latent -> logits) as one ``torch.nn.Module``, for
    checkpoints :func:`~issoku.agents.checkpoint_zip.load_actor` cannot rebuild (the class is built here so
    that this module imports without torch)."""
    import torch
    from stable_baselines3.common.preprocessing import preprocess_obs

    class SB3Actor(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.policy = policy.set_training_mode(False) or policy

        def forward(self, observations: Any) -> Any:
            obs = preprocess_obs(observations, policy.observation_space)
            return policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs)))

    return SB3Actor().eval()


def _sb3_layers(policy: Any) -> Any:
    """An SB3 policy's actor as ``Sequential(Flatten, *policy_net, action_net)`` when that is all it computes (a
    flatten features extractor on a Box observation, a ``Sequential`` policy net), else None."""
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import FlattenExtractor

    plain = (isinstance(policy.observation_space, spaces.Box) and type(policy.pi_features_extractor) is FlattenExtractor
             and isinstance(policy.mlp_extractor.policy_net, torch.nn.Sequential))
    return torch.nn.Sequential(torch.nn.Flatten(), *policy.mlp_extractor.policy_net, policy.action_net) if plain else None
