"""Load a MaskablePPO checkpoint zip without running anything it carries.

An SB3 zip holds a ``data`` entry (JSON) in which some values are cloudpickled objects (the policy
class, the spaces, the learning-rate and clip-range schedules, the rollout buffer class) and ``.pth``
tensors. Unpickling runs code chosen by whoever wrote the file, so a checkpoint someone sent you could
run anything on ``issoku evaluate``. Here no pickled value is ever decoded: every one is replaced
through SB3's ``custom_objects`` by an object built from plain data -- the spaces from the env at hand
or from the JSON fields SB3 writes beside each pickle (shape, dtype, ``n``), the clip range from the
checkpoint's own JSON metadata, the classes from ours. A pickled entry we do not know is refused, so
a tampered zip fails with one line instead of running its payload. Tensors are read with
``torch.load(weights_only=True)`` by SB3, and for playing by :mod:`issoku.agents.pth` (tensors only as well,
without torch).

What stays unsafe: a file's *numbers* are trusted (a crafted network plays badly, it runs no code),
and an env id or scripted agent a checkpoint's metadata names is resolved like any data file's names
(import paths only with ``--allow-imports``; see :mod:`issoku.envs.registry`).
"""

from __future__ import annotations

import json
import pickle
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

DATA_ENTRY = "data"
SERIALIZED = ":serialized:"
NOT_KEPT = ("ep_info_buffer", "ep_success_buffer", "_last_obs", "_last_episode_starts", "_last_original_obs")
"""Pickled run-time state that a loaded model rebuilds itself (SB3 resets the env when ``_last_obs`` is None)."""


class CheckpointError(ValueError):
    """A checkpoint zip that is unreadable, not an SB3 model, or carries a pickled object we do not load."""


class NotPlainActorError(CheckpointError):
    """A checkpoint whose actor is not SB3's plain ``MlpPolicy`` one (:func:`load_actor` cannot rebuild it)."""


MAX_DATA_ENTRY_BYTES = 16 << 20
"""Largest ``data`` entry (JSON) a checkpoint may inflate to: 16 MiB (SB3 writes about 20 KB)."""
MAX_CHECKPOINT_BYTES = 512 << 20
"""Largest total a checkpoint's entries may inflate to: 512 MiB (a shipped one inflates to under 1 MB). Checked on the
sizes the zip declares, which bound what :mod:`zipfile` will inflate, before any entry is read."""


def check_sizes(path: str | Path, archive: zipfile.ZipFile) -> None:
    """Refuse a checkpoint zip whose entries would inflate past the limits (a zip bomb), before reading any."""
    entries = archive.infolist()
    total = sum(entry.file_size for entry in entries)
    data = [entry.file_size for entry in entries if entry.filename == DATA_ENTRY]
    if data and data[0] > MAX_DATA_ENTRY_BYTES:
        raise CheckpointError(f"{path}: the '{DATA_ENTRY}' entry inflates to {data[0]:,} bytes, more than the "
                              f"{MAX_DATA_ENTRY_BYTES:,} a checkpoint's may")
    if total > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(f"{path}: its entries inflate to {total:,} bytes, more than the "
                              f"{MAX_CHECKPOINT_BYTES:,} a checkpoint's may")


def read_data(path: str | Path) -> dict[str, Any]:
    """The ``data`` JSON of an SB3 zip, undecoded (pickles stay base64 text), within the size limits
    (:func:`check_sizes`) and :data:`~issoku.rules.kernel.content.MAX_NESTING`."""
    from issoku.rules.kernel.content import parse_data_text

    try:
        with zipfile.ZipFile(path) as archive:
            check_sizes(path, archive)
            raw = archive.read(DATA_ENTRY)
        data = parse_data_text(raw, json.loads, MAX_DATA_ENTRY_BYTES)
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no such checkpoint") from None
    except IsADirectoryError:
        raise CheckpointError(f"{path}: is a directory, not a checkpoint zip") from None
    except (zipfile.BadZipFile, EOFError, OSError):
        raise CheckpointError(f"{path}: not a readable zip (truncated or not a checkpoint)") from None
    except KeyError:
        raise CheckpointError(f"{path}: no '{DATA_ENTRY}' entry (not an SB3 checkpoint)") from None
    except CheckpointError:
        raise
    except ValueError as error:
        why = "not JSON" if isinstance(error, json.JSONDecodeError) else str(error)
        raise CheckpointError(f"{path}: the '{DATA_ENTRY}' entry is {why}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path}: the '{DATA_ENTRY}' entry is not a JSON object")
    return data


