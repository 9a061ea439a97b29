"""Does a ladder predict play? Its rungs rated on every game they played, and checked on games the fit did not see.

A rating from games against a suite's references alone says how a rung fares against *them*. Two rungs that beat
the references in different ways can meet and score far from what their gap predicts: strategies are not
transitive. So the ladder also plays each adjacent pair of rungs, and this module

- rates the rungs on all their games (against the references and against each other), the references held at
  their suite ratings (:func:`issoku.evaluation.stats.ratings.rate` with ``fixed``), so the ratings stay on the suite's
  scale;
- checks each adjacent pair *held out*: the score a fit without that pair's games predicts for the stronger rung,
  against the score the pair measured (its Wilson interval); a prediction outside the interval DISAGREEs;
- measures intransitivity two ways: the share of cyclic triples (A beat B, B beat C, C beat A, each by a majority
  of their games) among the triples whose three pairs met, and the fit's residual (the root mean square of each
  played pair's standardized gap between its measured score and the score the fit expects), naming each pair
  whose gap is beyond three standard errors (a rung rated far below a reference that beats it).

All functions are pure over match records.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from issoku.evaluation.stats.pairings import Games
from issoku.evaluation.stats.ratings import Ratings, expected_score, rate
from issoku.common.outcomes import Proportion, wilson

RESIDUAL_WARNING = 2.0
"""A fit whose standardized residual (RMS over the played pairs) exceeds this explains the games badly: with a
model that fits, each pair's standardized gap is about standard normal, so the RMS is about 1."""
OUTLIER_GAP = 3.0
"""A pair whose standardized gap exceeds this in size is named: its score is not what the two ratings say (by
chance, |z| > 3 about once in 370 pairs)."""


@dataclass(frozen=True)
class PairCheck:
    """A held-out adjacent pair: what a fit without its games predicts for ``upper``, and what it scored."""

    upper: str
    lower: str
    predicted: float
    measured: Proportion

    @property
    def agrees(self) -> bool:
        """Whether the prediction lies inside the measured score's interval."""
        return bool(self.measured.low <= self.predicted <= self.measured.high)

    def as_dict(self) -> dict[str, object]:
        """The check as ``ladder.json`` keeps it."""
        return {"upper": self.upper, "lower": self.lower, "predicted": round(self.predicted, 4),
                "measured": round(self.measured.value, 4), "low": round(self.measured.low, 4),
                "high": round(self.measured.high, 4), "games": self.measured.n, "agrees": self.agrees}


@dataclass(frozen=True)
class Intransitivity:
    """How far the games are from one strength order: cyclic triples, and the Elo fit's residual."""

    cyclic: int
    triples: int
    residual: float
    pairs: int
    cycles: tuple[tuple[str, str, str], ...] = ()
    """The cyclic triples, each as (A, B, C): A beat B, B beat C, C beat A."""
    outliers: tuple[tuple[str, str, float, float], ...] = ()
    """The pairs (A, B, A's measured score, the score the ratings expect) whose gap exceeds :data:`OUTLIER_GAP`."""

    @property
    def share(self) -> float:
        """The share of cyclic triples among those whose three pairs met (NaN when none did)."""
        return self.cyclic / self.triples if self.triples else math.nan

    def as_dict(self) -> dict[str, object]:
        """The measure as ``ladder.json`` keeps it."""
        return {"cyclic_triples": self.cyclic, "triples": self.triples, "residual_rms": round(self.residual, 3),
                "pairs": self.pairs, "cycles": [list(cycle) for cycle in self.cycles],
                "outliers": [{"player": a, "opponent": b, "measured": round(measured, 4), "expected": round(expected, 4)}
                             for a, b, measured, expected in self.outliers]}


def joint_ratings(games: Games, reference_elo: Mapping[str, float], bootstrap: int = 1000) -> Ratings:
    """Every non-reference player rated on all its games, the references held at ``reference_elo``."""
    return rate(games, bootstrap=bootstrap, fixed={name: reference_elo[name] for name in games.names
                                                   if name in reference_elo})


def held_out_checks(games: Games, pairs: Sequence[tuple[str, str]],
                    reference_elo: Mapping[str, float], confidence: float = 0.95) -> list[PairCheck]:
    """Per ``(upper, lower)`` pair: the held-out fit's expected score for ``upper``, and the measured one."""
    checks = []
    for upper, lower in pairs:
        a, b = games.names.index(upper), games.names.index(lower)
        between = ((games.first == a) & (games.second == b)) | ((games.first == b) & (games.second == a))
        rest = Games(games.names, games.first[~between], games.second[~between], games.score[~between])
        elo = joint_ratings(rest, reference_elo, bootstrap=0).elo
        scored = float(np.where(games.first[between] == a, games.score[between], 1.0 - games.score[between]).sum())
        checks.append(PairCheck(upper, lower, float(expected_score(elo[a], elo[b])),
                                wilson(scored, int(between.sum()), confidence)))
    return checks


