"""``issoku export``: a trained checkpoint as an opponent a game can embed (ONNX graph + JSON manifest).

The graph takes the flat observation and the 0/1 action mask, both float32 with a batch axis, and
returns the masked action probabilities (zero on every masked-out action): the mask is applied inside
the graph, so a game cannot forget it. The manifest says what the graph was trained for (env id and
version, rules fingerprint, interface digest), what each action number means (action names in order),
what each observation element is (named slices, and what fills each from game values: meaning, scale, category
and slot order), and how to call it; its golden vectors (positions of seeded games described by their game
values, with the observation, mask and action) let a port in another language check itself. See
``docs/opponents.md``. It also records whether the policy reads its observation at all (``ablation``,
:mod:`issoku.agents.ablation`): a state-blind export plays a fixed preference order over legal moves, whatever
the position.

Everything about the checkpoint is checked before anything is written: its metadata must match the env
rebuilt from its own config, exactly as ``issoku evaluate`` checks it.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.ablation import DEFAULT_GAMES, Ablation, measure_ablation
from issoku.agents.checkpoint import CheckpointPolicy, check_compatible, check_network_fits, read_metadata
from issoku.agents.exported import FORMAT, FORMAT_VERSION, INPUTS, MANIFEST, MODEL, OUTPUT, model_digest
from issoku.training.checkpoints import atomic_write, atomic_write_json, library_versions
from issoku.training.config import TrainConfig, checkpoint_config
from issoku.training.make_env import action_names, env_identity, make_config_env, ruleset_of

OPSET = 18
GOLDEN_GAMES = 3
GOLDEN_PER_GAME = 2
"""Golden vectors in an export: this many positions from each of this many seeded games."""


def observation_schema(env: Any) -> list[dict[str, Any]] | None:
    """The observation's named slices ``{name, start, stop, low, high, encoding}``, or None for a foreign env.

    ``encoding`` is what fills the slice from game values (:meth:`~issoku.rules.kernel.encoding.FieldEncoding.as_dict`:
    meaning, slots, parts with their scales and category orders), or None where the ruleset does not describe it."""
    spec = getattr(ruleset_of(env), "observation_spec", None)
    if spec is None:
        return None
    encodings = spec.encodings or (None,) * len(spec.fields)
    rows, start = [], 0
    for (name, size, low, high), encoding in zip(spec.fields, encodings):
        rows.append({"name": name, "start": start, "stop": start + size, "low": float(low), "high": float(high),
                     "encoding": None if encoding is None else encoding.as_dict()})
        start += size
    return rows


def golden_vectors(env: Any, model: bytes, *, games: int = GOLDEN_GAMES,
                   per_game: int = GOLDEN_PER_GAME) -> list[dict[str, Any]]:
    """Positions a port checks itself against: from each of ``games`` seeded games of random legal play (seeds 0,
    1, ...), ``per_game`` decisions spread over the fight, each with the deciding seat's game values (``values``,
    in the manifest's encoding terms; None where the ruleset does not describe them), the observation and mask the
    env gives, and the action and probabilities the exported graph returns for them (run by onnxruntime, as a game
    runs it)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    names = action_names(env)
    golden = []
    for seed in range(games):
        positions = list(seeded_decisions(env, seed))
        for index in (len(positions) * (k + 1) // (per_game + 1) for k in range(per_game)):
            decision, agent, values, observation, mask = positions[index]
            (probabilities,) = session.run([OUTPUT], {"observation": observation[None], "action_mask": mask[None]})
            action = int(np.argmax(probabilities[0]))
            golden.append({"game_seed": seed, "decision": decision, "agent": agent, "values": values,
                           "observation": [float(x) for x in observation],
                           "action_mask": [int(x) for x in mask], "action": action, "action_name": names[action],
                           "probabilities": [float(x) for x in probabilities[0]]})
    return golden


def seeded_decisions(env: Any, seed: int) -> Iterator[tuple[int, str, dict[str, Any] | None, np.ndarray, np.ndarray]]:
    """Every decision of one game of random legal play seeded by ``seed``: ``(number, agent, game values,
    observation, mask)``, the values JSON-ready (a manifest holds them)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    number = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = np.asarray(observation["action_mask"], dtype=np.float32)
        ruleset = ruleset_of(env)  # None for a foreign env: no game values
        describe = getattr(getattr(env.unwrapped, "game_state", None), "describe_observation", None)
        encodings = getattr(getattr(ruleset, "observation_spec", None), "encodings", None)
        values = (json.loads(json.dumps(describe(ruleset.seat_names.index(agent)), default=_plain))
                  if describe is not None and encodings is not None else None)
        yield number, agent, values, np.asarray(observation["observation"], dtype=np.float32), mask
        number += 1
        env.step(int(rng.choice(np.flatnonzero(mask))))


def _plain(value: Any) -> Any:
    """A numpy scalar in a position's game values as the JSON number or truth value it stands for."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not a game value a manifest can hold")


def build_manifest(metadata: dict[str, Any], env: Any, config: TrainConfig, model: bytes,
                   ablation: Ablation) -> dict[str, Any]:
    """The manifest of an export: identity, actions, observation schema, calling convention, observation ablation,
    provenance."""
    first = env.possible_agents[0]
    size = int(np.prod(env.observation_space(first)["observation"].shape))
    identity = env_identity(env, config.env_id)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **identity,
        "action_names": list(action_names(env)),
        "observation": {"size": size, "dtype": "float32", "fields": observation_schema(env)},
        "inputs": {"observation": ["batch", size], "action_mask": ["batch", len(action_names(env))]},
        "outputs": {OUTPUT: ["batch", len(action_names(env))]},
        "mask": "action_mask[i] = 1.0 where action i is legal, else 0.0; the graph gives masked-out actions "
                "probability 0. Feed the mask the env gives (observation['action_mask']); never an all-zero mask.",
        "choose": "deterministic play: argmax of probabilities; sampling: draw from probabilities (optionally "
                  "raised to 1/temperature and renormalised over legal actions).",
        "model": MODEL,
        "model_sha256": model_digest(model),
        "opset": OPSET,
        "ablation": ablation.as_dict(),
        "golden_vectors": golden_vectors(env, model),
        "checkpoint": {"steps": metadata.get("steps"), "seed": metadata.get("seed"), "config": metadata.get("config")},
        "exported_with": library_versions(),
    }


