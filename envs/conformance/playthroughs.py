"""``python -m issoku.envs.conformance.playthroughs [--update]``: golden playthrough files, one per env and config.

A playthrough (after OpenSpiel's) is a seeded random-legal episode written out decision by decision:
who decides, how many actions are legal, a digest of the observation, the action played by name,
and the rewards; then the returns. ``tests/playthroughs/<config>.txt`` hold them; the test suite
compares a fresh transcript with each file, so any change of behaviour (rules, observations,
masks, rewards) shows up in review as a diff of the file. After a deliberate change, regenerate them
all with ``python -m issoku.envs.conformance.playthroughs --update`` and commit the diff with the change.

Beside each hash file, ``tests/playthroughs/<config>.readable.txt`` writes the same episode's first
:data:`READABLE_DECISIONS` decisions out for a reader, after OpenSpiel's playthroughs: the ruleset's text
picture of the state, the deciding agent's observation by named field (every field at its first decision, the
all-zero ones on one line; after that the fields that changed since its last decision, before -> after), the
legal actions by name, the action played and the rules' events it caused, each with its rule ID.
A change of behaviour then shows in review as a diff of what changed, not only that a hash did. The tests
compare both files; ``--update`` rewrites both.

The configs are :data:`issoku.envs.conformance.fuzz.CONFIGS`.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from pathlib import Path

import numpy as np

from issoku.envs.conformance.fuzz import CONFIGS, make_config
from issoku.envs.adapter import picture_of

FOLDER = Path(__file__).resolve().parents[2] / "tests" / "playthroughs"
SEED = 0
MAX_LINES = 400
"""Decisions transcribed at most (a 4v4 skirmish runs long); the returns line follows either way."""
READABLE_DECISIONS = 20
"""Decisions written out in full in the readable file (the hash file goes on to :data:`MAX_LINES`)."""


def transcript(name: str, seed: int = SEED) -> str:
    """The playthrough of config ``name`` with episode seed ``seed`` (the policy draws from ``seed`` too)."""
    env_id, kwargs = CONFIGS[name]
    env = make_config(name)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    names = env.unwrapped.action_names
    lines = [f"# playthrough of {env_id} {kwargs} seed {seed} (python -m issoku.envs.conformance.playthroughs --update)"]
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


def _values(values: np.ndarray) -> str:
    return " ".join(f"{float(v):.4g}" for v in values)


def readable_transcript(name: str, seed: int = SEED, decisions: int = READABLE_DECISIONS) -> str:
    """The first ``decisions`` decisions of :func:`transcript`'s episode, written out for a reader."""
    env_id, kwargs = CONFIGS[name]
    env = make_config(name)
    env.unwrapped.record_events = True
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    raw = env.unwrapped
    names, spec, agents = raw.action_names, raw.ruleset.observation_spec, list(env.possible_agents)
    lines = [f"# readable playthrough of {env_id} {kwargs} seed {seed}: the first {decisions} decisions of "
             f"{name}.txt (python -m issoku.envs.conformance.playthroughs --update)"]
    lines += ["", "## before the first decision"] + ["  " + e.describe(agents) for e in env.game_state.events]
    made = 0
    seen: dict[str, dict[str, np.ndarray]] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        if made >= decisions:
            break
        state = env.game_state
        lines.append("")
        lines.append(f"## {made} {agent} ({state.decision_kind()}) reward {reward:+g}")
        picture = picture_of(raw.ruleset, state)
        if picture is not None:
            lines.append("state:")
            lines += ["  " + line.rstrip() for line in picture.splitlines()]
        fields = spec.unpack(observation["observation"])
        before = seen.get(agent)
        seen[agent] = {field: values.copy() for field, values in fields.items()}
        if before is None:
            lines.append(f"observation ({agent}'s first, every field):")
            zero = [field for field, values in fields.items() if not values.any()]
            lines += [f"  {field}: {_values(values)}" for field, values in fields.items() if values.any()]
            if zero:
                lines.append(f"  all zero: {' '.join(zero)}")
        else:
            changed = [field for field, values in fields.items() if not np.array_equal(values, before[field])]
            lines.append(f"observation (the fields changed since {agent}'s last decision; "
                         f"{len(fields) - len(changed)} unchanged):")
            lines += [f"  {field}: {_values(before[field])} -> {_values(fields[field])}" for field in changed]
        lines.append(f"legal ({len(legal)}): {' '.join(names[a] for a in legal)}")
        lines.append(f"-> {names[action]}")
        start = len(state.events)
        env.step(action)
        made += 1
        lines += ["  " + event.describe(agents) for event in env.game_state.events.since(start)]
    env.close()
    return "\n".join(lines) + "\n"


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.txt"


def readable_path_of(name: str) -> Path:
    return FOLDER / f"{name}.readable.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m issoku.envs.conformance.playthroughs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the files instead of comparing")
    args = parser.parse_args(argv)
    changed = 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in CONFIGS:
        for fresh, path in ((transcript(name), path_of(name)), (readable_transcript(name), readable_path_of(name))):
            old = path.read_text() if path.is_file() else ""
            if fresh == old:
                continue
            changed += 1
            if args.update:
                path.write_text(fresh)
                print(f"updated {path}")
            else:
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), fresh.splitlines(True), str(path),
                                                           "now"))
    print(f"{len(CONFIGS)} playthroughs (a hash file and a readable file each), {changed} "
          f"{'updated' if args.update else 'differ'}")
    return 0 if args.update or not changed else 1


if __name__ == "__main__":
    sys.exit(main())
