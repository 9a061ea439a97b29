"""What a hunt on a rules variant found about the edited data: the best response's play of every action that rests on it.

A hunt with ``--variant DIR`` asks one question a designer cares about: does a learner exploit my edit? The
variant's structural diff (:func:`issoku.rules.variant.data_diff`, the *What changed* of ``balance-report
--variant``) names the edited entries (``tanto / parry``); the ruleset's content hook (``action_content``, read
through :func:`issoku.evaluation.reports.coverage.content_map` as the coverage does) names the content items each action
exercises (``improvise:tanto.parry`` exercises ``defence:tanto.parry``). An action *touches* an edit when one of its
items is the edited entry. For each such action this module measures its share of the best response's decisions
against the mixture's and against the warm-start agent's (the agent the best response was trained from, in its games
against the same mixture), each with a 95 % interval on the difference, and the rule IDs it produced (:class:`issoku.evaluation.reports.rule_trail.RuleTrails`). An edit no game of the hunt
exercised is *untested by play*: the hunt cannot speak about it.

A learned-only edit is content no scripted agent plays, so the mixture's share is often 0 and any use by the best
response "rises" over it; the warm start is the fair baseline there (did training move toward the edit?), so a
finding (FOUND) needs the share to rise over both. Training may move toward an action on the base rules just as well
(it is how a learner beats this mixture, whatever the edit), so with ``hunt --control`` the same best response is also
trained and played on the base rules, and a finding is ATTRIBUTED to the edit only when the variant's best response
plays the action significantly more than that control does.

The shares are ratios of decisions pooled over games, and decisions within a game are not independent, so each
share's variance is the ratio estimator's over games (the delta method: ``Σ (c_i − R·d_i)² / (n (n−1) d̄²)`` for
``c_i`` uses among ``d_i`` decisions in game ``i``); a mixture's share is its members' weighted sum.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from issoku.evaluation.reports.html_report import code_span, escape_markdown
from issoku.evaluation.games.records import MatchRecord
from issoku.rules.variant import Change

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class EditedPlay:
    """One action that rests on edited data, and how a best response played it."""

    action: str
    edits: list[str]
    """The edits it touches, as the diff writes them (``breath/data/weapons.toml: tanto / parry: check_bonus ...``)."""
    share: float
    """Its share of the best response's decisions."""
    mixture_share: float
    """Its share of the mixture's decisions (each member's share weighted by its weight)."""
    low: float
    high: float
    """95 % interval of ``share − mixture_share``."""
    warm_share: float | None = None
    """Its share of the warm-start agent's decisions against the mixture (None: no warm start)."""
    warm_low: float | None = None
    warm_high: float | None = None
    """95 % interval of ``share − warm_share``."""
    played: bool = False
    """Whether any game of the hunt exercised it (any policy, either seat)."""
    rules: list[str] | None = None
    """The rule IDs its decisions produced, most frequent first (replayed games)."""
    control_share: float | None = None
    """Its share of the control best response's decisions (the same training on the base rules; None: no control)."""
    control_low: float | None = None
    control_high: float | None = None
    """95 % interval of ``share − control_share``."""

    @property
    def rose(self) -> bool:
        """The best response plays it significantly more than the mixture and than its warm start (each interval
        excludes zero, upwards)."""
        return self.low > 0 and (self.warm_low is None or self.warm_low > 0)

    @property
    def attributed(self) -> bool:
        """A finding (:attr:`rose`) that the control best response, trained alike on the base rules, does not share:
        the variant's best response plays it significantly more than the control (its interval excludes zero)."""
        return self.rose and self.control_low is not None and self.control_low > 0


def touches(item: str, change: Change) -> bool:
    """Whether content ``item`` (``defence:tanto.parry``, ``stance:spear_wall``, ``react:counter_attack``) is the
    entry ``change`` edits: the item's key parts (``tanto``, ``parry``) appear in a row in the edit's path
    (``tanto / parry`` then the field ``check_bonus``; a tempo weapon's ``spear / ap_by_action`` then ``counter_attack``)."""
    key = tuple(item.split(":", 1)[-1].split("."))
    path = (*change.item.split(" / "), change.field) if change.item else (change.field,)
    return any(path[start:start + len(key)] == key for start in range(len(path) - len(key) + 1))


