"""``python -m benchmarks.playthroughs [--update]``: golden playthrough files, one per env and config.

A playthrough (after OpenSpiel's) is a seeded random-legal episode written out decision by decision:
who decides, how many actions are legal, a digest of the observation, the action played by name,
and the rewards; then the returns. ``tests/playthroughs/<config>.txt`` hold them; the test suite
compares a fresh transcript with each file, so any change of behaviour (rules, observations,
masks, rewards) shows up in review as a diff of the file. After a deliberate change, regenerate them
all with ``python -m benchmarks.playthroughs --update`` and commit the diff with the change.

The configs are :data:`benchmarks.fuzz.CONFIGS`.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from pathlib import Path

import numpy as np

from benchmarks.fuzz import CONFIGS, make_config

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
SEED = 0
MAX_LINES = 400
"""Decisions transcribed at most (a 4v4 skirmish runs long); the returns line follows either way."""


def transcript(name: str, seed: int = SEED) -> str:
    """The playthrough of config ``name`` with episode seed ``seed`` (the policy draws from ``seed`` too)."""
    env_id, kwargs = CONFIGS[name]
    env = make_config(name)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    names = env.unwrapped.action_names
    lines = [f"# playthrough of {env_id} {kwargs} seed {seed} (python -m benchmarks.playthroughs --update)"]
    decisions = 0
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        if decisions < MAX_LINES:
            digest = hashlib.sha256(np.ascontiguousarray(observation["observation"]).tobytes()).hexdigest()[:12]
            lines.append(f"{decisions:>4} {agent} legal={len(legal)} obs={digest} reward={reward:+g} -> {names[action]}")
        env.step(action)
        decisions += 1
    lines.append(f"end after {decisions} decisions: returns {list(env.game_state.returns())} rewards {rewards}")
    env.close()
    return "\n".join(lines) + "\n"


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.playthroughs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the files instead of comparing")
    args = parser.parse_args(argv)
    changed = 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in CONFIGS:
        fresh, path = transcript(name), path_of(name)
        old = path.read_text() if path.is_file() else ""
        if fresh == old:
            continue
        changed += 1
        if args.update:
            path.write_text(fresh)
            print(f"updated {path}")
        else:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), fresh.splitlines(True), str(path), "now"))
    print(f"{len(CONFIGS)} playthroughs, {changed} {'updated' if args.update else 'differ'}")
    return 0 if args.update or not changed else 1


if __name__ == "__main__":
    sys.exit(main())
