"""Degenerate strategies: policy findings that speak about the rules, not about who plays best.

That one agent beats another is skill (:mod:`issoku.evaluation.skill`). What the rules are to blame for is play
that no skill answers:

* **stalling** — a policy that draws at least half of its games against *every* opponent it met, the strongest
  included: it never commits and cannot be punished, so the rules give no way to force a decision;
* **mutual stalling** — pairs of policies that draw nearly all their games: two fighters who both wait never
  fight, and nothing in the rules makes them;
* **one action wins** — a policy that plays one action in most of its decisions and still scores above ½
  against every opponent it met (its 95 % Wilson interval above ½): the action wins whatever the opponent does.

(A restricted-play battery whose games are all draws measures nothing; the report says so where it lists the
battery.) Each is a headline line opening with a plain sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from issoku.evaluation.findings import agent_kinds, named
from issoku.evaluation.records import MatchRecord
from issoku.training.outcomes import wilson

STALL_SHARE = 0.5
"""A policy drawing at least this share of its games against every opponent stalls."""
MUTUAL_STALL_SHARE = 0.9
"""Two policies drawing at least this share of their games with each other stall each other."""
ONE_ACTION_SHARE = 0.8
"""A policy playing one action in at least this share of its decisions plays one action."""
MIN_GAMES = 10
"""Pairs that met fewer times are not judged."""


@dataclass(frozen=True)
class Pair:
    """What one policy did against one opponent."""

    games: int = 0
    draws: int = 0
    score: float = 0.0


def pair_tallies(records: Sequence[MatchRecord]) -> dict[tuple[str, str], Pair]:
    """Per ordered pair of different policies (two-seat games), the games, draws and the first's score."""
    tallies: dict[tuple[str, str], Pair] = {}
    for record in records:
        if record.num_seats != 2 or record.policies[0] == record.policies[1]:
            continue
        for seat in (0, 1):
            key = (record.policies[seat], record.policies[1 - seat])
            old = tallies.get(key, Pair())
            tallies[key] = Pair(old.games + 1, old.draws + (record.winner is None), old.score + record.score(seat))
    return {key: pair for key, pair in tallies.items() if pair.games >= MIN_GAMES}


def stall_lines(env: str, records: Sequence[MatchRecord], strength: dict[str, float]) -> list[str]:
    """A headline per stalling policy, and one naming the pairs that stall each other (``strength``: each policy's
    rating, to name the strongest opponent)."""
    tallies = pair_tallies(records)
    lines = []
    for policy in sorted({p for p, _ in tallies}):
        met = {other: pair for (p, other), pair in tallies.items() if p == policy}
        if len(met) < 2 or any(pair.draws < STALL_SHARE * pair.games for pair in met.values()):
            continue
        strongest = max(met, key=lambda other: strength.get(other, 0.0))
        drawn = sum(pair.draws for pair in met.values())
        games = sum(pair.games for pair in met.values())
        lines.append(f"{env}: {policy} forces draws: it never commits and cannot be punished, even by {strongest}. "
                     f"DEGENERATE (stalling): {drawn} of {games} games drawn, at least "
                     f"{min(pair.draws / pair.games for pair in met.values()):.0%} against each of its {len(met)} "
                     f"opponents ({agent_kinds([policy, *met])} agents: {named(sorted([policy, *met]))}); "
                     "look at what ends a fight (a round limit, a rule that forces engagement).")
    mutual = sorted((a, b) for (a, b), pair in tallies.items()
                    if a < b and pair.draws >= MUTUAL_STALL_SHARE * pair.games)
    if mutual:
        shown = "; ".join(f"{a} – {b} {tallies[a, b].draws}/{tallies[a, b].games}" for a, b in mutual[:6])
        lines.append(f"{env}: Some pairs of fighters never fight each other: both wait, and the rules let them. "
                     f"DEGENERATE (mutual stalling): {len(mutual)} pairs draw at least {MUTUAL_STALL_SHARE:.0%} "
                     f"of their games: {shown}" + (f"; and {len(mutual) - 6} more" if len(mutual) > 6 else "")
                     + f" ({agent_kinds({p for pair in mutual for p in pair})} agents).")
    return lines


def one_action_lines(env: str, records: Sequence[MatchRecord], confidence: float = 0.95) -> list[str]:
    """A headline per policy that plays one action most of the time and beats every opponent it met."""
    tallies = pair_tallies(records)
    actions: dict[str, Counter[str]] = {}
    for record in records:
        for policy, played in zip(record.policies, record.actions):
            actions.setdefault(policy, Counter()).update(played)
    lines = []
    for policy in sorted({p for p, _ in tallies}):
        met = {other: pair for (p, other), pair in tallies.items() if p == policy}
        counts = actions.get(policy, Counter())
        if len(met) < 2 or not counts:
            continue
        action, used = counts.most_common(1)[0]
        share = used / sum(counts.values())
        worst = min(met, key=lambda other: wilson(met[other].score, met[other].games, confidence).low)
        low = wilson(met[worst].score, met[worst].games, confidence)
        if share < ONE_ACTION_SHARE or low.low <= 0.5:
            continue
        lines.append(f"{env}: One action wins whatever the opponent does: {policy} plays {action} in {share:.0%} "
                     f"of its decisions. DEGENERATE (one action): it scores above ½ against each of its {len(met)} "
                     f"opponents, {low.value:.0%} [{low.low:.0%}, {low.high:.0%}] against {worst}, its hardest "
                     f"({agent_kinds([policy])} agents: {policy}).")
    return lines