def edited_actions(content: Mapping[str, Sequence[str]], changes: Sequence[Change]) -> dict[str, list[str]]:
    """Each action of ``content`` (action -> content items) that touches some edit, with those edits in words."""
    found: dict[str, list[str]] = {}
    for action, items in content.items():
        edits = [str(change) for change in changes if any(touches(item, change) for item in items)]
        if edits:
            found[action] = edits
    return found


def _per_game(records: Sequence[MatchRecord], policy: str, action: str) -> tuple[list[int], list[int]]:
    """Per game of ``policy``: its uses of ``action`` and its decisions (both seats if it played both)."""
    uses, decisions = [], []
    for record in records:
        seats = [seat for seat, name in enumerate(record.policies) if name == policy]
        if seats:
            uses.append(sum(record.actions[seat].count(action) for seat in seats))
            decisions.append(sum(len(record.actions[seat]) for seat in seats))
    return uses, decisions


def share_and_variance(records: Sequence[MatchRecord], policy: str, action: str) -> tuple[float, float]:
    """``policy``'s share of decisions that were ``action``, and its variance over games (the ratio estimator's)."""
    uses, decisions = _per_game(records, policy, action)
    total = sum(decisions)
    if not total:
        return 0.0, 0.0
    share = sum(uses) / total
    n = len(decisions)
    if n < 2:
        return share, 0.0
    mean = total / n
    residual = sum((c - share * d) ** 2 for c, d in zip(uses, decisions))
    return share, residual / (n * (n - 1) * mean ** 2)


def _against(share: float, variance: float, records: Sequence[MatchRecord], policy: str | None,
             action: str) -> tuple[float | None, float | None, float | None]:
    """``policy``'s share of ``action`` in ``records`` and the 95 % interval of ``share`` minus it (the two shares
    independent); all None without ``policy``."""
    if not policy:
        return None, None, None
    other, other_variance = share_and_variance(records, policy, action)
    half = Z95 * math.sqrt(variance + other_variance)
    return other, share - other - half, share - other + half


def edited_play(changes: Sequence[Change], content: Mapping[str, Sequence[str]], best_response: str,
                br_records: Sequence[MatchRecord], mixture: Mapping[str, float],
                mixture_records: Sequence[MatchRecord], warm_start: str | None = None,
                warm_records: Sequence[MatchRecord] = (), rules_of: Callable[[Sequence[str]], Sequence[str]] | None = None,
                control: str | None = None, control_records: Sequence[MatchRecord] = ()) -> list[EditedPlay]:
    """Every action touching an edit: the best response's share against the mixture's (95 % interval on the
    difference), the share of ``warm_start`` (a policy name) in ``warm_records`` against it, the share of ``control``
    (the control best response, on the base rules) in ``control_records`` against it, whether any game of the variant
    played it; rising ones first.

    ``rules_of`` (actions -> rule IDs: :meth:`~issoku.evaluation.reports.rule_trail.RuleTrails.rules_of`) names the rules of each
    action played.
    """
    every = [*br_records, *mixture_records, *warm_records]
    found = []
    for action, edits in edited_actions(content, changes).items():
        share, variance = share_and_variance(br_records, best_response, action)
        mixed = mixed_variance = 0.0
        for name, weight in mixture.items():
            member, member_variance = share_and_variance(mixture_records, name, action)
            mixed += weight * member
            mixed_variance += weight ** 2 * member_variance
        half = Z95 * math.sqrt(variance + mixed_variance)
        played = any(action in seat for record in every for seat in record.actions)
        warm, warm_low, warm_high = _against(share, variance, warm_records, warm_start, action)
        rules = list(rules_of([action])) if played and rules_of is not None else None
        found.append(EditedPlay(action, edits, share, mixed, share - mixed - half, share - mixed + half, warm,
                                warm_low, warm_high, played, rules,
                                *_against(share, variance, control_records, control, action)))
    return sorted(found, key=lambda play: (not play.rose, not play.played, -(play.share - play.mixture_share),
                                           play.action))


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


def _more(low: float) -> str:
    return "significantly more" if low > 0 else "not significantly more"


