"""Which field produced a loadout study's ratings, and where the scripted and the learned field disagree.

A loadout grid played by the Ma heuristic rates each weapon as that heuristic plays it; played by learned
agents (``per_loadout:<folder>``, each loadout by its own fine-tuned agent, :mod:`issoku.evaluation.loadout_agents`)
it rates each weapon played well. The two are different measurements, so when one store holds both for one
env the report rates the loadouts once per **field** — *scripted* (every seat a registered agent) and
*learned* (any checkpoint or imported policy in the game) — says which field each ranking comes from, and
flags, in a headline of its own, every loadout whose place in the ranking or whose verdict against the field
(its Elo interval above zero, below it, or straddling it) differs between the two: a designer should not act
on a headline that only one field supports.

The pooled section above these lines still rates both fields' games together (its headlines say
"scripted + learned or imported agents").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from issoku.evaluation.findings import SCRIPTED, agent_kinds
from issoku.evaluation.pairings import by_label, games_between
from issoku.evaluation.ratings import Ratings, rate
from issoku.evaluation.records import MatchRecord

SCRIPTED_FIELD, LEARNED_FIELD = "scripted", "learned"
FIELDS = (SCRIPTED_FIELD, LEARNED_FIELD)


def field_of(record: MatchRecord) -> str:
    """``"scripted"`` when every seat of the game was a registered agent, else ``"learned"``."""
    return SCRIPTED_FIELD if agent_kinds(record.policies) == SCRIPTED else LEARNED_FIELD


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass(frozen=True)
class FieldRanking:
    """The loadout ratings of one field's games."""

    field: str
    ratings: Ratings

    def place(self, label: str) -> int:
        """1 for the strongest loadout."""
        return [self.ratings.names[i] for i in self.ratings.ranked()].index(label) + 1

    def verdict(self, label: str) -> str:
        """Where the loadout's interval lies against the field's mean (Elo 0)."""
        i = self.ratings.names.index(label)
        if self.ratings.low[i] > 0:
            return "above the field"
        if self.ratings.high[i] < 0:
            return "below the field"
        return "level with the field"

    def elo(self, label: str) -> str:
        """``+215 [+182, +253]``."""
        i = self.ratings.names.index(label)
        return f"{self.ratings.elo[i]:+.0f} [{self.ratings.low[i]:+.0f}, {self.ratings.high[i]:+.0f}]"

    def describe(self, label: str) -> str:
        """``strongest (+215 [+182, +253], above the field)``, ``3rd (...)``, ``weakest (...)``."""
        place = self.place(label)
        name = "strongest" if place == 1 else "weakest" if place == len(self.ratings.names) else _ordinal(place)
        return f"{name} in the {self.field} field ({self.elo(label)} Elo, {self.verdict(label)})"


def field_rankings(records: Iterable[MatchRecord], bootstrap: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> list[FieldRanking]:
    """One loadout ranking per field among ``records`` (games with seat labels only), scripted first; a field
    whose games meet fewer than two loadouts has none."""
    by_field: dict[str, list[MatchRecord]] = {}
    for record in records:
        if any(record.seat_labels):
            by_field.setdefault(field_of(record), []).append(record)
    rankings = []
    for name in FIELDS:
        games = games_between(by_field.get(name, []), by_label)
        if len(games.names) >= 2:
            rankings.append(FieldRanking(name, rate(games, bootstrap=bootstrap, seed=seed, confidence=confidence)))
    return rankings


def disagreements(env: str, scripted: FieldRanking, learned: FieldRanking) -> list[str]:
    """A ``DISAGREE`` line for every loadout both fields rate whose place or verdict differs between them."""
    both = [label for label in scripted.ratings.names if label in learned.ratings.names]
    return [f"{env}: DISAGREE: {label} {scripted.describe(label)} but {learned.describe(label)}."
            for label in sorted(both, key=scripted.place)
            if scripted.place(label) != learned.place(label) or scripted.verdict(label) != learned.verdict(label)]


def field_headlines(env: str, records: Sequence[MatchRecord], bootstrap: int = 1000, seed: int = 0,
                    confidence: float = 0.95) -> list[str]:
    """Headlines for an env section whose loadout games come from both fields (none otherwise): each field's
    ranking, named by its field, then every disagreement (or one line saying there is none)."""
    rankings = field_rankings(records, bootstrap, seed, confidence)
    if len(rankings) < 2:
        return []
    scripted, learned = rankings
    lines = [f"{env}: loadouts in the {ranking.field} field ({ranking.field} agents only): "
             + ", ".join(f"{ranking.ratings.names[i]} {ranking.elo(ranking.ratings.names[i])}"
                         for i in ranking.ratings.ranked()) + " Elo." for ranking in rankings]
    return lines + (disagreements(env, scripted, learned)
                    or [f"{env}: the scripted and the learned field agree on every loadout's place and verdict."])
