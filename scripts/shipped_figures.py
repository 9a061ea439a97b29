"""Write the shipped learned agents' figures to docs/results/shipped_agents.md (docs/training.md points there).

For each duel: the observation ablation (``issoku.agents.ablation``, its default 100 games), the lowest of its scores
against the strongest scripted agents, its score against the first shipped agent (``training/configs/opponents/``), and
the agent against itself (how many of its duels reach the round limit undecided), each over seeded duels with seats
swapped, as ``issoku head-to-head`` plays them. Run from the repository root:

    python scripts/shipped_figures.py            # 400 duels per pairing, about a minute on one core
    python scripts/shipped_figures.py --duels 1000 --out -

A checkpoint given with ``--agent ENV=PATH`` is measured in place of that duel's shipped agent (a candidate); the
table is then printed, not written over the shipped agents' file, unless ``--out`` names one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from issoku.agents.ablation import measure_ablation
from issoku.agents.checkpoint import CheckpointPolicy
from issoku.envs.registry import make_env
from issoku.evaluation.strength.head_to_head import IN_MEMORY, head_to_head
from issoku.evaluation.games.policies import shipped_checkpoints
from issoku.evaluation.strength.skill_ladder import results_header
from issoku.training.config import CONFIGS_DIR

STRONGEST_SCRIPTED = {"breath_duel_v0": ("ma_heuristic",),
                      "tempo_duel_v0": ("tempo_feint_counter", "tempo_heuristic", "tempo_combat_approach"),
                      "encounter_duel_v0": ("encounter_heuristic", "encounter_fire", "encounter_water")}
"""The scripted agents each duel's learned agent is judged against: the strongest by the balance report's Elo (the
tempo feint-counter rates above the tempo heuristic; the fire and water stances rate level with the encounter
heuristic), and the tempo combat approach, which beats the feint-counter (it is not in the report's field). The row
shows the one the agent scores least against."""
FIRST_AGENTS = {"breath_duel_v0": "breath_duel_v0_blind.zip", "tempo_duel_v0": "tempo_duel_v0_blind.zip",
                "encounter_duel_v0": "encounter_duel_v0_first.zip"}
"""The first shipped agents, kept as training opponents."""
OUT = Path("docs/results/shipped_agents.md")


def score(result) -> str:
    """``72.5 % [67.9 %, 76.6 %]``: the agent's score (a draw counts half) with its 95 % interval."""
    rate = result.total.score_rate(0.95)
    return f"{rate.value * 100:.1f} % [{rate.low * 100:.1f} %, {rate.high * 100:.1f} %]"


def row(env_id: str, checkpoint: Path, duels: int) -> str:
    """One duel's table row."""
    ablation = measure_ablation(CheckpointPolicy(checkpoint), make_env(env_id))
    agent = f"agent={checkpoint}"
    scripted = min(((name, head_to_head(agent, name, duels, env=env_id, workers=0, db=IN_MEMORY))
                    for name in STRONGEST_SCRIPTED[env_id]), key=lambda pair: pair[1].total.score_rate(0.95).value)
    first = head_to_head(agent, f"first={CONFIGS_DIR / 'opponents' / FIRST_AGENTS[env_id]}", duels, env=env_id,
                         workers=0, db=IN_MEMORY)
    itself = head_to_head(agent, f"twin={checkpoint}", duels, env=env_id, workers=0, db=IN_MEMORY)
    blind = " (state-blind)" if ablation.state_blind else ""
    return (f"| `{env_id}` | {ablation.share * 100:.1f} %{blind} | `{scripted[0]}` {score(scripted[1])} | "
            f"{score(first)} | {itself.truncated} of {duels} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=400, help="duels per pairing (seats swapped)")
    parser.add_argument("--agent", action="append", default=[], help="ENV=CHECKPOINT measured instead of the shipped one")
    parser.add_argument("--out", default=None, help=f"Where to write (default {OUT}; with --agent, -: prints).")
    options = parser.parse_args()
    checkpoints = dict(shipped_checkpoints())
    checkpoints.update(dict(entry.split("=", 1) for entry in options.agent))
    command = " ".join(["python scripts/shipped_figures.py", *(["--duels", str(options.duels)] if options.duels != 400 else []),
                        *[f"--agent {entry}" for entry in options.agent]])
    lines = [results_header(command), "| duel | decisions changed on a zeroed observation | against the strongest "
             "scripted agents (the lowest score) | against the first shipped agent | against itself: round-limit draws |",
             "| --- | ---: | --- | --- | ---: |"]
    lines += [row(env_id, Path(checkpoints[env_id]), options.duels) for env_id in sorted(checkpoints)]
    out = options.out or ("-" if options.agent else str(OUT))
    if out == "-":
        print("\n".join(lines))
    else:
        Path(out).write_text("\n".join(lines) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
