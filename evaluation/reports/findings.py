"""The report's findings: each effect with a corrected interval, a verdict and a severity a designer can trust.

A **finding** is one measured effect on the score scale (points of score away from an even ½): the strongest
side's score against the field, the first mover's edge, a restriction's win-rate drop. Every finding of one env
section is tested at once, so its interval is **Bonferroni**-corrected: at confidence ``1 − (1 − level) / m``
for ``m`` findings. Only findings whose corrected interval excludes zero are headlines; the others are listed as
not significant (a tie is said to be one, never headlined as a winner).

Each finding carries a **verdict** against the designer's :class:`Thresholds` (``--balance-threshold``,
``--severe-threshold``):

* *imbalanced* — the whole corrected interval lies beyond ± the balance threshold;
* *balanced* — the whole corrected interval lies within ± the balance threshold;
* *undetermined* — the interval straddles the threshold (more games would tell);

and a **severity** from its point estimate: *severe* (at least the severe threshold), *moderate* (at least the
balance threshold), *slight* (below it). It also says which agents produced it: *scripted* (registered agents),
*learned or imported* (checkpoints and import paths), or both — a finding resting on scripted agents alone
speaks about those agents' play as much as about the rules.

A headlined finding may also say which stored games show it (``pick``, :mod:`issoku.evaluation.reports.example_games`)
and what they are (``shows``): report.html links them from the headline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from issoku.evaluation.reports.example_games import Example
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.design.restricted import split_restriction
from issoku.evaluation.reports.rule_trail import Trail
from issoku.evaluation.stats.sequential import SequentialTest
from issoku.common.outcomes import wilson

Picker = Callable[[Sequence[MatchRecord], Sequence[MatchRecord], CompositionSpec | None], list[Example]]
"""Picks the games that show a finding from a section's ordinary games, its restricted-play games and its
composition spec."""


@dataclass(frozen=True)
class Thresholds:
    """What a designer calls balanced and what severe, in points of score (0.05 = five percentage points)."""

    balance: float = 0.05
    """An effect whose whole interval lies within ± this is balanced; wholly beyond it, imbalanced."""
    severe: float = 0.15
    """An effect at least this large is severe."""
    combo_ratio: float = 1.5
    """A combo buying at least this multiple of the median composition's Wounds per Energy is imbalanced."""
    combo_severe: float = 2.5
    """...and severe from this multiple."""
    sequential: SequentialTest = SequentialTest()
    """The matchup cells' sequential tests (``--delta``; δ defaults to the balance threshold on the command line)."""

    def describe(self, of: str = "an even ½ (a 50% score)") -> str:
        """One sentence a report opens with (``of``: what an effect is measured from)."""
        return (f"Verdicts: *balanced* when an effect's whole corrected interval lies within ±{points(self.balance)} "
                f"points of score of {of}, *imbalanced* when it lies wholly beyond, else "
                f"*undetermined*; severity from the estimate: *severe* from {points(self.severe)} points, *moderate* "
                f"from {points(self.balance)}, else *slight* "
                f"(`--balance-threshold`, `--severe-threshold`). Combos: imbalanced from {self.combo_ratio:g}× the "
                f"median composition's Wounds per Energy, severe from {self.combo_severe:g}× "
                f"(`--combo-threshold`, `--combo-severe`).")


def points(value: float, sign: bool = False) -> str:
    """A score difference in points of 100, one decimal, never ``-0.0``."""
    rounded = round(value * 100, 1) + 0.0
    return f"{rounded:+.1f}" if sign else f"{rounded:g}"


SCRIPTED, SEARCH, LEARNED = "scripted", "search", "learned or imported"
AGENT_KINDS = (SCRIPTED, SEARCH, LEARNED)


def agent_kind(policy: str) -> str:
    """The kind of one policy: a registered agent that searches the game state (``search``), another registered
    agent (``scripted``), or a checkpoint or import path (``learned or imported``); a restricted policy counts as
    its base."""
    from issoku.agents.registry import POLICY_FACTORIES, reads_state

    parsed = split_restriction(policy)
    base = parsed[0] if parsed else policy
    if base not in POLICY_FACTORIES:
        return LEARNED
    return SEARCH if reads_state(base) else SCRIPTED


def agent_kinds(policies: Iterable[str]) -> str:
    """``"scripted"``, ``"search"``, ``"learned or imported"`` or several joined by ``+``, for the policies behind
    a finding."""
    kinds = {agent_kind(name) for name in policies}
    return " + ".join(kind for kind in AGENT_KINDS if kind in kinds) or "no"


PLAIN_LIMIT = 160
"""The most characters a headline's plain opening sentence may have."""
NAMED = 6
"""At most this many agents are named in a headline; the rest are counted."""


def named(policies: Sequence[str]) -> str:
    """``"a, b, c"``, or the first :data:`NAMED` and ``"and N more"``."""
    shown = ", ".join(policies[:NAMED])
    return shown + (f" and {len(policies) - NAMED} more" if len(policies) > NAMED else "")


def policies_of(records: Iterable[MatchRecord]) -> list[str]:
    """Every policy that played in ``records``, sorted."""
    return sorted({policy for record in records for policy in record.policies})