def verify_zip(path: str | Path) -> None:
    """Check that ``path`` is a whole checkpoint zip (every entry's CRC, a readable ``data`` entry) without loading it."""
    read_data(path)
    try:
        with zipfile.ZipFile(path) as archive:
            damaged = archive.testzip()
    except (zipfile.BadZipFile, EOFError, OSError):
        raise CheckpointError(f"{path}: not a readable zip (truncated or not a checkpoint)") from None
    if damaged is not None:
        raise CheckpointError(f"{path}: entry {damaged!r} is damaged (CRC mismatch)")


def _space(path: Path, key: str, entry: dict[str, Any]) -> Any:
    """A Box or Discrete space rebuilt from the plain fields SB3 writes beside its pickle."""
    from gymnasium import spaces

    kind = str(entry.get(":type:", ""))
    try:
        if kind.endswith(".Discrete'>"):
            return spaces.Discrete(int(entry["n"]), start=int(entry.get("start", 0)))
        if kind.endswith(".Box'>"):
            dtype = np.dtype(str(entry["dtype"]))
            shape = tuple(int(size) for size in entry["_shape"])
            if np.issubdtype(dtype, np.integer):
                info = np.iinfo(dtype)
                return spaces.Box(info.min, info.max, shape, dtype)
            return spaces.Box(-np.inf, np.inf, shape, dtype)
    except (KeyError, TypeError, ValueError):
        pass
    raise CheckpointError(f"{path}: data field {key!r}: a {kind or 'space'} issoku cannot rebuild without unpickling")


