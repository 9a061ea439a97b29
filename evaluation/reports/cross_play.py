"""Cheap cross-play for a ``DISAGREE`` line: which field of agents is stronger, so a designer knows which reading to
trust.

Two fields (:mod:`issoku.evaluation.reports.fields`: scripted, search, learned) disagree about a loadout when one puts it
above the field and the other below. Both are measurements of the rules as their agents play them, and the agents
that play better are the better guide to what a skilled player will find. So the line plays them against each
other on the loadout itself: the disputed loadout in both seats (a mirror, so the loadout's own strength cancels),
each field's agents against the other's, seats swapped, on seeds the report never played (``base_seed +``
:data:`CROSS_SEED_OFFSET`). The first field's score, with its Wilson interval, says which field is stronger; the
line then says to trust the stronger field's reading, or, when the interval includes ½, that the cross-play could
not tell them apart within its budget and neither reading should be acted on yet.

The **budget** (``balance-report --cross-budget``) is games per env section, shared evenly by its ``DISAGREE`` lines,
at least one seat-swapped pair per pairing of agents; lines past it say so. The games go into the edits' match
store beside the report's (:func:`~issoku.evaluation.design.suggest.edits_store`: the report analyses every game of its
own store, and these mirrors of mixed fields belong to no field), keyed, so a rerun plays nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from issoku.evaluation.games.config import StudyConfig, build_tournament
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, PolicySpec, Tournament, run_tournament, schedule
from issoku.common.backend import Workers
from issoku.common.outcomes import wilson

CROSS_BUDGET = 40
"""Default games per env section for its ``DISAGREE`` lines' cross-play (``balance-report --cross-budget``)."""
CROSS_SEED_OFFSET = 4_000_000
"""The cross-play's seeds start this far above the study's: a range neither the report nor the edit search plays."""


@dataclass(frozen=True)
class Side:
    """One field of a disagreement: its name, the agents that played its grid, and its verdict on the loadout."""

    field: str
    agents: tuple[str, ...]
    verdict: str
    """``above the field`` or ``below the field``."""

    def named(self) -> str:
        """``the search field (mcts_small)``."""
        return f"the {self.field} field ({', '.join(self.agents)})"


@dataclass(frozen=True)
class CrossPlay:
    """The first field's agents' score against the second's, the disputed loadout on both sides (None: not played,
    and why)."""

    label: str
    first: Side
    second: Side
    score: float | None = None
    low: float = 0.0
    high: float = 1.0
    games: int = 0
    why: str = ""

    @property
    def stronger(self) -> Side | None:
        """The field whose agents' score interval lies wholly on its side of ½; None when the games cannot tell."""
        if self.score is None:
            return None
        return self.first if self.low > 0.5 else self.second if self.high < 0.5 else None

    def text(self) -> str:
        """The clause ending the ``DISAGREE`` line."""
        if self.score is None:
            return f"Cross-play not run ({self.why})."
        figures = (f"Cross-play, {self.label} on both sides: {self.first.named()} scores {self.score:.0%} "
                   f"[{self.low:.0%}, {self.high:.0%}] against {self.second.named()} over {self.games} games")
        stronger = self.stronger
        if stronger is None:
            return (f"{figures}: neither field is the stronger within these games, so act on neither reading until "
                    "more games (`--cross-budget`) or a stronger field settle it.")
        return (f"{figures}: the {stronger.field} field is stronger, so trust its reading ({self.label} "
                f"{stronger.verdict}).")


class CrossPlayer:
    """Plays the cross-play of a report's ``DISAGREE`` lines (see the module docstring); one per report."""

    def __init__(self, studies: Sequence[StudyConfig], store: MatchStore, budget: int = CROSS_BUDGET,
                 workers: Workers = 0) -> None:
        self.studies = list(studies)
        self.store = store
        self.budget = budget
        self.workers = workers

    def clauses(self, env: str, disputes: Sequence[tuple[str, Side, Side]]) -> list[str]:
        """One clause per dispute ``(loadout, first side, second side)`` of one env section, sharing the budget."""
        share = self.budget // max(len(disputes), 1)
        return [self.play(env, label, first, second, share).text() for label, first, second in disputes]

    def play(self, env: str, label: str, first: Side, second: Side, games: int) -> CrossPlay:
        """``games`` games (rounded down to whole seat-swapped pairs per pairing of agents) of ``label`` against
        itself, ``first``'s agents against ``second``'s."""
        def skipped(why: str) -> CrossPlay:
            return CrossPlay(label, first, second, why=why)

        pairings = [(a, b) for a in first.agents for b in second.agents]
        per_pairing = games // max(len(pairings), 1) // 2 * 2
        if per_pairing < 2:
            return skipped(f"the {self.budget}-game budget of this section leaves fewer than 2 games a pairing of "
                           f"its {len(pairings)} pairings of agents")
        tournament = self._tournament(env, label, pairings, per_pairing)
        if isinstance(tournament, str):
            return skipped(tournament)
        scheduled = schedule(tournament)
        run_tournament(tournament, self.store, workers=self.workers, progress=False, scheduled=scheduled)
        records = [record for record in (self.store.record(spec.key) for _, spec in scheduled) if record is not None]
        scores = [record.score(seat) for record in records for seat in (0, 1)
                  if record.policies[seat] in first.agents]
        interval = wilson(sum(scores), len(scores))
        return CrossPlay(label, first, second, sum(scores) / len(scores), interval.low, interval.high, len(scores))

    def _tournament(self, env: str, label: str, pairings: Sequence[tuple[str, str]],
                    games: int) -> Tournament | str:
        """The cross-play: ``label`` against itself (the grid of the first study of ``env`` that fields it), the
        ``pairings`` of agents (each from any study of ``env``), ``games`` a pairing on fresh seeds; or why none."""
        grids = [(study, grid) for study in self.studies if study.env == env
                 and (grid := study.loadout_grid) is not None and label in grid.labels]
        if not grids:
            return f"no study of {env} has a loadout grid fielding {label}"
        specs: dict[str, PolicySpec] = {}
        for study in self.studies:
            if study.env == env:
                specs.update((spec.name, spec) for spec in build_tournament(study).policies)
        agents = list(dict.fromkeys(name for pair in pairings for name in pair))
        missing = [name for name in agents if name not in specs]
        if missing:
            return f"no study of {env} fields {', '.join(missing)}"
        study, grid = grids[0]
        entry = grid.entry(label)
        mirror = Loadout(f"{label}-vs-{label}", {**grid.kwargs, grid.seat_key: [entry, entry]}, (label, label))
        return Tournament(build_tournament(study).env_factory, tuple(specs[name] for name in agents), (mirror,),
                          games, study.base_seed + CROSS_SEED_OFFSET, max_decisions=study.max_decisions,
                          pairings=tuple(pairings))


__all__ = ["CROSS_BUDGET", "CROSS_SEED_OFFSET", "CrossPlay", "CrossPlayer", "Side"]
