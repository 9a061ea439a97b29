"""Seeded duels of a trained checkpoint against one scripted agent, seats swapped, with a Wilson interval.

This is how a trained agent's strength is stated (``issoku evaluate``, the reference agent in
docs/training.md): duel ``2k`` and ``2k + 1`` play the same fight seed (the same dice and, for a run
with randomized loadouts, the same matchup) with the checkpoint in seat 0 and then in seat 1, so
neither a seat advantage nor a lucky draw of matchups favours it. The env is rebuilt from the
checkpoint's own metadata and refused if the rules changed since it was trained. The checkpoint plays
its most probable legal action; the scripted agent of each duel is seeded from the duel's fight seed
and seat (as in a tournament), so the same arguments give the same result and a duel's result depends
on its own seed only. The duels are played in lockstep (:func:`~issoku.evaluation.match.play_matches`):
the checkpoint decides for all running duels in one forward pass.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from issoku.agents.checkpoint import CheckpointPolicy, check_compatible, read_metadata
from issoku.evaluation.match import MatchGame, lockstep_width, play_matches
from issoku.evaluation.tournament import policy_seed
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
    scripted_policy(opponent, seed, ruleset_of(env))  # an unknown opponent is named before any duel is played
    seats = len(env.possible_agents)
    games = []
    for duel in range(duels):
        fight_seed, learner_seat = seed + duel // 2, duel % 2
        policies = tuple(learner if seat == learner_seat else  # deterministic: no state, one object serves all
                         scripted_policy(opponent, policy_seed(fight_seed, seat), ruleset_of(env))
                         for seat in range(seats))
        names = tuple("checkpoint" if seat == learner_seat else opponent for seat in range(seats))
        games.append(MatchGame(policies, fight_seed, f"{fight_seed}:{learner_seat}", "", {}, names))
    matchups: dict[int, str | None] = {}
    envs = [env] + [make_config_env(config) for _ in range(lockstep_width(games) - 1)]
    records = play_matches(envs, games, started=lambda index, played: matchups.__setitem__(
        index, getattr(played.unwrapped, "matchup", None)))
    for each in envs:
        each.close()
    outcomes: list[float] = []
    by_seat: dict[int, list[float]] = defaultdict(list)
    by_matchup: dict[str, list[float]] = defaultdict(list)
    for duel, record in enumerate(records):
        learner_seat = duel % 2
        outcome = record.returns[learner_seat]
        outcomes.append(outcome)
        by_seat[learner_seat].append(outcome)
        matchup = matchups[duel]
        if matchup is not None:
            by_matchup[_learner_first(matchup, learner_seat)].append(outcome)
    return {
        "checkpoint": str(checkpoint), "steps": metadata.get("steps"), "env_id": config.env_id,
        "opponent": opponent, "seed": seed, **Tally.of_returns(outcomes).as_dict(),
        "by_seat": {str(seat): Tally.of_returns(values).as_dict() for seat, values in sorted(by_seat.items())},
        "by_matchup": {name: Tally.of_returns(values).as_dict() for name, values in sorted(by_matchup.items())},
    }
