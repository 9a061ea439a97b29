"""A game's side of an exported issoku opponent: no issoku, no torch, only numpy and onnxruntime.

The game sends one JSON object per line on standard input whenever the opponent must decide::

    {"observation": [0.0, 1.0, ...], "action_mask": [0, 1, 1, 0, ...]}

and reads one JSON object per line back: ``{"action": 17, "name": "attack:straight_thrust:torso"}``.
The observation and mask are what issoku's env gives the opponent's seat (``observation["observation"]``
and ``observation["action_mask"]``). A game engine of its own builds the same vector from its own game values
and the manifest's ``observation.fields``: :func:`observation_from_values` is that reading, the reference a port
in C# or C++ follows. ``--check`` holds it, the model and the mask to the export's golden vectors (positions of
seeded games described by their game values, with the observation, mask and action issoku computed). Run it as::

    issoku export runs/reference_breath_duel/checkpoints/step_000001003520.zip --out opponent/
    python examples/exported_opponent.py opponent/ --check
    python examples/exported_opponent.py opponent/ < states.jsonl

``--sample --temperature 1.5 --seed 3`` plays a weaker, more varied opponent.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime


def part_floats(part: dict, value) -> list[float]:
    """One part's floats from its game value (the rules of ``observation.fields[].encoding.parts[]``)."""
    if part["kind"] == "one_hot":  # a category name, or null for none: one 1.0 at its index
        row = [0.0] * len(part["categories"])
        if value is not None:
            row[part["categories"].index(value)] = 1.0
        return row
    if part["kind"] == "flag":
        return [1.0 if value else 0.0]
    if part["kind"] == "ratio":  # [x, y] -> x / y, 0 where y is 0
        numerator, denominator = value
        q = numerator / denominator if denominator else 0.0
    else:  # scaled: x / divisor
        q = value / part["divisor"]
    if part["clip"] is not None:
        low, high = part["clip"]
        q = min(high, max(low, q))
    return [q]


def observation_from_values(fields: list[dict], values: dict) -> np.ndarray:
    """The observation that a position's game values make: per field, per slot (``slots`` in order, or once), each
    part's floats in order, computed in double precision and stored as float32. ``None`` for a field or a slot
    is all zeros (nothing there)."""
    out = np.zeros(max(row["stop"] for row in fields), dtype=np.float32)
    for row in fields:
        encoding, given = row["encoding"], values[row["name"]]
        if encoding["slots"]:
            slots = given if given is not None else [None] * len(encoding["slots"])
        else:
            slots = [given]
        floats: list[float] = []
        for slot in slots:
            for part in encoding["parts"]:
                width = len(part["categories"]) if part["kind"] == "one_hot" else 1
                floats += [0.0] * width if slot is None else part_floats(part, slot[part["name"]])
        if len(floats) != row["stop"] - row["start"]:
            raise ValueError(f"{row['name']}: the values make {len(floats)} floats, the field holds "
                             f"{row['stop'] - row['start']}")
        out[row["start"]:row["stop"]] = floats
    return out


def check_golden(manifest: dict, session) -> int:
    """Rebuild every golden vector's observation from its game values, run the model on it with its mask, and
    compare with what issoku computed; print one line per position, return the number that differ."""
    fields, failed = manifest["observation"]["fields"], 0
    for number, golden in enumerate(manifest["golden_vectors"]):
        observation = observation_from_values(fields, golden["values"])
        mask = np.asarray(golden["action_mask"], dtype=np.float32)
        (probabilities,) = session.run(["probabilities"], {"observation": observation[None], "action_mask": mask[None]})
        action = int(np.argmax(probabilities[0]))
        same_observation = observation.tobytes() == np.asarray(golden["observation"], dtype=np.float32).tobytes()
        ok = same_observation and action == golden["action"] and probabilities[0][mask == 0].max(initial=0.0) == 0.0
        failed += not ok
        print(f"golden {number}: observation {'equal' if same_observation else 'DIFFERS'}, action {action} "
              f"(issoku: {golden['action']}) {'ok' if ok else 'FAILED'}")
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="an export folder (manifest.json + policy.onnx)")
    parser.add_argument("--sample", action="store_true", help="sample instead of playing the most probable action")
    parser.add_argument("--temperature", type=float, default=1.0, help="with --sample: > 1 flattens, < 1 sharpens")
    parser.add_argument("--seed", type=int, default=0, help="with --sample: the sampling seed")
    parser.add_argument("--check", action="store_true", help="check the port against the export's golden vectors")
    args = parser.parse_args()

    manifest = json.loads((args.folder / "manifest.json").read_text())
    session = onnxruntime.InferenceSession(str(args.folder / manifest["model"]), providers=["CPUExecutionProvider"])
    names = manifest["action_names"]
    size = manifest["observation"]["size"]
    rng = np.random.default_rng(args.seed)
    if args.check:
        sys.exit(1 if check_golden(manifest, session) else 0)

    for line in sys.stdin:
        if not line.strip():
            continue
        state = json.loads(line)
        observation = np.asarray(state["observation"], dtype=np.float32).reshape(1, size)
        mask = np.asarray(state["action_mask"], dtype=np.float32).reshape(1, len(names))
        (probabilities,) = session.run(["probabilities"], {"observation": observation, "action_mask": mask})
        probabilities = probabilities[0].astype(np.float64)
        if args.sample:
            weights = np.where(mask[0] > 0, probabilities ** (1.0 / args.temperature), 0.0)
            action = int(rng.choice(len(names), p=weights / weights.sum()))
        else:
            action = int(np.argmax(probabilities))
        print(json.dumps({"action": action, "name": names[action]}), flush=True)


if __name__ == "__main__":
    main()
