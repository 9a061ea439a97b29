"""An exported opponent: a trained policy as an ONNX file plus a JSON manifest, played without torch.

``issoku export`` (:mod:`issoku.training.export`) writes a folder holding ``policy.onnx`` and
``manifest.json``. A game embeds the opponent with nothing but an ONNX runtime: it feeds the flat
observation and the 0/1 action mask and reads masked action probabilities back. This module is the
Python side of that contract, so issoku's own tools (``issoku play``, evaluation) can play an export
exactly as a game would, and a test can hold the export to the checkpoint it came from.

The manifest is data, never code: it is read with ``json`` and checked field by field; the ONNX file is
a graph of tensor operations, which ``onnxruntime`` runs without executing anything from the file.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.batched import Decision, SeededSampling, choose, decide_one

MANIFEST = "manifest.json"
LADDER = "ladder.json"
"""A ladder folder's rung table (written by ``issoku ladder``, :mod:`issoku.evaluation.strength.ladder`)."""
MODEL = "policy.onnx"
FORMAT = "issoku-opponent"
FORMAT_VERSION = 1
INPUTS = ("observation", "action_mask")
OUTPUT = "probabilities"
REQUIRED_FIELDS = ("format", "format_version", "env_id", "env_version", "rules_version", "rules_fingerprint",
                   "interface", "action_names", "observation", "model", "model_sha256")
MAX_MODEL_BYTES = 16 << 20
"""Largest ONNX file an export may hold: 16 MiB, four million float32 weights (the shipped agents export to under
1 MB). A larger one is refused before it is read, so a received export cannot fill memory by its size."""


class ExportError(ValueError):
    """An export folder that is missing, incomplete, tampered with or of another format."""


