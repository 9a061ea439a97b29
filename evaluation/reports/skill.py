"""How much skill decides a fight: the ladder of agents and the share of fights the better one wins.

That a strong agent beats weak ones says how well the agents play, not whether the rules are balanced; a rules
finding must say something about the rules. So the report gives skill a section of its own, per env: the
**ladder** of the agents that met (weakest first, their Bradley–Terry ratings), and **how often the higher-rated of
two agents wins** their decided games. Under pure luck it would win half of them; if a share ``L`` of the games were
coin flips and the rest went to the better agent, it would win ``1 − L/2``: the **luck share** is twice the upsets'
share. A ladder whose better agents win most fights is good news: the rules reward playing well.

Only agents that met, directly or through common opponents, share one ladder (:mod:`issoku.evaluation.stats.connected`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from issoku.evaluation.stats.connected import met_components
from issoku.evaluation.reports.findings import agent_kinds, named
from issoku.evaluation.reports.html_report import escape_cell
from issoku.evaluation.stats.pairings import Games
from issoku.evaluation.stats.ratings import Ratings, rate
from issoku.common.outcomes import Proportion, wilson


@dataclass(frozen=True)
class Skill:
    """One ladder of agents that met, and how often the better of two wins."""

    ratings: Ratings
    stronger_wins: Proportion
    """The higher-rated agent's share of the decided games between two agents of this ladder."""
    draws: int
    games: int

    @property
    def ladder(self) -> list[int]:
        """The agents' indices, weakest first."""
        return self.ratings.ranked()[::-1]

    @property
    def luck_share(self) -> float:
        """Twice the upsets' share of the decided games (1: every decided game a coin flip; 0: none)."""
        return min(1.0, 2.0 * (1.0 - self.stronger_wins.value)) if self.stronger_wins.n else 1.0

    @property
    def pays(self) -> bool:
        """Whether the better agent wins significantly more than half of the decided games."""
        return self.stronger_wins.low > 0.5


def skill_ladders(games: Games, bootstrap: int = 1000, seed: int = 0, confidence: float = 0.95) -> list[Skill]:
    """One :class:`Skill` per group of at least two agents that met among ``games`` (largest group first)."""
    found = []
    for names in met_components(games):
        if len(names) < 2:
            continue
        index = [games.names.index(name) for name in names]
        keep = np.isin(games.first, index) & np.isin(games.second, index)
        remap = {old: new for new, old in enumerate(index)}
        group = Games(names, np.array([remap[i] for i in games.first[keep]], dtype=np.int64),
                      np.array([remap[i] for i in games.second[keep]], dtype=np.int64), games.score[keep])
        ratings = rate(group, bootstrap=bootstrap, seed=seed, confidence=confidence)
        decided = group.score != 0.5
        first_better = ratings.elo[group.first] > ratings.elo[group.second]
        better_won = np.where(first_better, group.score == 1.0, group.score == 0.0) & decided
        found.append(Skill(ratings, wilson(float(better_won.sum()), int(decided.sum()), confidence),
                           int((~decided).sum()), len(group)))
    return found


def skill_headline(env: str, skill: Skill) -> str:
    """One line: a plain sentence on how much skill decides a fight, then the ladder."""
    won = skill.stronger_wins
    names = [skill.ratings.names[i] for i in skill.ladder]
    if skill.pays:
        opening = (f"Skill decides fights: the better of two agents wins {won.value:.0%} of decided games, a gradient "
                   f"from {names[0]} to {names[-1]}.")
    else:
        opening = f"Skill barely shows: the better of two agents wins only {won.value:.0%} of decided games."
    return (f"{env}: skill: {opening} Higher-rated agent wins {won.value:.1%} [{won.low:.1%}, {won.high:.1%}] of "
            f"{won.n} decided games (luck share {skill.luck_share:.0%}; {skill.draws} of {skill.games} drawn); "
            "ladder, weakest first: " + ", ".join(f"{skill.ratings.names[i]} {skill.ratings.elo[i]:+.0f}"
                                                  for i in skill.ladder)
            + f" Elo ({agent_kinds(names)} agents: {named(sorted(names))}). Skill, not a rules finding.")


def skill_section(skills: Sequence[Skill]) -> list[str]:
    """The report's skill section: per ladder, its agents weakest first and how much skill decides a fight."""
    if not skills:
        return []
    lines = ["### Skill: who plays best, and how much it matters", "",
             "The agents that met, weakest first (the ratings above, one scale per group that met), and how often "
             "the higher-rated of two wins their decided games: ½ would be pure luck; the **luck share** is twice "
             "the upsets' share (the share of games that behave like coin flips). A steep ladder is good news: the "
             "rules reward good play. Who beats whom is the matchup matrix above. None of this is a rules finding.",
             ""]
    for skill in skills:
        ratings, won = skill.ratings, skill.stronger_wins
        lines += [f"| rung | agent | Elo | {ratings.confidence:.0%} interval | games |", "|---|---|---|---|---|"]
        lines += [f"| {rung + 1} | {escape_cell(ratings.names[i])} | {ratings.elo[i]:+.0f} | "
                  f"[{ratings.low[i]:+.0f}, {ratings.high[i]:+.0f}] | {int(ratings.games[i])} |"
                  for rung, i in enumerate(skill.ladder)] + [""]
        lines += [f"The higher-rated agent won {won.value:.1%} [{won.low:.1%}, {won.high:.1%}] of {won.n} decided "
                  f"games ({skill.draws} of {skill.games} drawn): luck share {skill.luck_share:.0%}.", ""]
    return lines
