"""The policy benchmark: score any policy against a fixed, versioned reference suite, on a fixed scale.

Why a suite: a rating means something only relative to the field it was fitted in. A suite pins the
field (reference policies, env, loadouts, seeds, games per reference) and the *ratings of the
references themselves*, calibrated once and written into the suite file. A candidate's rating is
then the one-parameter Bradley-Terry fit of its games against references whose ratings stay fixed,
so numbers from different people, runs and machines compare, as long as they name the same suite
name and version. Changing anything in a suite means bumping its version.

Suite files (TOML) live in ``issoku/evaluation/suites/``; the format is a study file
(:mod:`issoku.evaluation.games.config`) whose ``policies`` are the references, plus ``name``, ``version``
and ``reference_elo``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from pydantic import Field, model_validator
from scipy.special import expit

from issoku.evaluation.games.config import StudyConfig, build_tournament, check_study_names
from issoku.evaluation.stats.pairings import games_between
from issoku.evaluation.stats.ratings import ELO_PER_NAT, rate
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import PolicySpec, Tournament, run_tournament
from issoku.rules.kernel.content import load_model
from issoku.common.outcomes import Proportion, wilson
from issoku.common.backend import Workers

SUITES_DIR = Path(__file__).resolve().parents[1] / "suites"


class SuiteConfig(StudyConfig):
    """A reference suite: a study whose ``policies`` are the references, with their fixed ratings."""

    name: str = Field(min_length=1)
    version: int = Field(ge=1)
    reference_elo: dict[str, float] = Field(default_factory=dict)
    reference_fingerprints: dict[str, str] = Field(default_factory=dict)
    """Each reference's code fingerprint at calibration: a reference edited since then is flagged."""
    rules_fingerprint: str = ""
    """The rules fingerprint of the suite's loadouts at calibration (:func:`suite_rules_fingerprint`): games under
    other rules are off the scale, so a benchmark then says so (empty: a suite calibrated before it was recorded)."""

    @model_validator(mode="after")
    def _ratings_name_references(self) -> SuiteConfig:
        references = {entry.partition("=")[0] for entry in self.policies}
        unknown = set(self.reference_elo) - references
        if unknown:
            raise ValueError(f"reference_elo names policies not in the suite: {sorted(unknown)}")
        return self

    @property
    def reference_names(self) -> tuple[str, ...]:
        """The references' names, in file order."""
        return tuple(entry.partition("=")[0] for entry in self.policies)


def load_suite(name_or_path: str | Path, *, allow_imports: bool = False) -> SuiteConfig:
    """A suite by file path, or by the name of a shipped suite (``suites/<name>.toml``).

    Its names are resolved at once; import paths among them only with ``allow_imports`` (a suite is data).
    """
    path = Path(name_or_path)
    if not path.suffix:
        path = SUITES_DIR / f"{name_or_path}.toml"
        if not path.is_file():
            raise ValueError(f"suite {name_or_path!r}: no such file, nor a shipped suite (shipped: "
                             f"{', '.join(shipped_suites())}; a suite file ends in .toml)")
    suite = load_model(path, SuiteConfig)
    check_study_names(suite, str(path), allow_imports=allow_imports)
    return suite


def shipped_suites() -> list[str]:
    """Names of the suites shipped with issoku."""
    return sorted(path.stem for path in SUITES_DIR.glob("*.toml"))


def suite_rules_fingerprint(suite: SuiteConfig) -> str:
    """The rules fingerprint of every loadout's env today, joined (one loadout: its env's fingerprint)."""
    from issoku.evaluation.games.match import rules_fingerprint

    tournament = build_tournament(suite)
    fingerprints = []
    for loadout in tournament.loadouts:
        env = tournament.env_factory(**dict(loadout.kwargs))
        try:
            fingerprints.append(rules_fingerprint(env))
        finally:
            env.close()
    return ",".join(dict.fromkeys(fingerprints))


