"""Which field produced a loadout study's ratings, and where the scripted, the search and the learned field disagree.

A loadout grid played by the Ma heuristic rates each weapon as that heuristic plays it; played by learned
agents (``per_loadout:<folder>``, each loadout by its own fine-tuned agent, :mod:`issoku.evaluation.loadout_agents`)
it rates each weapon played well; played by tree search (``mcts_small``, :mod:`issoku.agents.search`) it rates
each weapon with every option tried, the costed stances and reactions the heuristics never take included. These
are different measurements, so when one store holds more than one for an env the report rates the loadouts once
per **field** — *scripted* (every seat a registered agent that reads only its observation), *search* (a
registered agent that searches the game state in some seat, no checkpoint) and *learned* (any checkpoint or
imported policy in the game) — says which field each ranking comes from, and flags, in a headline of its own,
every loadout that one field puts above the field (its Elo interval above zero) and another below it: a designer
should not act on a headline that the fields contradict. Places alone are not compared: close loadouts swap them
easily, and a small field (the search grid's few games a cell) leaves most loadouts level.

The pooled section above these lines still rates every field's games together (its headlines say, e.g.,
"scripted + search agents").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from issoku.evaluation.findings import LEARNED, SEARCH, agent_kind
from issoku.evaluation.pairings import by_label, games_between
from issoku.evaluation.ratings import Ratings, rate
from issoku.evaluation.records import MatchRecord

SCRIPTED_FIELD, SEARCH_FIELD, LEARNED_FIELD = "scripted", "search", "learned"
FIELDS = (SCRIPTED_FIELD, SEARCH_FIELD, LEARNED_FIELD)


def field_of(record: MatchRecord) -> str:
    """``"learned"`` when a seat of the game was a checkpoint or imported policy, else ``"search"`` when a seat
    searched the game state, else ``"scripted"``."""
    kinds = {agent_kind(policy) for policy in record.policies}
    return LEARNED_FIELD if LEARNED in kinds else SEARCH_FIELD if SEARCH in kinds else SCRIPTED_FIELD


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass(frozen=True)
class FieldRanking:
    """The loadout ratings of one field's games."""

    field: str
    ratings: Ratings

    def place(self, label: str, among: Sequence[str] | None = None) -> int:
        """1 for the strongest loadout (of ``among``, when given: the labels two fields share)."""
        ranked = [self.ratings.names[i] for i in self.ratings.ranked()]
        return [name for name in ranked if among is None or name in among].index(label) + 1

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

    def describe(self, label: str, among: Sequence[str] | None = None) -> str:
        """``strongest (+215 [+182, +253], above the field)``, ``3rd (...)``, ``weakest (...)`` (of ``among``)."""
        place = self.place(label, among)
        count = len(self.ratings.names) if among is None else len(among)
        name = "strongest" if place == 1 else "weakest" if place == count else _ordinal(place)
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


def disagreements(env: str, first: FieldRanking, second: FieldRanking) -> list[str]:
    """A ``DISAGREE`` line for every loadout both fields rate that one puts above the field and the other below it.

    Why only then: a verdict is an interval's, so opposite verdicts are evidence that the fields rate the loadout
    differently; a different place or a level verdict beside a decided one is not (two close loadouts swap places
    easily, and a field of few games leaves every loadout level). The places named are among the loadouts both
    fields rate, so a field that also rates casters does not push a weapon down the other's ranking."""
    shared = [label for label in first.ratings.names if label in second.ratings.names]
    opposite = {("above the field", "below the field"), ("below the field", "above the field")}
    return [f"{env}: DISAGREE: {label} {first.describe(label, shared)} but {second.describe(label, shared)}."
            for label in sorted(shared, key=lambda label: first.place(label, shared))
            if (first.verdict(label), second.verdict(label)) in opposite]


def field_headlines(env: str, records: Sequence[MatchRecord], bootstrap: int = 1000, seed: int = 0,
                    confidence: float = 0.95) -> list[str]:
    """Headlines for an env section whose loadout games come from more than one field (none otherwise): each
    field's ranking, named by its field, then every disagreement between two of them (each pair of fields in
    :data:`FIELDS` order), or one line saying there is none."""
    rankings = field_rankings(records, bootstrap, seed, confidence)
    if len(rankings) < 2:
        return []
    lines = [f"{env}: loadouts in the {ranking.field} field ({ranking.field} agents only): "
             + ", ".join(f"{ranking.ratings.names[i]} {ranking.elo(ranking.ratings.names[i])}"
                         for i in ranking.ratings.ranked()) + " Elo." for ranking in rankings]
    disagreeing = [line for i, first in enumerate(rankings) for second in rankings[i + 1:]
                   for line in disagreements(env, first, second)]
    named = [f"the {ranking.field}" for ranking in rankings]
    together = ", ".join(named[:-1]) + " and " + named[-1]
    return lines + (disagreeing or [f"{env}: {together} field do not contradict each other: no loadout is above the "
                                    "field in one and below it in another."])