def safe_custom_objects(path: str | Path, data: dict[str, Any], *, env: Any = None,
                        clip_range: float = 0.2) -> dict[str, Any]:
    """A replacement for every pickled value of ``data``; CheckpointError if one has none."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    path = Path(path)
    replacements: dict[str, Any] = {"policy_class": MaskableActorCriticPolicy, "rollout_buffer_class": None,
                                    "clip_range": clip_range, "lr_schedule": None,
                                    **{key: None for key in NOT_KEPT}}
    custom: dict[str, Any] = {}
    for key, value in data.items():
        if not (isinstance(value, dict) and SERIALIZED in value):
            continue
        if key in ("observation_space", "action_space"):
            custom[key] = getattr(env, key) if env is not None else _space(path, key, value)
        elif key in replacements:
            custom[key] = replacements[key]
        else:
            raise CheckpointError(f"{path}: data field {key!r} is a pickled object issoku does not load "
                                  "(a checkpoint not written by issoku train, or tampered with)")
    return custom


def load_model(path: str | Path, *, env: Any = None, clip_range: float = 0.2, **kwargs: Any) -> Any:
    """The MaskablePPO model in ``path`` (on the CPU), with nothing in the zip unpickled.

    ``env`` (a VecEnv or gym env) supplies the spaces when given (training resumes, fine-tuning);
    ``clip_range`` is the run's (from the checkpoint's JSON metadata). Raises :class:`CheckpointError`.
    """
    from sb3_contrib import MaskablePPO

    custom = safe_custom_objects(path, read_data(path), env=env, clip_range=clip_range)
    try:
        return MaskablePPO.load(path, env=env, device="cpu", custom_objects=custom, **kwargs)
    except (zipfile.BadZipFile, EOFError, KeyError, RuntimeError, pickle.UnpicklingError) as error:
        raise CheckpointError(f"{path}: cannot load the model ({type(error).__name__}: "
                              f"{str(error).splitlines()[0] if str(error) else 'damaged'})") from None


POLICY_ENTRY = "policy.pth"
ACTOR_PREFIX = "mlp_extractor.policy_net."


def actor_layers(path: str | Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """The dense layers of the checkpoint's actor, ``(weight (outputs, inputs), bias)`` in order: the policy MLP's
    (each followed by a tanh when played) and last the action head, read without torch or SB3.

    What playing needs and nothing more: the ``policy.pth`` tensors (:func:`issoku.agents.pth.read_tensors`, as
    strict as ``torch.load`` with ``weights_only``, which reads them only where that reader does not know the
    file's format) and the ``net_arch`` SB3 writes as plain JSON; no SB3 model, no optimizer, no ``import torch``
    (1.6–2.4 CPU seconds, which every process that played a checkpoint paid). The tensors are those of SB3's ``MlpPolicy``
    (``pi_features_extractor`` -> ``mlp_extractor.policy_net`` -> ``action_net``), so the logits are the same
    floats. A checkpoint built otherwise (other policy keyword arguments, layers or heads) raises
    :class:`NotPlainActorError`; use :func:`load_model` for it. Damaged or tampered files raise
    :class:`CheckpointError`.
    """
    from issoku.agents.pth import PthError, read_tensors

    path = Path(path)
    data = read_data(path)
    kwargs = data.get("policy_kwargs", {})
    if not isinstance(kwargs, dict) or set(kwargs) - {"net_arch"}:
        raise NotPlainActorError(f"{path}: policy_kwargs {sorted(kwargs) if isinstance(kwargs, dict) else kwargs!r} "
                                 "beyond net_arch: not a plain MlpPolicy actor")
    try:
        with zipfile.ZipFile(path) as archive:
            raw = archive.read(POLICY_ENTRY)
    except (KeyError, zipfile.BadZipFile, EOFError, OSError) as error:
        raise CheckpointError(f"{path}: cannot read {POLICY_ENTRY} ({type(error).__name__})") from None
    try:
        tensors = read_tensors(raw)
    except PthError:
        tensors = _torch_tensors(path, raw)
    hidden = sorted({int(key[len(ACTOR_PREFIX):].split(".")[0]) for key in tensors if key.startswith(ACTOR_PREFIX)})
    if hidden != list(range(0, 2 * len(hidden), 2)):
        raise NotPlainActorError(f"{path}: policy_net layers {hidden}: not Linear/Tanh pairs")
    names = [f"{ACTOR_PREFIX}{index}." for index in hidden] + ["action_net."]
    try:
        layers = [(tensors[f"{name}weight"], tensors[f"{name}bias"]) for name in names]
    except KeyError as error:
        raise NotPlainActorError(f"{path}: {POLICY_ENTRY} lacks {error.args[0]!r}: not a plain MlpPolicy actor") from None
    for (weight, bias), (following, _) in zip(layers, layers[1:] + [(None, None)]):
        if weight.ndim != 2 or bias.shape != weight.shape[:1] or (following is not None
                                                                   and following.shape[1:] != weight.shape[:1]):
            raise CheckpointError(f"{path}: {POLICY_ENTRY} layers of shapes that do not chain")
    return layers


def _torch_tensors(path: Path, raw: bytes) -> dict[str, np.ndarray]:
    """``policy.pth`` read by torch itself (``weights_only``: tensors only), for a format :mod:`issoku.agents.pth`
    does not know (a later torch's, say)."""
    import io

    import torch

    try:
        tensors = torch.load(io.BytesIO(raw), weights_only=True, map_location="cpu")
        return {key: value.numpy() for key, value in tensors.items()}
    except (EOFError, OSError, RuntimeError, pickle.UnpicklingError, AttributeError, TypeError) as error:
        raise CheckpointError(f"{path}: cannot read {POLICY_ENTRY} ({type(error).__name__})") from None


def load_actor(path: str | Path) -> Any:
    """The actor of :func:`actor_layers` as ``torch.nn.Sequential`` (flatten, the policy MLP with its tanh layers,
    the action head): ``observations (B, obs) -> logits (B, actions)``, in evaluation mode, gradients off: what
    ONNX export and torch-side checks use (playing runs the same layers in numpy)."""
    import torch

    dense = actor_layers(path)
    layers: list[Any] = [torch.nn.Flatten()]
    for index, (weight, bias) in enumerate(dense, start=1):
        linear = torch.nn.Linear(weight.shape[1], weight.shape[0], device="meta")
        linear.weight = torch.nn.Parameter(torch.from_numpy(weight), False)
        linear.bias = torch.nn.Parameter(torch.from_numpy(bias), False)
        layers += [linear, torch.nn.Tanh()] if index < len(dense) else [linear]
    return torch.nn.Sequential(*layers).eval()
