"""One agent against one opponent over many seeded duels: win, draw and loss counts with 95 % intervals.

The question a designer or a researcher asks first of a scripted or trained agent ("does the heuristic
really beat random play?") is a two-policy tournament, so this is one: the same schedule, seeds, seat
swapping and match records as :mod:`issoku.evaluation.games.tournament` (duel ``g`` uses seed
``base_seed + g // 2``; odd duels swap the seats, so each seed is played from both sides). Only the
summary is particular: counts from the agent's side, split by the seat it held, with Wilson intervals
(the one :class:`~issoku.common.outcomes.Tally` every duel-counting command uses).

``issoku head-to-head`` is the command line; :func:`head_to_head` the function behind it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from issoku.evaluation.games.studies import check_study_plays
from issoku.evaluation.games.config import LoadoutConfig, StudyConfig, build_tournament
from issoku.evaluation.games.records import MatchRecord, canonical_json
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import run_tournament, schedule
from issoku.common.outcomes import Tally
from issoku.common.backend import Workers

IN_MEMORY = ":memory:"
"""The store path of a head-to-head that keeps nothing on disk."""


@dataclass(frozen=True)
class HeadToHead:
    """What :func:`head_to_head` measured: the totals and, per seat the agent held, the same counts."""

    env: str
    env_kwargs: Mapping[str, Any]
    agent: str
    opponent: str
    base_seed: int
    total: Tally
    by_seat: tuple[Tally, Tally]
    truncated: int
    mean_length: float

    def summary(self, confidence: float = 0.95) -> str:
        """A few readable lines: the totals with intervals, then each seat."""
        kwargs = canonical_json(dict(self.env_kwargs)) if self.env_kwargs else "default"
        win, score = self.total.win_rate(confidence), self.total.score_rate(confidence)
        level = f"{confidence:.0%}"
        lines = [f"{self.agent} vs {self.opponent} on {self.env} ({kwargs}), {self.total.duels} duels, "
                 f"seeds {self.base_seed}..{self.base_seed + (self.total.duels - 1) // 2}, seats swapped",
                 f"  won {self.total.wins}  drew {self.total.draws}  lost {self.total.losses}"
                 f"  ({self.truncated} at the round limit; mean {self.mean_length:.1f} decisions)",
                 f"  win rate   {win.value:6.1%}  {level} interval [{win.low:.1%}, {win.high:.1%}]",
                 f"  score      {score.value:6.1%}  {level} interval [{score.low:.1%}, {score.high:.1%}]"
                 "  (a draw counts half)"]
        for seat, tally in enumerate(self.by_seat):
            rate = tally.win_rate(confidence)
            lines.append(f"  as seat {seat}  won {tally.wins}  drew {tally.draws}  lost {tally.losses}"
                         f"  win rate {rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}]")
        return "\n".join(lines)


def head_to_head(agent: str, opponent: str = "random", duels: int = 500, env: str = "breath_duel_v0",
                 env_kwargs: Mapping[str, Any] | None = None, base_seed: int = 0, workers: Workers = 0,
                 db: Path | str = IN_MEMORY, progress: bool = False) -> HeadToHead:
    """Play ``agent`` against ``opponent`` (registered policy names, or ``name=package.module:factory``)
    in ``duels`` seeded duels of ``env`` built with ``env_kwargs``, and count from the agent's side.

    ``workers`` as in :func:`~issoku.evaluation.games.tournament.run_tournament` (0: this process). A ``db``
    path keeps the duels in a match store, so a rerun with the same arguments plays nothing again.
    """
    kwargs = dict(env_kwargs or {})
    tournament = build_tournament(head_to_head_study(agent, opponent, duels, env, kwargs, base_seed))
    with MatchStore(db, exclusive=db != IN_MEMORY) as store:
        run_tournament(tournament, store, workers=workers, progress=progress)
        keys = {spec.key for _, spec in schedule(tournament)}
        records = [record for record in store.records() if record.key in keys]
    names = [spec.name for spec in tournament.policies]  # as stored: "shipped:<env>" is stored by its file's name
    return summarise(records, names[0], names[1], env, kwargs, base_seed)


def head_to_head_study(agent: str, opponent: str, duels: int, env: str, env_kwargs: Mapping[str, Any],
                       base_seed: int) -> StudyConfig:
    """The two-policy study a head-to-head plays, checked: two different names, each agent able to play ``env``
    (an agent of another env is refused here, before a store is made or a duel played)."""
    if agent.partition("=")[0] == opponent.partition("=")[0]:
        raise ValueError(f"agent and opponent need different names, both are {agent.partition('=')[0]!r}")
    kwargs = dict(env_kwargs)
    study = StudyConfig(env=env, policies=(agent, opponent), games_per_pair=duels, base_seed=base_seed,
                        loadouts=(LoadoutConfig(name=canonical_json(kwargs) if kwargs else "default", kwargs=kwargs),))
    check_study_plays(study)
    return study


def summarise(records: list[MatchRecord], agent: str, opponent: str, env: str, env_kwargs: Mapping[str, Any],
              base_seed: int) -> HeadToHead:
    """Count ``records`` (two-seat duels between ``agent`` and ``opponent``) from the agent's side."""
    total, by_seat = Tally(), [Tally(), Tally()]
    for record in records:
        seat = record.policies.index(agent)
        score = record.score(seat)
        total = total.add(score)
        by_seat[seat] = by_seat[seat].add(score)
    lengths = [record.length for record in records]
    return HeadToHead(env, dict(env_kwargs), agent, opponent, base_seed, total, (by_seat[0], by_seat[1]),
                      truncated=sum(record.truncated for record in records),
                      mean_length=sum(lengths) / len(lengths) if lengths else 0.0)