def calibration_tournament(suite: SuiteConfig) -> Tournament:
    """The round robin among the references whose ratings calibrate the suite's scale."""
    return build_tournament(suite)


def calibrate(records: Iterable[MatchRecord], suite: SuiteConfig, anchor: str | None = None) -> dict[str, float]:
    """Reference ratings from a calibration tournament: ``anchor`` (default: the first reference) at 0."""
    names = suite.reference_names
    ratings = rate(games_between(records, names=names), bootstrap=0, anchor=anchor or names[0])
    return {name: round(float(elo), 1) for name, elo in zip(ratings.names, ratings.elo)}


def benchmark_tournament(suite: SuiteConfig, candidate: PolicySpec) -> Tournament:
    """The candidate against every reference (not the references among themselves), seats swapped."""
    if candidate.name in suite.reference_names:
        raise ValueError(f"candidate name {candidate.name!r} is a reference's name in suite {suite.name} (it would "
                         f"play itself under one name); score it under another: "
                         f"issoku benchmark mine={candidate.name} --suite {suite.name}")
    references = build_tournament(suite)
    return suite_tournament(suite, references.policies + (candidate,),
                            tuple((candidate.name, name) for name in suite.reference_names))


def suite_tournament(suite: SuiteConfig, policies: tuple[PolicySpec, ...], pairings: tuple[tuple[str, str], ...],
                     games_per_pair: int | None = None) -> Tournament:
    """``pairings`` among ``policies`` played as the suite plays its games: its env, loadouts, seeds and limits
    (``games_per_pair`` games a pair, by default the suite's)."""
    references = build_tournament(suite)
    return Tournament(references.env_factory, policies, references.loadouts,
                      games_per_pair=games_per_pair or suite.games_per_pair, base_seed=suite.base_seed,
                      max_decisions=suite.max_decisions, pairings=pairings)


def fixed_scale_elo(opponent_elo: np.ndarray, score: np.ndarray, prior: float = 1.0, tol: float = 1e-10) -> float:
    """The Elo rating that best explains ``score`` (1, ½, 0 per game) against opponents of fixed ratings.

    A one-parameter Bradley-Terry maximum-likelihood fit (Newton's method: the log-likelihood is
    concave); ``prior`` adds that many virtual draws against each distinct opponent so that a
    candidate that won (or lost) every game still gets a finite rating.
    """
    virtual = np.unique(opponent_elo)
    opponents = np.concatenate([opponent_elo, virtual]) / ELO_PER_NAT
    scores = np.concatenate([score, np.full(virtual.size, 0.5)])
    weights = np.concatenate([np.ones(score.size), np.full(virtual.size, prior)])
    x = float(np.average(opponents, weights=weights))
    for _ in range(200):
        p = expit(x - opponents)
        step = float((weights * (scores - p)).sum() / (weights * p * (1.0 - p)).sum())
        x += step
        if abs(step) < tol:
            return x * ELO_PER_NAT
    raise RuntimeError("fixed-scale rating did not converge")


@dataclass(frozen=True)
class BenchmarkResult:
    """A candidate's results on one suite: per reference, overall, and its rating on the suite's scale."""

    suite: str
    version: int
    candidate: str
    per_reference: dict[str, Proportion]
    overall: Proportion
    elo: float
    low: float
    high: float
    stale: tuple[str, ...] = ()
    """References whose code changed since the suite was calibrated (its scale no longer holds)."""
    rules_moved: bool = False
    """The suite's rules fingerprint differs from today's: calibrated on other rules (its scale no longer holds)."""


