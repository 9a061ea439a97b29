"""``balance-report --sequential``: play each study's cells only until their sequential test decides.

The tournament's schedule is played in **rounds**: round ``r`` plays games ``r·step`` to ``(r+1)·step − 1`` of
every pairing (``step`` even, so every seed is played from both seats and pairs stay whole), then every cell's
GSPRT (:mod:`issoku.evaluation.stats.sequential`) reads the stored games, and the next round leaves out the games
whose every cell has been decided. A game's cells are its two policies (when they differ) and its two loadout
labels (when they differ); a game with no cell (a policy against itself in an unlabelled loadout) is always
played. ``games_per_pair`` stays the cap: a cell still undetermined there ends *undetermined*.

The games a sequential run plays are a prefix, per pairing, of the fixed schedule, with the same keys: the report
reads them like any others, and a later run without ``--sequential`` plays on from where it stopped.
"""

from __future__ import annotations

from collections.abc import Sequence

from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.stats.sequential import SequentialTest, decided_cells
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, MatchSpec, Tournament, TournamentRun, run_tournament, schedule
from issoku.common.backend import Workers


def game_cells(loadout: Loadout, spec: MatchSpec) -> set[tuple[int, str, str]]:
    """The cells a scheduled game belongs to (see :data:`~issoku.evaluation.stats.sequential.CELL_SIDES`)."""
    cells = set()
    for index, (a, b) in enumerate((spec.policies, tuple(loadout.seat_labels) or ("", ""))):
        if a and b and a != b:
            first, second = sorted((a, b))
            cells.add((index, first, second))
    return cells


def numbered(scheduled: Sequence[tuple[Loadout, MatchSpec]]) -> list[tuple[int, Loadout, MatchSpec]]:
    """Each scheduled game with its number within its pairing and loadout (the schedule lists them in order)."""
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    out = []
    for loadout, spec in scheduled:
        block = (loadout.name, tuple(sorted(spec.policies)))
        out.append((counts.get(block, 0), loadout, spec))
        counts[block] = counts.get(block, 0) + 1
    return out


def run_sequential(tournament: Tournament, store: MatchStore, test: SequentialTest, workers: Workers = None,
                   batch_size: int = 16, progress: bool = True) -> TournamentRun:
    """Play ``tournament`` in rounds of ``batch_size`` games per pairing (rounded up to even) until every cell is
    decided or the schedule ends; returns what it played and how many scheduled games it skipped."""
    full = numbered(schedule(tournament))
    keys = {spec.key for _, _, spec in full}
    loadouts = [loadout.name for loadout in tournament.loadouts]
    step = max(2, batch_size + batch_size % 2)
    already = len(keys & store.keys())

    def decided() -> set[tuple[int, str, str]]:
        records: list[MatchRecord] = [r for r in store.records(loadouts=loadouts) if r.key in keys]
        return decided_cells(records, test)

    played, done = 0, decided()
    for start in range(0, tournament.games_per_pair, step):
        todo = [(loadout, spec) for game, loadout, spec in full if start <= game < start + step
                and not (game_cells(loadout, spec) and game_cells(loadout, spec) <= done)]
        if not todo:
            break
        played += run_tournament(tournament, store, workers=workers, batch_size=batch_size, progress=progress,
                                 scheduled=todo).played
        done = decided()
    return TournamentRun(len(full), already, played, skipped=len(full) - len(keys & store.keys()))
