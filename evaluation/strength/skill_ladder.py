"""The skill ladder of an env: how much stronger each rung of agents is than the one below, measured.

Every finding of the balance lab is a statement about the rules *under some agents*, so the lab needs to know
how well its agents play. The ladder plays each adjacent pair of rungs (``random`` < ``one_step`` <
``mcts_small`` < ``mcts_large`` by default) and the top rung against each reference agent (the best scripted
agent, the shipped learned one), as seeded head-to-heads with seats swapped
(:func:`~issoku.evaluation.strength.head_to_head.head_to_head`), and says whether each pair is *separated*: the upper
agent's score interval (95 %, a draw counting half) excludes 50 %.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from issoku.evaluation.strength.head_to_head import IN_MEMORY, HeadToHead, head_to_head, head_to_head_study
from issoku.common.backend import Workers

RUNGS = ("random", "one_step", "mcts_small", "mcts_large")
"""The default rungs, weakest first (:mod:`issoku.agents.search`)."""

REFERENCES = {
    "breath_duel_v0": ("ma_heuristic", "shipped:breath_duel_v0"),
    "tempo_duel_v0": ("tempo_feint_counter", "shipped:tempo_duel_v0"),
    "encounter_duel_v0": ("encounter_heuristic", "shipped:encounter_duel_v0"),
}
"""Each duel's reference agents: its strongest scripted agent and its shipped learned one.

The strongest by head-to-head, seats swapped (docs/agents.md#the-skill-ladder): ``tempo_feint_counter`` beats
``tempo_heuristic`` 62.5 % [57.7 %, 67.1 %] over 400 duels; no encounter agent beats ``encounter_heuristic``
(``encounter_fire`` 49.5 %, ``encounter_water`` 46.8 %, 400 duels each), though the balance report's Elo, fitted
on a round robin against every agent, puts them a few points above it."""


@dataclass(frozen=True)
class Step:
    """One measured pair: the upper agent's results against the lower one."""

    upper: str
    lower: str
    result: HeadToHead

    @property
    def separated(self) -> bool:
        """The upper agent's 95 % score interval lies above 50 %."""
        return self.result.total.score_rate().low > 0.5


def measure(env: str, rungs: Sequence[str] = RUNGS, references: Sequence[str] | None = None, duels: int = 100,
            workers: Workers = 0, db: Path | str = IN_MEMORY, progress: bool = False,
            env_kwargs: Mapping[str, Any] | None = None) -> list[Step]:
    """Play each adjacent pair of ``rungs`` and the top rung against each of ``references`` (default: the env's
    :data:`REFERENCES`), ``duels`` seat-swapped duels each, in ``env`` built with ``env_kwargs``. Every pair is
    checked before the first duel is played, so an unknown agent, or one that cannot play ``env``, is refused
    without playing the pairs before it.

    Why ``env_kwargs``: where a duel's default loadouts are lopsided (the encounter duel's ono_brute wins about seven
    games in ten between like agents), every pair's score is pressed toward 50 %; a mirror match measures the
    agents' skill without the loadouts' edge."""
    if len(rungs) < 2 and not references:
        raise ValueError("a skill ladder needs two rungs or a reference")
    chosen = REFERENCES.get(env, ()) if references is None else tuple(references)
    pairs = [(upper, lower) for lower, upper in zip(rungs, rungs[1:])]
    pairs += [(rungs[-1], reference) for reference in chosen]
    # a shipped agent is named by its env id, as the rungs' names may be: it plays as "learned"
    opponents = [lower if not lower.startswith("shipped:") else f"learned={lower}" for _, lower in pairs]
    kwargs = dict(env_kwargs or {})
    for (upper, _), opponent in zip(pairs, opponents):
        head_to_head_study(upper, opponent, duels, env, kwargs, 0)
    return [Step(upper, lower, head_to_head(upper, opponent, duels, env=env, env_kwargs=kwargs, workers=workers,
                                            db=db, progress=progress))
            for (upper, lower), opponent in zip(pairs, opponents)]


def table(env: str, steps: Sequence[Step], env_kwargs: Mapping[str, Any] | None = None) -> str:
    """The ladder as a Markdown table, one row per measured pair (its head names ``env_kwargs``, where given)."""
    import json

    from issoku.evaluation.reports.html_report import code_span, escape_cell, escape_markdown

    title = env if not env_kwargs else f"{env} {json.dumps(dict(env_kwargs), sort_keys=True)}"
    lines = [f"| {escape_cell(escape_markdown(title))}: agent | against | duels | score (95 % interval) | separated |",
             "|---|---|---|---|---|"]
    for step in steps:
        score = step.result.total.score_rate()
        upper, lower = (escape_cell(code_span(name)) for name in (step.upper, step.lower))
        lines.append(f"| {upper} | {lower} | {step.result.total.duels} | {score.value:.1%} "
                     f"[{score.low:.1%}, {score.high:.1%}] | {'yes' if step.separated else 'no'} |")
    return "\n".join(lines)


def results_header(command: str) -> str:
    """The date, machine, command and code a results file was written by, once at its head.

    The code is named by its digest (:func:`~issoku.common.backend.code_identity`): agents are stored and
    registered by name, so a figure measured before an agent's code changed reads the same as one after."""
    from issoku.common.backend import code_identity

    version, code, data = code_identity()
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Written by `{command}` on {when}; issoku {version} (code {code}, rules data {data}); "
            f"{platform.system()} {platform.machine()}, Python {platform.python_version()}.\n")
