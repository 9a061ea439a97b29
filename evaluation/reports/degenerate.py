"""Degenerate strategies: policy findings that speak about the rules, not about who plays best.

That one agent beats another is skill (:mod:`issoku.evaluation.reports.skill`). What the rules are to blame for is play
that no skill answers:

* **stalling** — a policy that draws at least half of its games against *every* opponent it met, the strongest
  included: it never commits and cannot be punished, so the rules give no way to force a decision;
* **mutual stalling** — pairs of policies that draw nearly all their games: two fighters who both wait never
  fight, and nothing in the rules makes them;
* **one action wins** — a policy that plays one action in most of its decisions and still scores above ½
  against every opponent it met (its Wilson interval above ½): the action wins whatever the opponent does.

(A restricted-play battery whose games are all draws measures nothing; the report says so where it lists the
battery.) Each is a headline line opening with a plain sentence. The games between policies are the ones every
other measure reads (:func:`~issoku.evaluation.stats.pairings.games_between`: mirrors left out); a draw scores ½.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from issoku.evaluation.reports.findings import agent_kinds, named
from issoku.evaluation.stats.metrics import matchup_matrix
from issoku.evaluation.stats.pairings import Games, by_policy, games_between
from issoku.evaluation.games.records import MatchRecord

STALL_SHARE = 0.5
"""A policy drawing at least this share of its games against every opponent stalls."""
MUTUAL_STALL_SHARE = 0.9
"""Two policies drawing at least this share of their games with each other stall each other."""
ONE_ACTION_SHARE = 0.8
"""A policy playing one action in at least this share of its decisions plays one action."""
MIN_GAMES = 10
"""Pairs that met fewer times are not judged."""


def draw_matrix(games: Games) -> np.ndarray:
    """How many of the games between ``i`` and ``j`` were drawn (symmetric)."""
    n = len(games.names)
    draws = np.zeros((n, n))
    drawn = games.score == 0.5
    np.add.at(draws, (games.first[drawn], games.second[drawn]), 1.0)
    return draws + draws.T


def _opponents(played: np.ndarray, i: int) -> list[int]:
    """The policies ``i`` met at least :data:`MIN_GAMES` times."""
    return [j for j in range(len(played)) if j != i and played[i, j] >= MIN_GAMES]


def stall_lines(env: str, records: Sequence[MatchRecord], strength: Mapping[str, float]) -> list[str]:
    """A headline per stalling policy, and one naming the pairs that stall each other (``strength``: each policy's
    rating, to name the strongest opponent)."""
    games = games_between(records, by_policy)
    _, played = games.matrices()
    draws = draw_matrix(games)
    names = games.names
    lines = []
    for i, policy in enumerate(names):
        met = _opponents(played, i)
        if len(met) < 2 or any(draws[i, j] < STALL_SHARE * played[i, j] for j in met):
            continue
        strongest = max(met, key=lambda j: strength.get(names[j], 0.0))
        agents = sorted([policy, *(names[j] for j in met)])
        lines.append(f"{env}: {policy} forces draws: it never commits and cannot be punished, even by "
                     f"{names[strongest]}. DEGENERATE (stalling): {int(draws[i, met].sum())} of "
                     f"{int(played[i, met].sum())} games drawn, at least "
                     f"{min(draws[i, j] / played[i, j] for j in met):.0%} against each of its {len(met)} opponents "
                     f"({agent_kinds(agents)} agents: {named(agents)}); look at what ends a fight (a round limit, a "
                     "rule that forces engagement).")
    mutual = [(i, j) for i in range(len(names)) for j in _opponents(played, i)
              if i < j and draws[i, j] >= MUTUAL_STALL_SHARE * played[i, j]]
    if mutual:
        shown = "; ".join(f"{names[i]} – {names[j]} {int(draws[i, j])}/{int(played[i, j])}" for i, j in mutual[:6])
        lines.append(f"{env}: Some pairs of fighters never fight each other: both wait, and the rules let them. "
                     f"DEGENERATE (mutual stalling): {len(mutual)} pairs draw at least {MUTUAL_STALL_SHARE:.0%} "
                     f"of their games: {shown}" + (f"; and {len(mutual) - 6} more" if len(mutual) > 6 else "")
                     + f" ({agent_kinds({names[k] for pair in mutual for k in pair})} agents).")
    return lines


def one_action_lines(env: str, records: Sequence[MatchRecord], confidence: float = 0.95) -> list[str]:
    """A headline per policy that plays one action most of the time and beats every opponent it met."""
    games = games_between(records, by_policy)
    matchups = matchup_matrix(games, confidence)
    actions: dict[str, Counter[str]] = {}
    for record in records:
        for policy, played in zip(record.policies, record.actions):
            actions.setdefault(policy, Counter()).update(played)
    lines = []
    for i, policy in enumerate(games.names):
        met = _opponents(matchups.games, i)
        counts = actions.get(policy, Counter())
        if len(met) < 2 or not counts:
            continue
        action, used = counts.most_common(1)[0]
        share = used / sum(counts.values())
        hardest = min(met, key=lambda j: matchups.low[i, j])
        if share < ONE_ACTION_SHARE or matchups.low[i, hardest] <= 0.5:
            continue
        lines.append(f"{env}: One action wins whatever the opponent does: {policy} plays {action} in {share:.0%} "
                     f"of its decisions. DEGENERATE (one action): it scores above ½ against each of its {len(met)} "
                     f"opponents, {matchups.rate[i, hardest]:.0%} [{matchups.low[i, hardest]:.0%}, "
                     f"{matchups.high[i, hardest]:.0%}] against {games.names[hardest]}, its hardest "
                     f"({agent_kinds([policy])} agents: {policy}).")
    return lines