def export_checkpoint(checkpoint: str | Path, out: str | Path, *, allow_imports: bool = False,
                      ablation_games: int = DEFAULT_GAMES) -> Path:
    """Write ``out/policy.onnx`` and ``out/manifest.json`` for ``checkpoint``; return the manifest's path.

    The env the checkpoint's metadata names may be an import path only with ``allow_imports``. The manifest
    records the checkpoint's observation ablation on its training env, over ``ablation_games`` games.

    Raises ``CheckpointMismatchError`` when the checkpoint no longer matches its env (the rules changed)
    and ``ValueError`` for an observation the export cannot describe (only a flat Box is supported).
    """
    import torch

    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {folder}: is a file, not a folder")
    if not Path(checkpoint).is_file():
        raise FileNotFoundError(f"checkpoint {checkpoint}: no such file")
    metadata = read_metadata(checkpoint)
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    env = make_config_env(config)
    check_compatible(metadata, env_identity(env, config.env_id), what=f"checkpoint {checkpoint}")
    check_network_fits(checkpoint, env)
    env.reset(seed=0)
    space = env.observation_space(env.possible_agents[0])["observation"]
    if len(space.shape) != 1:
        raise ValueError(f"checkpoint {checkpoint}: only flat observations can be exported, not shape {space.shape}")
    policy = CheckpointPolicy(checkpoint)
    ablation = measure_ablation(policy, env, games=ablation_games)
    actor = policy.masked_actor()
    example = (torch.zeros((2, space.shape[0]), dtype=torch.float32),
               torch.ones((2, len(action_names(env))), dtype=torch.float32))
    model = _onnx_bytes(torch, actor, example)
    atomic_write(folder / MODEL, lambda file: file.write(model))
    manifest = build_manifest(metadata, env, config, model, ablation)
    atomic_write_json(folder / MANIFEST, manifest)
    return folder / MANIFEST


def _onnx_bytes(torch: Any, actor: Any, example: tuple[Any, Any]) -> bytes:
    """The actor traced by torch's exporter (``torch.export``, batch axis dynamic) as ONNX bytes.

    The exporter reports its own progress and missing optional libraries (torchvision) through logging
    and warnings; none of it concerns a policy network, so it is silenced for the call.
    """
    batch = torch.export.Dim("batch")
    loggers = [logging.getLogger(name) for name in ("torch.onnx", "torch._dynamo", "torch.export")]
    levels = [logger.level for logger in loggers]
    try:
        for logger in loggers:
            logger.setLevel(logging.ERROR)
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            program = torch.onnx.export(actor, example, input_names=list(INPUTS), output_names=[OUTPUT],
                                        dynamic_shapes=({0: batch}, {0: batch}), opset_version=OPSET,
                                        dynamo=True, verbose=False)
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
    buffer = io.BytesIO()
    program.save(buffer)
    return buffer.getvalue()


def describe(manifest_path: Path) -> str:
    """A short human summary of an export (for the command's output)."""
    manifest = json.loads(manifest_path.read_text())
    described = all(row["encoding"] is not None for row in manifest["observation"]["fields"] or [{"encoding": None}])
    return (f"{manifest_path.parent}: {manifest['env_id']} v{manifest['env_version']}, "
            f"{len(manifest['action_names'])} actions, observation {manifest['observation']['size']} floats "
            f"({'each field encoding described' if described else 'field encodings not described'}), "
            f"{len(manifest['golden_vectors'])} golden vectors, "
            f"rules {manifest['rules_fingerprint']}, interface {manifest['interface']}; "
            f"{Ablation.from_dict(manifest['ablation']).describe()}")
