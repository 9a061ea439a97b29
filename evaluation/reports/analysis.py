"""Every balance measure for one env's matches, computed once: the data behind a report.

A pure function of match records (:func:`analyse`), so tests, notebooks and the report command get
identical numbers. Sections that need something the records lack (two policies for ratings, every
pair played for the meta-game, loadout labels for the loadout matrix) are ``None`` with the reason in
``notes``, never an exception: a report on a partial tournament still says what it can.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from issoku.evaluation.stats.metagame import Dominance, Equilibrium, dominated_strategies, nash_equilibrium, payoff_matrix
from issoku.evaluation.stats.metrics import (CompositionSpec, Decisiveness, Diversity, FirstMover, MatchupMatrix, SequenceUse,
                                       balanced_first_mover, decisiveness, frequent_compositions, frequent_sequences,
                                       matchup_matrix, seat_advantage, strategy_diversity)
from issoku.evaluation.stats.pairings import Games, Side, by_label, by_policy, games_between
from issoku.evaluation.stats.ratings import Ratings, rate
from issoku.evaluation.games.records import MatchRecord
from issoku.common.outcomes import Proportion


FEW_GAMES = 30
"""Below this many games for a side, the report warns that its bootstrap interval is too narrow."""


@dataclass(frozen=True)
class SideAnalysis:
    """Ratings, matchups and meta-game among one kind of side (policies, or loadout labels)."""

    games: Games
    ratings: Ratings
    matchups: MatchupMatrix
    equilibrium: Equilibrium | None
    dominated: list[Dominance]


@dataclass(frozen=True)
class BalanceAnalysis:
    """The balance measures of one env's matches."""

    env_id: str
    games: int
    rules_fingerprints: tuple[str, ...]
    loadouts: tuple[str, ...]
    policies: tuple[str, ...]
    agents: tuple[str, ...]
    by_policy: SideAnalysis | None
    by_loadout: SideAnalysis | None
    first_mover: FirstMover
    """The first mover's score from games balanced by move order (:func:`~issoku.evaluation.stats.metrics.balanced_first_mover`)."""
    seats: tuple[Proportion, ...]
    decisiveness: Decisiveness
    diversity: list[Diversity]
    sequences: list[SequenceUse]
    compositions: list[SequenceUse]
    notes: list[str] = field(default_factory=list)


def analyse_sides(records: list[MatchRecord], side: Side, what: str, bootstrap: int, seed: int,
                  confidence: float, notes: list[str]) -> SideAnalysis | None:
    """Ratings, matchups and meta-game among the ``side`` of ``records`` (``what`` names them in ``notes``, which
    says what could not be measured); None with fewer than two sides."""
    games = games_between(records, side)
    if len(games.names) < 2:
        notes.append(f"{what}: fewer than two {what} met, so no ratings, matchups or meta-game.")
        return None
    ratings = rate(games, bootstrap=bootstrap, seed=seed, confidence=confidence)
    fewest = int(ratings.games.min())
    if fewest < FEW_GAMES:
        notes.append(f"{what}: as few as {fewest} games for one of them; with so few, bootstrap intervals "
                     "understate the uncertainty (a perfect record resamples to itself): trust the Wilson "
                     "intervals of the matchups more.")
    matchups = matchup_matrix(games, confidence)
    payoff = payoff_matrix(*games.matrices())
    if np.isnan(payoff).any():
        notes.append(f"{what}: some pairs never met, so no Nash equilibrium or dominance.")
        return SideAnalysis(games, ratings, matchups, None, [])
    return SideAnalysis(games, ratings, matchups, nash_equilibrium(payoff), dominated_strategies(payoff))


def analyse(records: Iterable[MatchRecord], bootstrap: int = 1000, seed: int = 0, confidence: float = 0.95,
            ngram: int = 2, top_sequences: int = 5, composition: CompositionSpec | None = None) -> BalanceAnalysis:
    """All balance measures of ``records``, which must come from one env.

    ``composition`` says how decisions group into compositions (whole breaths); without it, or when
    no decision has its kind, the composition measures are left out.
    """
    records = list(records)
    if not records:
        raise ValueError("no matches to analyse")
    env_ids = {record.env_id for record in records}
    if len(env_ids) != 1:
        raise ValueError(f"analyse one env at a time, got {sorted(env_ids)}")
    notes: list[str] = []
    has_compositions = composition is not None and any(
        composition.kind in kinds for record in records for kinds in record.kinds)
    fingerprints = tuple(sorted({record.rules_fingerprint for record in records}))
    if len(fingerprints) > 1:
        notes.append(f"matches were played under {len(fingerprints)} rules fingerprints (each loadout's fighters "
                     "are part of it, as any change of rules data is); they are analysed together.")
    first_mover = balanced_first_mover(records, confidence)
    if first_mover.left_out:
        notes.append(f"first mover: {first_mover.left_out} games left out: in their pairings one side always moved "
                     "first, so they cannot tell moving first from being that side.")
    return BalanceAnalysis(
        env_id=env_ids.pop(), games=len(records), rules_fingerprints=fingerprints,
        loadouts=tuple(sorted({record.loadout for record in records})),
        policies=tuple(sorted({policy for record in records for policy in record.policies})),
        agents=records[0].agents,
        by_policy=analyse_sides(records, by_policy, "policies", bootstrap, seed, confidence, notes),
        by_loadout=(analyse_sides(records, by_label, "loadouts", bootstrap, seed, confidence, notes)
                    if any(any(record.seat_labels) for record in records) else None),
        first_mover=first_mover,
        seats=tuple(seat_advantage(records, seat, confidence) for seat in range(records[0].num_seats)),
        decisiveness=decisiveness(records, confidence),
        diversity=strategy_diversity(records, composition if has_compositions else None),
        sequences=frequent_sequences(records, n=ngram, top=top_sequences, confidence=confidence),
        compositions=(frequent_compositions(records, composition, top=top_sequences, confidence=confidence)
                      if has_compositions and composition is not None else []),
        notes=notes)
