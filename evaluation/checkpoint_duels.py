"""Seeded duels of a trained checkpoint against one scripted agent, seats swapped, with a Wilson interval.

This is how a trained agent's strength is stated (``issoku evaluate``, the reference agent in
docs/training.md): duel ``2k`` and ``2k + 1`` play the same fight seed (the same dice and, for a run
with randomized loadouts, the same matchup) with the checkpoint in seat 0 and then in seat 1, so
neither a seat advantage nor a lucky draw of matchups favours it. The env is rebuilt from the
checkpoint's own metadata and refused if the rules changed since it was trained. The checkpoint plays
its most probable legal action; the scripted agent is seeded, so the same arguments give the same
result.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from issoku.agents.checkpoint import CheckpointPolicy, check_compatible, read_metadata
from issoku.evaluation.match import play_match
from issoku.training.config import checkpoint_config
from issoku.training.make_env import env_identity, make_config_env, ruleset_of
from issoku.training.opponents import scripted_policy
from issoku.training.outcomes import Tally

DEFAULT_SEED = 20_000_003
"""Base fight seed of the evaluation duels, far from the seeds a training run draws."""


def _learner_first(matchup: str, learner_seat: int) -> str:
    """A matchup label ``"a vs b"`` (seat order) as the checkpoint's fighter vs its opponent's."""
    sides = matchup.split(" vs ")
    return " vs ".join(sides[::-1]) if learner_seat == 1 and len(sides) == 2 else matchup


def duel_checkpoint(checkpoint: str | Path, opponent: str, duels: int = 1000, seed: int = DEFAULT_SEED, *,
                    allow_imports: bool = False) -> dict[str, Any]:
    """``duels`` seeded duels of ``checkpoint`` against scripted ``opponent`` (a registry name or import path).

    Returns the totals (wins, draws, losses, win rate and its 95 % Wilson interval), the same per seat
    of the checkpoint and, for a run with randomized loadouts, per matchup (the checkpoint's fighter first).
    The env the checkpoint's metadata names may be an import path only with ``allow_imports``.
    """
    if duels < 1:
        raise ValueError(f"duels must be at least 1, not {duels}")
    metadata = read_metadata(checkpoint)
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    learner = CheckpointPolicy(checkpoint, deterministic=True)  # a damaged zip is named before the env is built
    env = make_config_env(config)
    check_compatible(metadata, env_identity(env, config.env_id), what=f"checkpoint {checkpoint}")
    scripted = scripted_policy(opponent, seed, ruleset_of(env))
    seats = len(env.possible_agents)
    outcomes: list[float] = []
    by_seat: dict[int, list[float]] = defaultdict(list)
    by_matchup: dict[str, list[float]] = defaultdict(list)
    for duel in range(duels):
        fight_seed, learner_seat = seed + duel // 2, duel % 2
        policies = [learner if seat == learner_seat else scripted for seat in range(seats)]
        names = ["checkpoint" if seat == learner_seat else opponent for seat in range(seats)]
        record = play_match(env, policies, fight_seed, key=f"{fight_seed}:{learner_seat}", loadout="",
                            loadout_kwargs={}, policy_names=names)
        outcome = record.returns[learner_seat]
        outcomes.append(outcome)
        by_seat[learner_seat].append(outcome)
        matchup = getattr(env.unwrapped, "matchup", None)
        if matchup is not None:
            by_matchup[_learner_first(matchup, learner_seat)].append(outcome)
    env.close()
    return {
        "checkpoint": str(checkpoint), "steps": metadata.get("steps"), "env_id": config.env_id,
        "opponent": opponent, "seed": seed, **Tally.of_returns(outcomes).as_dict(),
        "by_seat": {str(seat): Tally.of_returns(values).as_dict() for seat, values in sorted(by_seat.items())},
        "by_matchup": {name: Tally.of_returns(values).as_dict() for name, values in sorted(by_matchup.items())},
    }
