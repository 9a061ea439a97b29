"""Seeded duels of a trained checkpoint against one scripted agent, seats swapped, with a Wilson interval.

This is how a trained agent's strength is stated (``issoku evaluate``, the reference agent in
docs/training.md): duel ``2k`` and ``2k + 1`` play the same fight seed (the same dice and, for a run
with randomized loadouts, the same matchup) with the checkpoint in seat 0 and then in seat 1, so
neither a seat advantage nor a lucky draw of matchups favours it. The env is rebuilt from the
checkpoint's own metadata and refused if the rules changed since it was trained. The checkpoint plays
its most probable legal action; the scripted agent of each duel is seeded from the duel's fight seed
and seat (as in a tournament), so the same arguments give the same result and a duel's result depends
on its own seed only. The duels are played in lockstep (:func:`~issoku.evaluation.games.match.play_matches`):
the checkpoint decides for all running duels in one forward pass. With workers (the local pool, or Ray:
:mod:`issoku.common.backend`) the duels are cut into one slice per worker, each a job; the checkpoint
travels with its slice.

Beside its strength, the evaluation states whether the checkpoint reads its observation at all
(:mod:`issoku.agents.ablation`, on its training env): a strong win rate from a fixed preference
order over legal moves is flagged state-blind.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from issoku.agents.ablation import DEFAULT_GAMES, measure_ablation
from issoku.agents.checkpoint import CheckpointPolicy, check_compatible, check_network_fits, read_metadata
from issoku.evaluation.games.match import MatchGame, lockstep_width, play_matches
from issoku.evaluation.games.tournament import policy_seed
from issoku.common.backend import SHIPPED, Workers, backend_of
from issoku.training.config import checkpoint_config
from issoku.training.make_env import env_identity, make_config_env, ruleset_of
from issoku.training.opponents import scripted_policy
from issoku.common.outcomes import Tally

DEFAULT_SEED = 20_000_003
"""Base fight seed of the evaluation duels, far from the seeds a training run draws."""


def _learner_first(matchup: str, learner_seat: int) -> str:
    """A matchup label ``"a vs b"`` (seat order) as the checkpoint's fighter vs its opponent's."""
    sides = matchup.split(" vs ")
    return " vs ".join(sides[::-1]) if learner_seat == 1 and len(sides) == 2 else matchup


@dataclass(frozen=True)
class DuelSlice:
    """Duels ``first`` to ``first + count - 1`` of an evaluation: a job any worker can play (the checkpoint travels)."""

    checkpoint: str = field(metadata=SHIPPED)
    opponent: str
    seed: int
    first: int
    count: int
    allow_imports: bool = False


Outcome = tuple[float, int, str | None]
"""One duel as the evaluation counts it: the checkpoint's return, its seat, the matchup played (or None)."""


def _prepared(checkpoint: str | Path, opponent: str, seed: int, allow_imports: bool) -> tuple[Any, Any, Any, Any]:
    """``(metadata, config, learner, env)``, every input checked: the checkpoint, its rules, the opponent's name."""
    metadata = read_metadata(checkpoint)
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    learner = CheckpointPolicy(checkpoint, deterministic=True)  # a damaged zip is named before the env is built
    env = make_config_env(config)
    check_compatible(metadata, env_identity(env, config.env_id), what=f"checkpoint {checkpoint}")
    check_network_fits(checkpoint, env)
    scripted_policy(opponent, seed, ruleset_of(env))  # an unknown opponent is named before any duel is played
    return metadata, config, learner, env


def _play(config: Any, learner: Any, env: Any, opponent: str, seed: int, duels: range) -> list[Outcome]:
    """The duels of ``duels`` (indices into the evaluation), in lockstep on ``env`` and copies of it."""
    seats = len(env.possible_agents)
    games = []
    for duel in duels:
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
    return [(record.returns[duel % 2], duel % 2, matchups[index])
            for index, (duel, record) in enumerate(zip(duels, records))]


def play_slice(job: DuelSlice) -> list[Outcome]:
    """A worker's share of an evaluation: its duels' outcomes, in duel order."""
    _, config, learner, env = _prepared(job.checkpoint, job.opponent, job.seed, job.allow_imports)
    return _play(config, learner, env, job.opponent, job.seed, range(job.first, job.first + job.count))


def duel_checkpoint(checkpoint: str | Path, opponent: str, duels: int = 1000, seed: int = DEFAULT_SEED, *,
                    allow_imports: bool = False, workers: Workers = 0,
                    ablation_games: int = DEFAULT_GAMES) -> dict[str, Any]:
    """``duels`` seeded duels of ``checkpoint`` against scripted ``opponent`` (a registry name or import path).

    Returns the totals (wins, draws, losses, win rate and its 95 % Wilson interval), the same per seat
    of the checkpoint and, for a run with randomized loadouts, per matchup (the checkpoint's fighter first), and
    its observation ablation on ``ablation_games`` games (:meth:`~issoku.agents.ablation.Ablation.as_dict`).
    The env the checkpoint's metadata names may be an import path only with ``allow_imports``.
    ``workers`` (default 0: this process) splits the duels into one slice per worker on the local pool or a
    :class:`~issoku.common.backend.Backend`; a duel's result depends on its own seed only, so not the totals.
    """
    if duels < 1:
        raise ValueError(f"duels must be at least 1, not {duels}")
    metadata, config, learner, env = _prepared(checkpoint, opponent, seed, allow_imports)
    ablation = measure_ablation(learner, env, games=ablation_games)
    if workers == 0:
        outcomes = _play(config, learner, env, opponent, seed, range(duels))
    else:
        env.close()
        backend = backend_of(workers)
        size = -(-duels // backend.slots)
        jobs = [DuelSlice(str(checkpoint), opponent, seed, first, min(size, duels - first), allow_imports)
                for first in range(0, duels, size)]
        done = {job.first: played for job, played in backend.map_unordered(play_slice, jobs)}
        outcomes = [outcome for first in sorted(done) for outcome in done[first]]
    by_seat: dict[int, list[float]] = defaultdict(list)
    by_matchup: dict[str, list[float]] = defaultdict(list)
    for outcome, learner_seat, matchup in outcomes:
        by_seat[learner_seat].append(outcome)
        if matchup is not None:
            by_matchup[_learner_first(matchup, learner_seat)].append(outcome)
    return {
        "checkpoint": str(checkpoint), "steps": metadata.get("steps"), "env_id": config.env_id,
        "opponent": opponent, "seed": seed, **Tally.of_returns([outcome for outcome, _, _ in outcomes]).as_dict(),
        "by_seat": {str(seat): Tally.of_returns(values).as_dict() for seat, values in sorted(by_seat.items())},
        "by_matchup": {name: Tally.of_returns(values).as_dict() for name, values in sorted(by_matchup.items())},
        "ablation": ablation.as_dict(),
    }