def intransitivity(games: Games, ratings: Ratings) -> Intransitivity:
    """Cyclic triples among the pairs that met, and the RMS standardized residual of ``ratings`` over those pairs;
    each pair beyond :data:`OUTLIER_GAP` named with the later of ``games.names`` first (a rung before a reference)."""
    scores, played = games.matrices()
    met = played > 0
    beats = met & (scores > played / 2.0)
    triples, cycles = 0, []
    for i, j, k in itertools.combinations(range(len(games.names)), 3):
        if met[i, j] and met[j, k] and met[i, k]:
            triples += 1
            for a, b, c in ((i, j, k), (i, k, j)):
                if beats[a, b] and beats[b, c] and beats[c, a]:
                    cycles.append((games.names[a], games.names[b], games.names[c]))
    gaps, outliers = [], []
    for i, j in zip(*np.nonzero(np.triu(met, 1))):
        expected, measured = expected_score(ratings.elo[i], ratings.elo[j]), scores[i, j] / played[i, j]
        gaps.append((measured - expected) / math.sqrt(expected * (1.0 - expected) / played[i, j]))
        if abs(gaps[-1]) > OUTLIER_GAP:
            outliers.append((games.names[j], games.names[i], 1.0 - float(measured), 1.0 - float(expected)))
    residual = math.sqrt(float(np.mean(np.square(gaps)))) if gaps else math.nan
    return Intransitivity(len(cycles), triples, residual, len(gaps), tuple(cycles), tuple(outliers))


def warnings(checks: Sequence[PairCheck], measure: Intransitivity, labels: Mapping[str, str] | None = None) -> list[str]:
    """What a ladder's user must know: held-out pairs the ratings mispredict, cyclic triples, pairs the fit
    explains badly, a fit that explains the games badly overall (players shown by their ``labels``, where given)."""
    label = (labels or {}).get
    found = [f"{label(check.upper, check.upper)} vs {label(check.lower, check.lower)}: rated to score "
             f"{check.predicted:.1%}, scored {check.measured.value:.1%} "
             f"[{check.measured.low:.1%}, {check.measured.high:.1%}]: the rung gap does not predict their play"
             for check in checks if not check.agrees]
    if measure.cyclic:
        shown = "; ".join(" beat ".join(label(name, name) for name in (*cycle, cycle[0])) for cycle in measure.cycles[:3])
        found.append(f"{measure.cyclic} of {measure.triples} triples that met are cyclic ({shown}"
                     f"{'; ...' if measure.cyclic > 3 else ''}): no rating orders them")
    found += [f"{label(a, a)} vs {label(b, b)}: scored {measured:.1%}, their ratings expect {expected:.1%} "
              f"(more than {OUTLIER_GAP:g} standard errors apart)" for a, b, measured, expected in measure.outliers]
    if measure.residual > RESIDUAL_WARNING:
        found.append(f"the Elo fit's residual is {measure.residual:.2f} (about 1 when ratings explain the games): "
                     "strength here is not one number")
    return found


def format_checks(checks: Sequence[PairCheck], measure: Intransitivity, labels: Mapping[str, str] | None = None) -> str:
    """The lines ``issoku ladder`` prints under its table: each held-out pair (the stronger side's score), then
    intransitivity; players shown by their ``labels``, where given."""
    label = (labels or {}).get
    lines = ["held-out check (each pair of rungs that met, predicted by a fit without its own games):"]
    lines += [f"  {label(check.upper, check.upper)} vs {label(check.lower, check.lower)}: predicted {check.predicted:.1%}, measured {check.measured.value:.1%} "
              f"[{check.measured.low:.1%}, {check.measured.high:.1%}] (n={check.measured.n})  "
              f"{'agree' if check.agrees else 'DISAGREE'}" for check in checks]
    if not checks:
        lines.append("  (one rung: no pair to check)")
    share = "no triple met" if not measure.triples else f"{measure.share:.0%}"
    lines.append(f"intransitivity: cyclic triples {measure.cyclic}/{measure.triples} ({share}); Elo fit residual "
                 f"{measure.residual:.2f} RMS over {measure.pairs} pairs (about 1 when one rating per player explains "
                 "the games)")
    return "\n".join(lines)