def read_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest of an export folder, checked for format and completeness.

    Raises :class:`ExportError` naming the file and the field at fault.
    """
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise ExportError(f"{path}: no such file (an export is a folder with {MANIFEST} and {MODEL})")
    from issoku.common.inputs import read_json

    try:
        manifest = read_json(path)
    except ValueError as error:  # not JSON, too large, not UTF-8, nested too deeply (the message names the file)
        raise ExportError(str(error)) from None
    if not isinstance(manifest, dict):
        raise ExportError(f"{path}: the manifest must be a JSON object")
    missing = [name for name in REQUIRED_FIELDS if name not in manifest]
    if missing:
        raise ExportError(f"{path}: missing field(s) {', '.join(missing)}")
    model = manifest["model"]
    if not isinstance(model, str) or model in ("", ".", "..") or Path(model).name != model or "\\" in model:
        raise ExportError(f"{path}: model: {model!r} is not a file name in the export's folder")
    if (path.parent / model).is_symlink():
        raise ExportError(f"{path}: model: {model!r} is a symbolic link (an export's model is a file in its folder)")
    if manifest["format"] != FORMAT or manifest["format_version"] != FORMAT_VERSION:
        raise ExportError(f"{path}: format: expected {FORMAT} v{FORMAT_VERSION}, "
                          f"got {manifest['format']} v{manifest['format_version']}")
    return manifest


def _training_config(policy: ExportedPolicy) -> dict[str, Any]:
    """The training config an export's manifest records (``checkpoint.config``), which rebuilds its env; a manifest
    without one is refused naming the field (it was a bare ``KeyError: 'checkpoint'``)."""
    recorded = policy.manifest.get("checkpoint")
    config = recorded.get("config") if isinstance(recorded, dict) else None
    if not isinstance(config, dict):
        raise ExportError(f"{policy.folder / MANIFEST}: checkpoint.config: missing or not an object (the training "
                          "config that rebuilds the export's env)")
    return config


def model_digest(data: bytes) -> str:
    """The SHA-256 the manifest records for the ONNX file (a copied or edited model is refused)."""
    return hashlib.sha256(data).hexdigest()


class ExportedPolicy(SeededSampling):
    """An exported opponent as a policy ``(observation, action_mask) -> action``, run by onnxruntime.

    ``deterministic`` plays the most probable legal action (what the checkpoint's deterministic play picks);
    otherwise the action is sampled from the masked probabilities with a generator seeded by ``seed``.
    ``temperature`` (sampling only) sharpens (< 1) or flattens (> 1) the distribution: a game's cheap
    difficulty knob, applied to the probabilities the graph returns.
    """

    def __init__(self, folder: str | Path, *, deterministic: bool = True, seed: int | None = None,
                 temperature: float = 1.0) -> None:
        import onnxruntime

        self.folder = Path(folder)
        self.manifest = read_manifest(self.folder)
        model_path = self.folder / self.manifest["model"]
        if not model_path.is_file():
            raise ExportError(f"{model_path}: no such file (named by {self.folder / MANIFEST}: model)")
        size = model_path.stat().st_size
        if size > MAX_MODEL_BYTES:
            raise ExportError(f"{model_path}: {size:,} bytes, more than the {MAX_MODEL_BYTES:,} an exported model may "
                              "have")
        data = model_path.read_bytes()
        if model_digest(data) != self.manifest["model_sha256"]:
            raise ExportError(f"{model_path}: its SHA-256 differs from {MANIFEST}'s model_sha256 "
                              "(the model was changed after export)")
        if not temperature > 0:
            raise ExportError(f"temperature must be > 0, not {temperature}")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # one opponent per game loop: threads only add overhead at batch 1
        options.inter_op_num_threads = 1
        try:
            self._session = onnxruntime.InferenceSession(data, options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime's own types (InvalidProtobuf, Fail...): the file is not a model
            raise ExportError(f"{model_path}: not a readable ONNX model ({type(error).__name__}: "
                              f"{' '.join(str(error).split())[:200]})") from None
        self._check_graph(model_path)
        self.deterministic = deterministic
        self.temperature = float(temperature)
        self.seed(seed)

    @property
    def sizes(self) -> tuple[int, int]:
        """``(observation values, actions)`` the manifest declares: what the graph reads and names."""
        observation = self.manifest["observation"]
        size = observation.get("size") if isinstance(observation, dict) else None
        actions = self.manifest["action_names"]
        if not isinstance(size, int) or isinstance(size, bool) or not isinstance(actions, list):
            raise ExportError(f"{self.folder / MANIFEST}: observation.size and action_names: not a number and a list")
        return size, len(actions)

    def _check_graph(self, model_path: Path) -> None:
        """The graph's inputs and output are the calling convention's, of the sizes the manifest declares (a graph
        of other shapes failed inside the first game with onnxruntime's own error)."""
        size, actions = self.sizes
        wanted = {"observation": size, "action_mask": actions, OUTPUT: actions}
        found = {node.name: node.shape for node in [*self._session.get_inputs(), *self._session.get_outputs()]}
        for name, width in wanted.items():
            shape = found.get(name)
            if shape is None or len(shape) != 2 or shape[1] != width:
                raise ExportError(f"{model_path}: {name}: the graph's shape is {shape}, the manifest declares "
                                  f"[batch, {width}] (a graph of another network, or not an issoku export)")

    def check_fits(self, env: Any) -> None:
        """Refuse this export for ``env`` when the sizes it declares are not the env's observation and actions
        (before a game is played), worded as :func:`issoku.agents.checkpoint.check_network_fits` words it."""
        from issoku.agents.checkpoint import env_sizes

        wanted = env_sizes(env)
        if wanted is not None and self.sizes != wanted:
            raise ExportError(f"export {self.folder}: its network reads {self.sizes[0]} observation values and names "
                              f"{self.sizes[1]} actions; this env has {wanted[0]} and {wanted[1]}")

    @property
    def identity(self) -> dict[str, Any]:
        """The env identity the export was trained for (compared like a checkpoint's metadata)."""
        keys = ("env_id", "env_version", "rules_version", "rules_fingerprint", "interface")
        return {key: self.manifest[key] for key in keys}

    def action_probabilities_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Masked action probabilities for a batch: ``(B, obs) , (B, actions) -> (B, actions)``."""
        feed = {"observation": np.asarray(observations, dtype=np.float32),
                "action_mask": np.asarray(action_masks, dtype=np.float32)}
        (probabilities,) = self._session.run([OUTPUT], feed)
        return probabilities

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action, zero where masked out."""
        return self.action_probabilities_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0]

    def begin(self, observation: np.ndarray, action_mask: np.ndarray) -> Decision:
        """This decision as one row of a batch on this export's session (see :mod:`issoku.agents.batched`)."""
        return Decision(self._session, self._probabilities64, observation, action_mask,
                        functools.partial(self._finish, observation, action_mask), self.deterministic)

    def _probabilities64(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return self.action_probabilities_batch(observations, action_masks).astype(np.float64)

    def _finish(self, observation: np.ndarray, action_mask: np.ndarray, row: np.ndarray, alone: bool) -> int:
        return choose(row, action_mask, deterministic=self.deterministic,
                      rng=None if self.deterministic else self.sampling_rng(), alone=alone,
                      again=lambda: self._probabilities64(np.asarray(observation)[None],
                                                          np.asarray(action_mask)[None])[0],
                      temperature=self.temperature)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not np.asarray(action_mask).any():
            raise ValueError("ExportedPolicy got an all-zero action mask")
        return decide_one(self.begin(observation, action_mask))


def load_trained(path: str | Path, *, deterministic: bool = True, seed: int | None = None,
                 rung: int | None = None) -> tuple[Any, dict[str, Any]]:
    """A trained agent from a checkpoint ``.zip``, an export folder, or rung ``rung`` (1 = weakest) of a
    ladder folder, with metadata in the checkpoint's shape.

    The metadata holds the env identity (``env_id``, ``env_version``, ``rules_fingerprint``, ``interface``...)
    and the training ``config`` that rebuilds the env, so callers check and build the env the same way for all.
    A rung plays as it was rated: its export at its temperature (0 = argmax).
    """
    from issoku.agents.checkpoint import CheckpointPolicy, read_metadata

    folder = Path(path)
    if rung is not None:
        ladder_file = folder / LADDER
        if not ladder_file.is_file():
            raise ExportError(f"{ladder_file}: no such file (--rung needs a folder written by issoku ladder)")
        from issoku.common.inputs import read_json

        try:
            ladder = read_json(ladder_file)
        except ValueError as error:
            raise ExportError(str(error)) from None
        rungs = ladder.get("rungs") if isinstance(ladder, dict) else None
        if not isinstance(rungs, list):
            raise ExportError(f"{ladder_file}: rungs: missing or not a list (a ladder file lists its rungs)")
        if not 1 <= rung <= len(rungs):
            raise ExportError(f"--rung {rung}: {ladder_file} has rungs 1 to {len(rungs)}")
        chosen = rungs[rung - 1]
        if not isinstance(chosen, dict) or not isinstance(chosen.get("export"), str) \
                or not isinstance(chosen.get("temperature"), (int, float)) or isinstance(chosen["temperature"], bool):
            raise ExportError(f"{ladder_file}: rungs[{rung - 1}]: not a rung (an 'export' folder name and a "
                              "'temperature' number)")
        temperature = float(chosen["temperature"])
        export = folder / chosen["export"]
        if not export.resolve().is_relative_to(folder.resolve()):  # ladder.json is a file: it names its own exports only
            raise ExportError(f"{ladder_file}: rung {rung}: export {chosen['export']!r} is outside the ladder folder")
        policy = ExportedPolicy(export, deterministic=temperature == 0.0, seed=seed,
                                temperature=temperature or 1.0)
        return policy, {**policy.identity, "config": _training_config(policy)}
    if folder.is_dir():
        if (folder / LADDER).is_file() and not (folder / MANIFEST).is_file():
            raise ExportError(f"{folder}: a ladder folder (issoku ladder): name the rung to play, --rung 1 (the weakest) "
                              "or higher (its ladder.json lists them)")
        policy = ExportedPolicy(folder, deterministic=deterministic, seed=seed)
        return policy, {**policy.identity, "config": _training_config(policy)}
    return CheckpointPolicy(path, deterministic=deterministic, seed=seed), read_metadata(path)
