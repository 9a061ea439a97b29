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

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

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
    try:
        metadata = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError):
        raise CheckpointError(f"{path}: checkpoint metadata is not JSON") from None
    if not isinstance(metadata, dict) or not isinstance(metadata.get("config", {}), dict):
        raise CheckpointError(f"{path}: checkpoint metadata is not a JSON object with a 'config' object")
    return metadata


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


class CheckpointPolicy:
    """A frozen MaskablePPO checkpoint as a policy ``(observation, action_mask) -> action``.

    ``deterministic`` plays the most probable legal action; otherwise the action is sampled from the
    masked action distribution with a generator seeded by ``seed``.
    """

    def __init__(self, checkpoint: str | Path, *, deterministic: bool = True, seed: int | None = None) -> None:
        import torch
        from stable_baselines3.common.preprocessing import preprocess_obs

        from issoku.agents.checkpoint_zip import load_model

        self.path = Path(checkpoint)
        self.metadata = read_metadata(self.path)
        self._torch = torch
        self._preprocess = preprocess_obs
        self._policy = load_model(self.path, clip_range=clip_range_of(self.metadata)).policy
        self._policy.set_training_mode(False)
        self._policy.requires_grad_(False)
        self.deterministic = deterministic
        self._rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Restart the sampling generator (envs call this on reset so one seed fixes an episode)."""
        self._rng = np.random.default_rng(seed)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action, zero where masked out.

        Runs the actor network directly (features -> actor latent -> logits) and masks in numpy: ten
        times faster per call than building SB3's distribution objects, which matters because
        snapshot opponents act one observation at a time inside the training envs.
        """
        policy = self._policy
        with self._torch.no_grad():
            obs = self._preprocess(self._torch.as_tensor(np.asarray(observation))[None], policy.observation_space)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs)))
        logits = logits[0].numpy().astype(np.float64)
        logits[np.asarray(action_mask) == 0] = -np.inf
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask.any():
            raise ValueError("CheckpointPolicy got an all-zero action mask")
        probabilities = self.action_probabilities(observation, action_mask)
        if self.deterministic:
            return int(np.argmax(probabilities))
        legal = np.flatnonzero(action_mask)
        cumulative = np.cumsum(probabilities[legal])
        pick = int(np.searchsorted(cumulative, self._rng.random() * cumulative[-1], side="right"))
        return int(legal[min(pick, legal.size - 1)])

    def masked_actor(self) -> Any:
        """The actor as one ``torch.nn.Module``: ``(observation, action_mask) -> masked probabilities``.

        The same computation as :meth:`action_probabilities` (features -> actor latent -> logits, masked
        out actions at -inf before a softmax), batched and in float32, for ONNX export: the exported graph
        must pick what this checkpoint picks.
        """
        torch = self._torch
        policy = self._policy

        class MaskedActor(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.features = policy.pi_features_extractor
                self.latent = policy.mlp_extractor.policy_net
                self.logits = policy.action_net

            def forward(self, observation: Any, action_mask: Any) -> Any:
                logits = self.logits(self.latent(self.features(observation.float())))
                logits = torch.where(action_mask > 0, logits, torch.full_like(logits, float("-inf")))
                return torch.softmax(logits, dim=-1)

        return MaskedActor().eval()