def score_candidate(records: Iterable[MatchRecord], suite: SuiteConfig, candidate: str, bootstrap: int = 1000,
                    seed: int = 0, confidence: float = 0.95) -> BenchmarkResult:
    """Win rates (Wilson intervals) and the fixed-scale rating (bootstrap interval) of ``candidate``."""
    missing = [name for name in suite.reference_names if name not in suite.reference_elo]
    if missing:
        raise ValueError(f"suite {suite.name} v{suite.version} is not calibrated for {missing}")
    opponent, score = [], []
    for record in records:
        if candidate in record.policies:
            seat = record.policies.index(candidate)
            other = record.policies[1 - seat]
            if other in suite.reference_elo:
                opponent.append(other)
                score.append(record.score(seat))
    if not score:
        raise ValueError(f"no games of {candidate!r} against the references of suite {suite.name}")
    opponent_elo = np.array([suite.reference_elo[name] for name in opponent])
    scores = np.array(score)
    per_reference = {name: wilson(float(scores[[o == name for o in opponent]].sum()), opponent.count(name),
                                  confidence)
                     for name in suite.reference_names if name in opponent}
    elo = fixed_scale_elo(opponent_elo, scores)
    rng = np.random.default_rng(seed)
    replicates = [fixed_scale_elo(opponent_elo[pick], scores[pick])
                  for pick in (rng.integers(scores.size, size=scores.size) for _ in range(bootstrap))]
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail]) if replicates else (math.nan, math.nan)
    return BenchmarkResult(suite.name, suite.version, candidate, per_reference,
                           wilson(float(scores.sum()), int(scores.size), confidence), elo, float(low), float(high))


def run_benchmark(suite: SuiteConfig, candidate: PolicySpec, store: MatchStore, workers: Workers = None,
                  batch_size: int = 16, bootstrap: int = 1000, progress: bool = True) -> BenchmarkResult:
    """Play (or resume) the candidate's games against the suite's references, then score them."""
    tournament = benchmark_tournament(suite, candidate)
    run_tournament(tournament, store, workers=workers, batch_size=batch_size, progress=progress)
    stale = tuple(spec.name for spec in tournament.policies
                  if suite.reference_fingerprints.get(spec.name, spec.fingerprint) != spec.fingerprint)
    rules_moved = bool(suite.rules_fingerprint) and suite.rules_fingerprint != suite_rules_fingerprint(suite)
    return replace(score_candidate(store.records(), suite, candidate.name, bootstrap=bootstrap), stale=stale,
                   rules_moved=rules_moved)


def run_calibration(suite: SuiteConfig, store: MatchStore, workers: Workers = None,
                    progress: bool = True) -> tuple[dict[str, float], dict[str, str], str]:
    """Play the references' round robin; their ratings (the first reference at 0), code fingerprints and the rules
    fingerprint they were played under."""
    tournament = calibration_tournament(suite)
    run_tournament(tournament, store, workers=workers, progress=progress)
    return (calibrate(store.records(), suite), {spec.name: spec.fingerprint for spec in tournament.policies},
            suite_rules_fingerprint(suite))


def format_result(result: BenchmarkResult) -> str:
    """The lines ``issoku benchmark`` prints."""
    lines = [f"suite {result.suite} v{result.version}: {result.candidate}",
             f"  rating on the suite's scale: {result.elo:+.0f} Elo [{result.low:+.0f}, {result.high:+.0f}]",
             f"  overall score: {result.overall.value:.1%} [{result.overall.low:.1%}, {result.overall.high:.1%}] "
             f"(n={result.overall.n})"]
    if result.rules_moved:
        lines.append(f"  WARNING: the rules changed since suite {result.suite} v{result.version} was calibrated (its "
                     "rules_fingerprint): this rating is off its scale (recalibrate and bump the version)")
    if result.stale:
        lines.append(f"  WARNING: {', '.join(result.stale)} changed since suite {result.suite} v{result.version} "
                     "was calibrated: this rating is off its scale (recalibrate and bump the version)")
    lines += [f"  vs {name}: {p.value:.1%} [{p.low:.1%}, {p.high:.1%}] (n={p.n})"
              for name, p in result.per_reference.items()]
    return "\n".join(lines)