@dataclass(frozen=True)
class Finding:
    """One effect of one env section, in points of score (signed), with its corrected interval, and the stored
    games that show it."""

    env: str
    subject: str
    """What was measured, as a headline reads it (Markdown)."""
    effect: float
    low: float
    high: float
    agents: str
    detail: str = ""
    """What backs the estimate (counts, Elo...), shown after the interval."""
    interval: Callable[[float], tuple[float, float]] | None = None
    """The effect's interval at a given confidence (for the correction); None keeps ``low``/``high``."""
    kind: str = "score"
    """``"score"`` (points of score) or ``"ratio"`` (a combo's multiple of the median; no interval test)."""
    pick: Picker | None = None
    """Picks the example games report.html links from the headline; None: no game shows it (the first mover)."""
    shows: str = ""
    """What the picked games are ("games it decided")."""
    about: tuple[str, ...] = ()
    """What play the finding is about, for its rule trail: ``("policy", name)``, ``("loadout", label)``,
    ``("first",)``, ``("actions", *names)`` (a restriction's or a combo's actions)."""
    trail: Trail = Trail()
    """The rule IDs, data and first lever it rests on (:mod:`issoku.evaluation.reports.rule_trail`)."""
    plain: str = ""
    """The headline's opening: one plain sentence a designer can read aloud (at most :data:`PLAIN_LIMIT`
    characters); the statistics follow it. "" opens with the verdict."""
    players: tuple[str, ...] = ()
    """The agents that played the games behind it, named after their kinds; () names the kinds only."""

    @property
    def significant(self) -> bool:
        """Whether the corrected interval excludes zero (a ratio finding: whether it stands above the median)."""
        return self.low > 1.0 if self.kind == "ratio" else (self.low > 0.0 or self.high < 0.0)

    def verdict(self, thresholds: Thresholds) -> str:
        """imbalanced / balanced / undetermined against ``thresholds``."""
        if self.kind == "ratio":
            limit = thresholds.combo_ratio
            return "imbalanced" if self.low >= limit else "balanced" if self.high < limit else "undetermined"
        limit = thresholds.balance
        if self.low > limit or self.high < -limit:
            return "imbalanced"
        return "balanced" if -limit <= self.low and self.high <= limit else "undetermined"

    def severity(self, thresholds: Thresholds) -> str:
        """severe / moderate / slight, from the point estimate."""
        if self.kind == "ratio":
            size, severe, moderate = self.effect, thresholds.combo_severe, thresholds.combo_ratio
        else:
            size, severe, moderate = abs(self.effect), thresholds.severe, thresholds.balance
        return "severe" if size >= severe else "moderate" if size >= moderate else "slight"

    def line(self, thresholds: Thresholds) -> str:
        """The finding as one headline (or not-significant) line."""
        if self.kind == "ratio":
            size = f"{self.effect:.2f}× the median"
        else:
            size = f"{points(self.effect, True)} pts [{points(self.low, True)}, {points(self.high, True)}]"
        verdict = f"{self.verdict(thresholds).upper()}, {self.severity(thresholds)}"
        opening = f"{self.plain} " if self.plain else ""
        agents = f"{self.agents} agents" + (f": {named(self.players)}" if self.players else "")
        return f"{self.env}: {opening}{verdict}: {self.subject}: {size}{self.detail} ({agents}).{self.trail.text()}"

    def games(self, records: Sequence[MatchRecord], restricted: Sequence[MatchRecord],
              composition: CompositionSpec | None) -> list[Example]:
        """The example games among ``records`` (ordinary games) and ``restricted`` (restricted play)."""
        return self.pick(records, restricted, composition) if self.pick is not None else []


def corrected(findings: Sequence[Finding], confidence: float) -> list[Finding]:
    """``findings`` with their intervals Bonferroni-corrected over the score findings among them."""
    tested = [finding for finding in findings if finding.interval is not None]
    level = 1.0 - (1.0 - confidence) / max(1, len(tested))
    out = []
    for finding in findings:
        if finding.interval is not None:
            low, high = finding.interval(level)
            finding = replace(finding, low=low, high=high)
        out.append(finding)
    return out


def score_finding(env: str, subject: str, successes: float, n: int, agents: str, detail: str = "",
                  sign: float = 1.0, pick: Picker | None = None, shows: str = "", about: tuple[str, ...] = ()) -> Finding:
    """A finding on a score rate (``successes`` of ``n``, draws as halves): effect = ``sign`` × (rate − ½),
    Wilson intervals; ``pick``/``shows``: its example games."""
    def interval(level: float) -> tuple[float, float]:
        cell = wilson(successes, n, level)
        bounds = sorted((sign * (cell.low - 0.5), sign * (cell.high - 0.5)))
        return bounds[0], bounds[1]

    low, high = interval(0.95)
    return Finding(env, subject, sign * (successes / n - 0.5) if n else 0.0, low, high, agents, detail, interval,
                   pick=pick, shows=shows, about=about)


def level_text(findings: Sequence[Finding], confidence: float) -> str:
    """How the intervals of one section were corrected."""
    tested = sum(finding.interval is not None for finding in findings)
    level = 1.0 - (1.0 - confidence) / max(1, tested)
    return f"{tested} effects tested at once: each interval at {level:.2%} (Bonferroni, family {confidence:.0%})"
