"""A game's side of an exported issoku opponent: no issoku, no torch, only numpy and onnxruntime.

The game sends one JSON object per line on standard input whenever the opponent must decide::

    {"observation": [0.0, 1.0, ...], "action_mask": [0, 1, 1, 0, ...]}

and reads one JSON object per line back: ``{"action": 17, "name": "attack:straight_thrust:torso"}``.
The observation and mask are what issoku's env gives the opponent's seat (``observation["observation"]``
and ``observation["action_mask"]``); a game engine of its own would build the same vector from the
manifest's named slices. Run it as::

    issoku export runs/reference_breath_duel/checkpoints/step_000001003520.zip --out opponent/
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="an export folder (manifest.json + policy.onnx)")
    parser.add_argument("--sample", action="store_true", help="sample instead of playing the most probable action")
    parser.add_argument("--temperature", type=float, default=1.0, help="with --sample: > 1 flattens, < 1 sharpens")
    parser.add_argument("--seed", type=int, default=0, help="with --sample: the sampling seed")
    args = parser.parse_args()

    manifest = json.loads((args.folder / "manifest.json").read_text())
    session = onnxruntime.InferenceSession(str(args.folder / manifest["model"]), providers=["CPUExecutionProvider"])
    names = manifest["action_names"]
    size = manifest["observation"]["size"]
    rng = np.random.default_rng(args.seed)

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
