"""Degenerate strategies: policy findings that speak about the rules, not about who plays best.

That one agent beats another is skill (:mod:`issoku.evaluation.reports.skill`). What the rules are to blame for is play
that no skill answers:

* **stalling** — a policy that draws at least half of its games against *every* opponent it met, the strongest
  included: it never commits and cannot be punished, so the rules give no way to force a decision;
* **mutual stalling** — pairs of policies that draw nearly all their games: two fighters who both wait never
  fight, and nothing in the rules makes them;
* **one action wins** — a policy that plays one action in most of its decisions and still scores above ½
  against every opponent it met (its Wilson interval above ½): the action wins whatever the opponent does.

* **vacuous battery** — a restricted-play battery whose games are all draws measures nothing: no restriction can
  move a score that never leaves ½.

Each is a headline line opening with a plain sentence, then, like every other headline, its figure with a Wilson
interval (at the report's confidence, uncorrected: one interval per pair or opponent), whether it is significant
(the interval wholly past the line that defines the degeneracy: a draw share above :data:`STALL_SHARE`, above
:data:`MUTUAL_STALL_SHARE`, a score above ½) and the rule IDs it rests on, read from the engine by replaying stored
games: for a draw, the events that ended the game undecided (a round limit: ``EN-G18``); for one action, the events
it produced (:class:`~issoku.evaluation.reports.rule_trail.RuleTrails`). The games between policies are the ones every
other measure reads (:func:`~issoku.evaluation.stats.pairings.games_between`: mirrors left out); a draw scores ½.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from issoku.evaluation.reports.coverage import build_ruleset
from issoku.evaluation.reports.findings import agent_kinds, named, policies_of
from issoku.evaluation.stats.metrics import matchup_matrix
from issoku.evaluation.stats.pairings import Games, by_policy, games_between
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.design.restricted import split_restriction
from issoku.evaluation.reports.rule_trail import MOST, RuleTrails
from issoku.evaluation.games.viewing import replayed
from issoku.common.outcomes import wilson

STALL_SHARE = 0.5
"""A policy drawing at least this share of its games against every opponent stalls."""
MUTUAL_STALL_SHARE = 0.9
"""Two policies drawing at least this share of their games with each other stall each other."""
ONE_ACTION_SHARE = 0.8
"""A policy playing one action in at least this share of its decisions plays one action."""
MIN_GAMES = 10
"""Pairs that met fewer times are not judged."""
ENDINGS = 3
"""At most this many drawn games are replayed to read the rules that ended them."""


def ending_rules(records: Sequence[MatchRecord], most: int = MOST) -> tuple[str, ...]:
    """The rule IDs of the events in the last step of a few of ``records``' drawn games, replayed, most frequent
    first and, among as frequent, the latest event first: the rule that ended the fight undecided (a round limit)
    leads; () when none can be replayed."""
    counts: Counter[str] = Counter()
    last: dict[str, int] = {}
    for record in [r for r in records if r.winner is None][:ENDINGS]:
        fight = replayed(record)
        for back, event in enumerate(reversed(fight.frames[-1].events) if fight is not None and fight.frames else ()):
            if event.get("rule"):
                rule = str(event["rule"])
                counts[rule] += 1
                last[rule] = min(last.get(rule, back), back)
    return tuple(sorted(counts, key=lambda rule: (-counts[rule], last[rule], rule))[:most])


def rests_on(rules: Sequence[str]) -> str:
    """`` Rests on EN-G18, EN-013.`` ("" when no rule was read)."""
    return f" Rests on {', '.join(rules)}." if rules else ""


def share(count: float, games: float, confidence: float) -> str:
    """``95% [86%, 98%]``: a share with its Wilson interval."""
    cell = wilson(count, int(games), confidence)
    return f"{count / games:.0%} [{cell.low:.0%}, {cell.high:.0%}]"


def above(count: float, games: float, line: float, confidence: float) -> bool:
    """Whether the Wilson interval of ``count`` of ``games`` lies wholly above ``line``."""
    return wilson(count, int(games), confidence).low > line


def significance(count: int, total: int, line: float, confidence: float) -> str:
    """``significant: every interval above 50%`` or how many were, at ``confidence``."""
    if count == total:
        return f"significant: {'every' if total > 1 else 'its'} interval above {line:.0%} at {confidence:.0%}"
    return f"{count} of {total} intervals above {line:.0%} at {confidence:.0%}" + ("" if count else ": not significant")


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


def stall_lines(env: str, records: Sequence[MatchRecord], strength: Mapping[str, float],
                confidence: float = 0.95) -> list[str]:
    """A headline per stalling policy, and one naming the pairs that stall each other (``strength``: each policy's
    rating, to name the strongest opponent), each with its draw shares' intervals, their significance and the rules
    that ended the drawn games."""
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
        least = min(met, key=lambda j: draws[i, j] / played[i, j])
        beyond = sum(above(draws[i, j], played[i, j], STALL_SHARE, confidence) for j in met)
        lines.append(f"{env}: {policy} forces draws: it never commits and cannot be punished, even by "
                     f"{names[strongest]}. DEGENERATE (stalling): {int(draws[i, met].sum())} of "
                     f"{int(played[i, met].sum())} games drawn "
                     f"({share(draws[i, met].sum(), played[i, met].sum(), confidence)}), at least "
                     f"{min(draws[i, j] / played[i, j] for j in met):.0%} against each of its {len(met)} opponents "
                     f"(fewest against {names[least]}: {share(draws[i, least], played[i, least], confidence)} of "
                     f"{int(played[i, least])}; "
                     f"{significance(beyond, len(met), STALL_SHARE, confidence)}) "
                     f"({agent_kinds(agents)} agents: {named(agents)}); look at what ends a fight (a round limit, a "
                     "rule that forces engagement)." + rests_on(ending_rules(_between(records, {policy}))))
    mutual = [(i, j) for i in range(len(names)) for j in _opponents(played, i)
              if i < j and draws[i, j] >= MUTUAL_STALL_SHARE * played[i, j]]
    if mutual:
        shown = "; ".join(f"{names[i]} – {names[j]} {int(draws[i, j])}/{int(played[i, j])} "
                          f"{share(draws[i, j], played[i, j], confidence)}" for i, j in mutual[:6])
        beyond = sum(above(draws[i, j], played[i, j], MUTUAL_STALL_SHARE, confidence) for i, j in mutual)
        pairs = {frozenset((names[i], names[j])) for i, j in mutual}
        lines.append(f"{env}: Some pairs of fighters never fight each other: both wait, and the rules let them. "
                     f"DEGENERATE (mutual stalling): {len(mutual)} pair{'s' * (len(mutual) > 1)} draw at least {MUTUAL_STALL_SHARE:.0%} "
                     f"of their games: {shown}" + (f"; and {len(mutual) - 6} more" if len(mutual) > 6 else "")
                     + f" ({significance(beyond, len(mutual), MUTUAL_STALL_SHARE, confidence)}) "
                     f"({agent_kinds({names[k] for pair in mutual for k in pair})} agents)."
                     + rests_on(ending_rules([r for r in records if frozenset(r.policies) in pairs])))
    return lines


def _between(records: Sequence[MatchRecord], policies: set[str]) -> list[MatchRecord]:
    """The games in which one of ``policies`` played someone else."""
    return [r for r in records if len(set(r.policies)) == 2 and policies & set(r.policies)]


def vacuous_battery_line(env: str, restricted: Sequence[MatchRecord], confidence: float = 0.95) -> list[str]:
    """A headline for a restricted-play battery whose games were all drawn (none otherwise): it measured nothing,
    so its restrictions are not listed as results; the draws' interval and the rules that ended them say why."""
    if not restricted or any(record.winner is not None for record in restricted):
        return []
    policies = policies_of(restricted)
    bases = ", ".join(sorted({(split_restriction(policy) or (policy,))[0] for policy in policies}))
    n = len(restricted)
    return [f"{env}: restricted play is vacuous: all {n} of its games were drawn, so it measures no restriction. "
            f"DEGENERATE (vacuous battery): draws {share(n, n, confidence)} of {n} ({bases} never decides a fight against "
            f"itself, restricted or not; {significance(int(above(n, n, STALL_SHARE, confidence)), 1, STALL_SHARE, confidence)}"
            f"); a fighter that never commits forces a draw ({agent_kinds(policies)} agents: {bases})."
            + rests_on(ending_rules(restricted))]


def one_action_lines(env: str, records: Sequence[MatchRecord], confidence: float = 0.95,
                     trails: RuleTrails | None = None) -> list[str]:
    """A headline per policy that plays one action most of the time and beats every opponent it met, resting on
    the rules that action produced (read by ``trails``, made from ``records`` when not given)."""
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
        used_share = used / sum(counts.values())
        hardest = min(met, key=lambda j: matchups.low[i, j])
        if used_share < ONE_ACTION_SHARE or matchups.low[i, hardest] <= 0.5:
            continue
        lines.append(f"{env}: One action wins whatever the opponent does: {policy} plays {action} in {used_share:.0%} "
                     f"of its decisions. DEGENERATE (one action): it scores above ½ against each of its {len(met)} "
                     f"opponents, {matchups.rate[i, hardest]:.0%} [{matchups.low[i, hardest]:.0%}, "
                     f"{matchups.high[i, hardest]:.0%}] (n={int(matchups.games[i, hardest])}) against "
                     f"{games.names[hardest]}, its hardest ({significance(len(met), len(met), 0.5, confidence)}) "
                     f"({agent_kinds([policy])} agents: {policy})."
                     + rests_on((trails or RuleTrails(records, build_ruleset(records))).rules_of([action])))
    return lines