def _baseline(play: EditedPlay, what: str, other: float | None, low: float | None, high: float | None) -> str:
    """``; significantly more than <what>, which played it 1.5%: +0.5 pts [+0.1, +0.9]`` ('' without that baseline)."""
    if other is None or low is None or high is None:
        return ""
    return (f"; {_more(low)} than {what}, which played it {_pct(other)}: {100 * (play.share - other):+.1f} pts "
            f"[{100 * low:+.1f}, {100 * high:+.1f}]")


def verdict(play: EditedPlay) -> str:
    """The line's verdict: ATTRIBUTED (a finding the control does not share), FOUND (no control run), FOUND but not
    attributable (the control plays it as much), USED (over the mixture only), or none."""
    if play.rose and play.control_low is not None:
        return ("ATTRIBUTED: " if play.attributed
                else "FOUND but the control plays it as much, not attributable to the edit: ")
    return "FOUND: " if play.rose else "USED: " if play.low > 0 else ""


def gain_over_control(gain: tuple[float, float, float], control: tuple[float, float, float]) -> tuple[float, float, float]:
    """The best response's gain minus the control's, with a 95 % interval combining the two (symmetric, normal)
    intervals as independent: the half widths add in quadrature."""
    half = math.hypot((gain[2] - gain[1]) / 2, (control[2] - control[1]) / 2)
    difference = gain[0] - control[0]
    return difference, difference - half, difference + half


def interval_text(value: tuple[float, float, float]) -> str:
    """``+0.50 [+0.33, +0.67]``: a value and its interval, as the report writes gains."""
    return f"{value[0]:+.2f} [{value[1]:+.2f}, {value[2]:+.2f}]"


def finding_lines(best_response: str, plays: Sequence[EditedPlay], gain: tuple[float, float, float],
                  control_gain: tuple[float, float, float] | None = None) -> list[str]:
    """The hunt report's lines about the edited data for one best response: each action it, the mixture or its warm
    start played (:func:`verdict`), the actions only other agents played, then those no game played (untested by
    play). With a control (``control_gain``: its gain over the mixture on the base rules), the gain line says how much
    more the variant's best response gained than the control's."""
    gain_text = f"gain {interval_text(gain)}"
    if control_gain is not None:
        gain_text += f", the control's {interval_text(control_gain)}: {interval_text(gain_over_control(gain, control_gain))} over it"
    lines = []
    for play in plays:
        if not (play.share or play.mixture_share or play.warm_share or play.control_share):
            continue
        baselines = (_baseline(play, "its warm start", play.warm_share, play.warm_low, play.warm_high)
                     + _baseline(play, "the control (the same training on the base rules)", play.control_share,
                                 play.control_low, play.control_high))
        rules = f"; rules {', '.join(play.rules)}" if play.rules else ""
        lines.append(f"{verdict(play)}{best_response} plays {code_span(play.action)} {_pct(play.mixture_share)} → {_pct(play.share)} "
                     f"of decisions ({_more(play.low)} than the mixture: {100 * (play.share - play.mixture_share):+.1f} "
                     f"pts [{100 * play.low:+.1f}, {100 * play.high:+.1f}]{baselines}) (edited: {'; '.join(map(escape_markdown, play.edits))}{rules}); "
                     f"{gain_text}")
    others = [play for play in plays
              if play.played and not (play.share or play.mixture_share or play.warm_share or play.control_share)]
    if others:
        lines.append(f"{', '.join(code_span(p.action) for p in others)}: played only by other agents of the hunt, not by "
                     f"{best_response}, the mixture or its warm start.")
    unplayed = [play for play in plays if not play.played]
    if unplayed:
        edits = sorted({edit for play in unplayed for edit in play.edits})
        lines.append(f"untested by play: no game of the hunt played {', '.join(f'`{p.action}`' for p in unplayed)} "
                     f"(edited: {'; '.join(edits)}): the hunt cannot speak about it.")
    return lines


def untouched_edits(changes: Sequence[Change], content: Mapping[str, Sequence[str]]) -> list[str]:
    """The edits no action rests on directly (an armour value, an archetype's skill): a per-action view cannot see them."""
    return [str(change) for change in changes
            if not any(touches(item, change) for items in content.values() for item in items)]
