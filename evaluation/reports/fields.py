"""Which field produced a loadout study's ratings, and where the scripted, the search and the learned field disagree.

A loadout grid played by the Ma heuristic rates each weapon as that heuristic plays it; played by learned
agents (``per_loadout:<folder>``, each loadout by its own fine-tuned agent, :mod:`issoku.evaluation.strength.loadout_agents`)
it rates each weapon played well; played by tree search (``mcts_small``, :mod:`issoku.agents.search`) it rates
each weapon with every option tried, the costed stances and reactions the heuristics never take included. These
are different measurements, so when one store holds more than one for an env the report rates the loadouts once
per **field** — *scripted* (every seat a registered agent that reads only its observation), *search* (a
registered agent that searches the game state in some seat, no checkpoint) and *learned* (any checkpoint or
imported policy in the game) — says which field each ranking comes from, and flags, in a headline of its own,
every loadout that one field puts above the field (its Elo interval above zero) and another below it: a designer
should not act on a headline that the fields contradict. Places alone are not compared: close loadouts swap them
easily, and a small field (the search grid's few games a cell) leaves most loadouts level. Each such line ends with
a cheap cross-play of the two fields on that loadout (:mod:`issoku.evaluation.reports.cross_play`): which field is
stronger, and so whose reading to trust.

Each field's games are rated per **grid**: the loadouts that met, directly or through common opponents
(:mod:`issoku.evaluation.stats.connected`). Two grids that never met (the breath duel's weapons and its casters) are never
put on one scale; the report headlines each grid on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from issoku.evaluation.stats.connected import met_components
from issoku.evaluation.reports.cross_play import Side
from issoku.evaluation.reports.findings import LEARNED, SEARCH, agent_kind, policies_of
from issoku.evaluation.stats.pairings import Games, by_label, games_between
from issoku.evaluation.stats.ratings import Ratings, rate
from issoku.evaluation.games.records import MatchRecord

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
    grid: Grid

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


@dataclass(frozen=True)
class Grid:
    """Loadouts that met (directly or through common opponents) under one field of agents, and the games between
    them: the only loadouts one rating scale may hold (:mod:`issoku.evaluation.stats.connected`)."""

    field: str
    names: tuple[str, ...]
    records: tuple[MatchRecord, ...]

    @property
    def policies(self) -> list[str]:
        """The agents that played this grid's games, sorted."""
        return policies_of(self.records)

    def games(self) -> Games:
        """The games between this grid's loadouts."""
        return games_between(self.records, by_label, self.names)


def loadout_grids(records: Iterable[MatchRecord]) -> list[Grid]:
    """Every grid of at least two loadouts among ``records`` (games between two different labels), in field order
    (:data:`FIELDS`), the largest first within a field."""
    by_field: dict[str, list[MatchRecord]] = {}
    for record in records:
        if record.num_seats == 2 and record.label(0) and record.label(1) and record.label(0) != record.label(1):
            by_field.setdefault(field_of(record), []).append(record)
    found = []
    for name in FIELDS:
        played = by_field.get(name, [])
        for labels in met_components(games_between(played, by_label)):
            if len(labels) >= 2:
                found.append(Grid(name, labels, tuple(r for r in played if r.label(0) in labels)))
    return found


def field_rankings(records: Iterable[MatchRecord], bootstrap: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> list[FieldRanking]:
    """One loadout ranking per grid among ``records`` (:func:`loadout_grids`): never two loadouts that did not meet
    on one scale."""
    return [FieldRanking(grid.field, rate(grid.games(), bootstrap=bootstrap, seed=seed, confidence=confidence), grid)
            for grid in loadout_grids(records)]


Dispute = tuple[str, Side, Side]
"""A loadout two fields put on opposite sides of the field: the loadout, then each field's side of it."""
CrossPlay = Callable[[str, Sequence[Dispute]], list[str]]
"""An env and its section's disputes to the clause ending each ``DISAGREE`` line (:mod:`issoku.evaluation.
cross_play`: which field is stronger, which reading to trust)."""


def disagreements(env: str, first: FieldRanking, second: FieldRanking) -> list[tuple[str, Dispute]]:
    """A ``DISAGREE`` line for every loadout both fields rate that one puts above the field and the other below it,
    with its dispute (what the cross-play plays).

    Why only then: a verdict is an interval's, so opposite verdicts are evidence that the fields rate the loadout
    differently; a different place or a level verdict beside a decided one is not (two close loadouts swap places
    easily, and a field of few games leaves every loadout level). The places named are among the loadouts both
    fields rate, so a field that also rates casters does not push a weapon down the other's ranking."""
    shared = [label for label in first.ratings.names if label in second.ratings.names]
    opposite = {("above the field", "below the field"), ("below the field", "above the field")}
    return [(f"{env}: DISAGREE: {label} {first.describe(label, shared)} but {second.describe(label, shared)}.",
             (label, Side(first.field, tuple(first.grid.policies), first.verdict(label)),
              Side(second.field, tuple(second.grid.policies), second.verdict(label))))
            for label in sorted(shared, key=lambda label: first.place(label, shared))
            if (first.verdict(label), second.verdict(label)) in opposite]


def field_headlines(env: str, rankings: Sequence[FieldRanking], cross: CrossPlay | None = None) -> list[str]:
    """Headlines for an env section with more than one loadout grid (:func:`field_rankings`; none otherwise): each
    grid's ranking, named by its field and its agents, then every disagreement between two grids of different fields
    (in :data:`FIELDS` order), each ended by ``cross``'s clause when given, or one line saying there is none."""
    if len(rankings) < 2:
        return []
    lines = [f"{env}: loadouts in the {ranking.field} field ({', '.join(ranking.grid.policies)})"
             + (" (never met the other grids, so not on their scale)"
                if sum(other.field == ranking.field for other in rankings) > 1 else "") + ": "
             + ", ".join(f"{ranking.ratings.names[i]} {ranking.elo(ranking.ratings.names[i])}"
                         for i in ranking.ratings.ranked()) + " Elo." for ranking in rankings]
    found = [found for i, first in enumerate(rankings) for second in rankings[i + 1:]
             if first.field != second.field for found in disagreements(env, first, second)]
    disagreeing = [line for line, _ in found]
    if cross is not None and found:
        disagreeing = [f"{line} {clause}" for line, clause in zip(disagreeing, cross(env, [d for _, d in found]))]
    fields = list(dict.fromkeys(ranking.field for ranking in rankings))
    if len(fields) < 2:
        return lines
    named = [f"the {field}" for field in fields]
    together = ", ".join(named[:-1]) + " and " + named[-1]
    return lines + (disagreeing or [f"{env}: {together} field do not contradict each other: no loadout is above the "
                                    "field in one and below it in another."])
