"""``issoku balance-report --variant DIR``: what did my edit change?

A variant folder (:mod:`issoku.rules.variant`) is validated first (bad data: file, field, why; nothing
played). Every study whose env the variant touches is then played twice on the same schedule, once
under the base rules (the shipped data, or ``--base DIR``) and once under the variant: same loadouts,
policies, seats and seeds, so each game has a twin (common random numbers). The two versions have
different rules fingerprints, hence different match keys: the store keeps them apart, and each
version's figures come only from its own scheduled games.

The report opens with **What changed** (the structural data diff), then every figure that moved
significantly: each side's score (loadout labels and policies), each matchup, the first mover's
score, the draw and timeout rates and the mean length, as paired differences with Holm-corrected
p-values and Bonferroni-simultaneous intervals (:mod:`issoku.evaluation.stats.paired`), biggest first. A
headline names the edit and the loadout it moved: the edit whose item is content that loadout fields
(its weapon, archetype, armour, stances, fighter), read from the ruleset's ``seat_content``.
"""

from __future__ import annotations

import datetime
import math
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from scipy.stats import t as student_t

from issoku.evaluation.games.config import StudyConfig, build_tournament
from issoku.evaluation.games.checkpoint_fit import checkpoints_off_training
from issoku.evaluation.reports.coverage import build_ruleset, content_map, coverage
from issoku.evaluation.reports.findings import Finding, Thresholds, agent_kinds
from issoku.evaluation.games.match import rules_fingerprint
from issoku.evaluation.stats.metrics import seat_balanced
from issoku.evaluation.stats.pairings import by_label, by_policy
from issoku.evaluation.stats.power import PAIRED_SD, detectable_text
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.reports.rule_trail import words
from issoku.evaluation.reports.html_report import code_span, escape_markdown, write_html_report
from issoku.evaluation.reports.csv_output import write_csv
from issoku.evaluation.reports.report import HEADLINES, _table, read_headlines
from issoku.evaluation.stats.sequential import BALANCED, IMBALANCED, UNDETERMINED, SequentialTest, SequentialVerdict, gsprt
from issoku.evaluation.stats.paired import PairedDifference, holm, paired_difference
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Tournament, run_tournament, run_tournaments, schedule
from issoku.envs.teams import seat_teams
from issoku.rules.variant import Change, Variant, data_diff, shipped_files
from issoku.common.backend import Workers

REPORT = "report.md"


@dataclass(frozen=True)
class Shift:
    """One figure of one study under both versions."""

    env: str
    figure: str
    sides: tuple[str, ...]
    """The loadouts or policies the figure is about (empty: the whole env)."""
    kind: str
    """``rate`` (a score or rate in [0, 1]) or ``length`` (decisions)."""
    result: PairedDifference
    sequential: SequentialVerdict | None = None
    """A rate's GSPRT on its per-game differences in seed order (:mod:`issoku.evaluation.stats.sequential`, centre 0):
    *imbalanced* — the edit moved it by δ or more; *balanced* — by less than δ; None for a length."""


def with_variant(tournament: Tournament, variant: Path | None) -> Tournament:
    """The tournament with ``variant`` added to every loadout's env keywords (None: unchanged)."""
    if variant is None:
        return tournament
    loadouts = tuple(replace(lo, kwargs={**lo.kwargs, "variant": str(variant)}) for lo in tournament.loadouts)
    return replace(tournament, loadouts=loadouts)


def tournament_fingerprint(tournament: Tournament) -> str:
    """The rules fingerprint of the env the tournament's first loadout builds."""
    env = tournament.env_factory(**tournament.loadouts[0].kwargs)
    try:
        return rules_fingerprint(env)
    finally:
        env.close()


def seat_content(tournament: Tournament) -> dict[str, set[str]]:
    """Per loadout label (or policy-free loadout), the content keys its seats field, from the rulesets.

    A label names a tournament seat, which in a team fight is a team (:mod:`issoku.envs.teams`): its content is
    that of every ruleset seat on the team, not of the ruleset seat with the team's index.
    """
    content: dict[str, set[str]] = {}
    for loadout in tournament.loadouts:
        env = tournament.env_factory(**loadout.kwargs)
        try:
            hook = getattr(env.unwrapped.ruleset, "seat_content", lambda seat: ())
            teams = seat_teams(env)
            for team, label in zip(sorted(set(teams)), loadout.seat_labels):
                owned = content.setdefault(label, {label})
                for seat, on in enumerate(teams):
                    if on == team:
                        owned.update(hook(seat))
        finally:
            env.close()
    return content


def data_files(tournament: Tournament) -> list[str]:
    """The shipped data files (paths under ``rules/``) the tournament's env reads: those of the systems its
    ruleset names (``data_systems``), every one where it names none. Why: names repeat across rulesets (an
    encounter and a breath ``kenshi``, a tempo and an encounter ``archer``), so what a loadout owns, read from
    every file, reaches another ruleset's items."""
    env = tournament.env_factory(**tournament.loadouts[0].kwargs)
    try:
        systems = getattr(env.unwrapped.ruleset, "data_systems", None)
    finally:
        env.close()
    return [file for file in shipped_files() if systems is None or file.split("/")[0] in systems]


def _pair_key(record: MatchRecord) -> tuple:
    return record.loadout, record.policies, record.seed


def changed_twins(base: Iterable[MatchRecord], variant: Iterable[MatchRecord]) -> int:
    """How many of ``variant``'s games were played otherwise than their twin in ``base`` (same loadout, policies
    and seed; other actions at some seat): zero means the edit changed no decision of these games, not only no
    result (a lever no agent's play ever reaches)."""
    twins = {_pair_key(r): r.actions for r in base}
    return sum(1 for r in variant if (before := twins.get(_pair_key(r))) is not None and before != r.actions)


def _collect(figures: dict[tuple, tuple[list[float], list[float]]], key: tuple, before: float, after: float) -> None:
    base, variant = figures.setdefault(key, ([], []))
    base.append(before)
    variant.append(after)


def paired_shifts(env_id: str, base: Iterable[MatchRecord], variant: Iterable[MatchRecord],
                  test: SequentialTest = SequentialTest()) -> list[Shift]:
    """Every figure's paired difference between the two versions' twin games (uncorrected p-values), each rate
    with its sequential verdict under ``test`` (the twins walked in seed order)."""
    base = list(base)
    twins = {_pair_key(r): r for r in base}
    balanced = {r.key for r in seat_balanced(base)}  # the first mover only where seats were swapped
    figures: dict[tuple, tuple[list[float], list[float]]] = {}
    for after in sorted(variant, key=lambda r: (r.seed, r.loadout, r.policies)):
        before = twins.get(_pair_key(after))
        if before is None:
            continue
        for side_of, what in ((by_label, "loadout"), (by_policy, "policy")):
            a, b = side_of(after, 0), side_of(after, 1)
            if not a or not b or a == b:
                continue
            for seat, (me, them) in enumerate(((a, b), (b, a))):
                _collect(figures, (f"{what} {me}: score", (me,), "rate"), before.score(seat), after.score(seat))
                if me < them:
                    _collect(figures, (f"{what} {me} vs {them}: score of {me}", (me, them), "rate"),
                             before.score(seat), after.score(seat))
        if before.key in balanced and before.first_seat is not None and after.first_seat is not None:
            _collect(figures, ("first mover's score", (), "rate"), before.score(before.first_seat),
                     after.score(after.first_seat))
        _collect(figures, ("draw rate", (), "rate"), float(before.winner is None), float(after.winner is None))
        _collect(figures, ("timeout rate", (), "rate"), float(before.truncated), float(after.truncated))
        _collect(figures, ("mean length", (), "length"), before.length, after.length)
    return [Shift(env_id, figure, sides, kind, paired_difference(b, v),
                  gsprt((after - before for before, after in zip(b, v)), test, centre=0.0, span=2.0)
                  if kind == "rate" else None)
            for (figure, sides, kind), (b, v) in figures.items()]


@dataclass(frozen=True)
class StudyComparison:
    """One study under both versions."""

    env: str
    study: str
    games: int
    shifts: list[Shift]
    content: dict[str, set[str]]
    agents: str = "scripted"
    """The kind of agents that played it (:func:`issoku.evaluation.reports.findings.agent_kinds`)."""
    changed: int | None = None
    """How many variant games were played otherwise than their base twin (:func:`changed_twins`; None: not counted).
    Zero means no agent exercised the edit: every figure's difference is zero by construction, not by evidence."""
    exercised: float | None = None
    """The share of the variant games' decisions that played the edited content (:func:`exercised_share`; None: the
    edits name no content an action plays, a fighter's sheet or an armour, so it cannot be told)."""
    settling: Settling | None = None
    """How the cells the edit touches were played on past the schedule (:func:`settle`; None: not tried)."""

    @property
    def untested(self) -> bool:
        """No decision of any game changed under the edit, or (nearly) no decision played the edited content: the
        study says nothing about it either way."""
        return self.changed == 0 or (self.exercised is not None and self.exercised < UNUSED_SHARE)

    def untested_why(self) -> str:
        """Why the study is untested by play, as a clause."""
        if self.changed == 0:
            return f"the edit changed no decision of its {self.games} paired games"
        return (f"the edited content took {self.exercised or 0.0:.2%} of the decisions of its {self.games} paired "
                f"games (under {UNUSED_SHARE:.1%})")


UNUSED_SHARE = 0.005
"""Under this share of the decisions played on the edited content, a study is untested by play: the few games the
edit changed are too few to speak for it."""


def exercised_share(records: Sequence[MatchRecord], changes: Sequence[Change]) -> float | None:
    """The share of ``records``' decisions whose action plays content an edit of ``changes`` edits: a content item
    (:func:`issoku.evaluation.reports.coverage.content_map`, ``defence:nodachi.parry``) whose name holds every word of the
    edit's item (``nodachi / parry``). None when some edit names no such item (a fighter's sheet, an armour: content
    no action plays, in use on every decision or none)."""
    ruleset = build_ruleset(records)
    if ruleset is None or not changes:
        return None
    uses = coverage(records, content_map(ruleset)).uses
    wanted = [words(change.item) for change in changes]

    def plays(edited: set[str], item: str) -> bool:
        return bool(edited) and edited <= words(item.split(":", 1)[-1])

    if not all(any(plays(edited, use.item) for use in uses) for edited in wanted):
        return None
    return sum(use.decision_share for use in uses if any(plays(edited, use.item) for edited in wanted))


NOT_READ = "its env reads no rules variant"
UNCHANGED = "the variant leaves its rules unchanged"


def versions(tournament: Tournament, env: str, base: Path | None,
             variant: Path) -> tuple[Tournament, Tournament] | str:
    """``tournament`` under the base and under the variant, or why there is nothing to compare: an env factory
    that takes no ``variant`` (a user's ``package.module:factory``; every shipped env takes one) plays the same
    rules under both, as does a tournament whose data the variant does not touch (equal rules fingerprints);
    ``env`` names the env in an error."""
    pair = with_variant(tournament, base), with_variant(tournament, variant)
    try:
        fingerprints = tournament_fingerprint(pair[0]), tournament_fingerprint(pair[1])
    except TypeError as error:  # an env factory without the variant keyword
        if "'variant'" in str(error):
            return NOT_READ
        raise ValueError(f"env {env} cannot load a rules variant: {error}") from None
    return UNCHANGED if fingerprints[0] == fingerprints[1] else pair


def compare_study(pair: tuple[Tournament, Tournament], name: str, store: MatchStore, workers: Workers,
                  batch_size: int, progress: bool, test: SequentialTest = SequentialTest(),
                  changes: Sequence[Change] = ()) -> StudyComparison:
    """Play a study's two versions (resuming) and measure what moved (``test``: each rate's sequential test;
    ``changes``: the edits, whose share of the decisions is counted)."""
    run_tournaments(pair, store, workers=workers, batch_size=batch_size, progress=progress)
    return measure_study(pair, name, store, test, changes)


def measure_study(pair: tuple[Tournament, Tournament], name: str, store: MatchStore,
                  test: SequentialTest = SequentialTest(), changes: Sequence[Change] = ()) -> StudyComparison:
    """What moved between a study's two versions, from the scheduled games the store holds (played or not yet)."""
    versions = []
    for tournament in pair:
        keys = {spec.key for _, spec in schedule(tournament)}
        versions.append([r for r in store.records(loadouts=[lo.name for lo in tournament.loadouts]) if r.key in keys])
    env_id = versions[1][0].env_id
    shifts = paired_shifts(env_id, versions[0], versions[1], test)
    agents = agent_kinds({policy for record in versions[1] for policy in record.policies})
    return StudyComparison(env_id, name, len(versions[1]), shifts, seat_content(pair[1]), agents,
                           changed_twins(versions[0], versions[1]), exercised_share(versions[1], changes))


SETTLE_BUDGET = 2_000
"""Default games (both versions counted) a study may play past its schedule to settle the cells the edit touches."""
SETTLE_STEP = 8
"""Games per pairing each settling round adds (even: both seat orders)."""


@dataclass(frozen=True)
class Settling:
    """How the cells the edit touches were settled past the fixed schedule (:func:`settle`)."""

    open_at_schedule: int
    """Touched cells still undetermined when the fixed schedule ended."""
    played: int
    budget: int
    left: tuple[tuple[str, int], ...] = ()
    """The cells still undetermined, each with about how many more twin games (per version) would settle it."""
    decided: tuple[tuple[str, str], ...] = ()
    """The touched cells the sequential test decided, each with its verdict (``moved ≥ δ (up), after 170 games``)."""

    def text(self) -> str:
        """One clause for the headline: how the touched cells' sequential tests ended ("" when none is touched)."""
        verdicts = "; ".join(f"{escape_markdown(figure)} {verdict}" for figure, verdict in self.decided)
        verdicts = f"the cells the edit touches, sequentially: {verdicts}" if verdicts else ""
        if not self.open_at_schedule:
            return verdicts
        settled = self.open_at_schedule - len(self.left)
        done = (f"of the {self.open_at_schedule} cell{'s' * (self.open_at_schedule != 1)} the edit touches left "
                f"undetermined by the schedule, {settled} decided after {self.played:,} more games "
                f"(settling budget {self.budget:,})")
        if self.left:
            rest = "; ".join(f"{escape_markdown(figure)}: about {games:,} more twin games" for figure, games in self.left)
            done = f"{done}; still undetermined: {rest} (`--settle-budget`)"
        return f"{verdicts}; {done}" if verdicts else done


def touched_cells(comparison: StudyComparison, changes: Sequence[Change]) -> list[Shift]:
    """The loadout scores whose loadout's content (its seats' ``seat_content``) an edit of ``changes`` touches."""
    items = {part for change in changes for part in change.item.split(" / ")}
    return [s for s in comparison.shifts if s.figure.startswith("loadout ") and s.figure.endswith(": score")
            and " vs " not in s.figure and any(items & comparison.content.get(side, {side}) for side in s.sides)]


def _open(comparison: StudyComparison, changes: Sequence[Change]) -> list[Shift]:
    return [s for s in touched_cells(comparison, changes)
            if s.sequential is not None and s.sequential.verdict == UNDETERMINED]


def settle(pair: tuple[Tournament, Tournament], comparison: StudyComparison, store: MatchStore,
           changes: Sequence[Change], budget: int, test: SequentialTest = SequentialTest(), workers: Workers = None,
           batch_size: int = 16) -> tuple[StudyComparison, Settling]:
    """Play on, :data:`SETTLE_STEP` games per pairing at a time and only the games of the loadouts whose touched
    cells are undetermined, under both versions (twins, as the schedule's), until each such cell's sequential test
    decides or the next round would pass ``budget`` games; then say what more the rest would need (Wald's expectation
    at the worst case, ±δ/2, at the variance each showed). Untested studies are not played on."""
    opened = [] if comparison.untested else _open(comparison, changes)
    played, current, games = 0, comparison, pair[0].games_per_pair
    while (still := _open(current, changes)) and opened:
        labels = {side for shift in still for side in shift.sides}
        games += SETTLE_STEP
        bigger = (replace(pair[0], games_per_pair=games), replace(pair[1], games_per_pair=games))
        todo = [[(lo, spec) for lo, spec in schedule(t) if labels & set(lo.seat_labels)] for t in bigger]
        before = [{spec.key for _, spec in schedule(t)} for t in pair]
        cost = sum(1 for found, old in zip(todo, before) for _, spec in found if spec.key not in old)
        if not cost or played + cost > budget:  # scheduled games, stored or not: a rerun takes the same path
            break
        for tournament, found in zip(bigger, todo):
            run_tournament(tournament, store, workers=workers, batch_size=batch_size, progress=False, scheduled=found)
        played += cost
        pair, current = bigger, measure_study(bigger, comparison.study, store, test, changes)
    left = tuple((s.figure, max(0, math.ceil(test.expected_pairs(s.sequential.variance or 0.25)[2])
                                - s.sequential.pairs)) for s in _open(current, changes) if s.sequential) if opened else ()
    decided = tuple((s.figure, _sequential(s)) for s in touched_cells(current, changes)
                    if s.sequential is not None and s.sequential.verdict != UNDETERMINED)
    return current, Settling(len(opened), played, budget, left, () if comparison.untested else decided)


def compare(studies: Sequence[tuple[str, StudyConfig]], variant: Path, db: Path, out: Path,
            base: Path | None = None, workers: Workers = None, batch_size: int = 16, alpha: float = 0.05,
            progress: bool = True, thresholds: Thresholds = Thresholds(), settle_budget: int = 0) -> Path:
    """Validate the variant (and base), play every touched study under both, settle the cells the edit touches
    within ``settle_budget`` games per study (:func:`settle`; 0: the fixed schedule only), write the variant report
    (``thresholds``: the verdicts of its headlines)."""
    variant_data = Variant(variant)
    base_data = Variant(base)
    variant_data.validate()
    base_data.validate()
    changes = data_diff(base_data, variant_data)
    planned = [(name, study, versions(build_tournament(study), study.env, base, variant))
               for name, study in studies]  # before any game
    skipped = [(f"{study.env}: {name}", why) for name, study, why in planned if isinstance(why, str)]
    comparisons: list[StudyComparison] = []
    with MatchStore(db) as store:
        for name, _, pair in planned:
            if not isinstance(pair, str):
                found = compare_study(pair, name, store, workers, batch_size, progress, thresholds.sequential, changes)
                if settle_budget:
                    found, settling = settle(pair, found, store, changes, settle_budget, thresholds.sequential,
                                             workers, batch_size)
                    found = replace(found, settling=settling)
                comparisons.append(found)
    tests = sum(len(c.shifts) for c in comparisons)
    corrected = holm([simultaneous(s.result, tests, alpha) for c in comparisons for s in c.shifts])
    index = 0
    for comparison in comparisons:
        for position, shift in enumerate(comparison.shifts):
            comparison.shifts[position] = replace(shift, result=corrected[index])
            index += 1
    off_training = sorted({f"{study.env}: {name} ({path})" for _, study, pair in planned if not isinstance(pair, str)
                           for name, path in checkpoints_off_training(build_tournament(study), {"variant": str(variant)})})
    return write_variant_report(out, changes, comparisons, variant, base, alpha, thresholds, skipped, off_training)


def simultaneous(result: PairedDifference, tests: int, alpha: float) -> PairedDifference:
    """``result``'s 95 % interval made Bonferroni-simultaneous over ``tests`` figures (wider t quantile)."""
    if result.n < 2 or result.high == result.low:
        return result
    se = (result.high - result.low) / 2 / float(student_t.ppf(1 - 0.05 / 2, result.n - 1))
    half = float(student_t.ppf(1 - alpha / (2 * max(tests, 1)), result.n - 1)) * se
    return replace(result, low=result.delta - half, high=result.delta + half)


def related_changes(shift: Shift, changes: Sequence[Change], content: dict[str, set[str]]) -> list[Change]:
    """The edits whose item is content a side of the figure fields (all edits when none is)."""
    keys = set().union(*(content.get(side, {side}) for side in shift.sides)) if shift.sides else set()
    related = [c for c in changes if keys & set(c.item.split(" / "))]
    return related or list(changes)


def _amount(shift: Shift) -> str:
    r = shift.result
    if shift.kind == "length":
        return f"{r.base:.1f} → {r.variant:.1f} ({r.delta:+.1f} [{r.low:+.1f}, {r.high:+.1f}])"
    return f"{r.base:.1%} → {r.variant:.1%} ({100 * r.delta:+.1f} pts [{100 * r.low:+.1f}, {100 * r.high:+.1f}])"


UNTESTED = "untested by play"


def _sequential(shift: Shift, untested: bool = False) -> str:
    """A rate's sequential verdict in a few words (``moved ≥ δ (up), after 40 games``); "—" for a length;
    :data:`UNTESTED` in a study whose games the edit left identical (their differences are zero by construction)."""
    found = shift.sequential
    if untested:
        return UNTESTED
    if found is None:
        return "—"
    if found.verdict == IMBALANCED:
        return f"moved ≥ δ ({'up' if found.direction > 0 else 'down'}), after {found.pairs} games"
    if found.verdict == BALANCED:
        return f"moved < δ, after {found.pairs} games"
    return f"undetermined over {found.pairs} games"


def _edits(changes: Sequence[Change], most: int = 2) -> str:
    shown = "; ".join(escape_markdown(c) for c in changes[:most])
    return shown + (f" (and {len(changes) - most} more)" if len(changes) > most else "")


def moved(comparison: StudyComparison) -> list[Shift]:
    """The figures whose corrected interval excludes zero, rates biggest first, then lengths."""
    found = [s for s in comparison.shifts if s.result.significant]
    return sorted(found, key=lambda s: (s.kind != "rate", -abs(s.result.delta), s.figure))


def headlines(comparisons: Sequence[StudyComparison], changes: Sequence[Change], top: int = 3,
              thresholds: Thresholds = Thresholds()) -> list[str]:
    """Per study, its biggest significant moves, each naming the edit behind it; or that nothing moved.

    Each move carries a verdict on the move itself against ``thresholds`` (imbalanced: the edit surely moved the
    figure by more than the balance threshold; balanced: surely by less; undetermined), its severity, and the
    agents that played the study."""
    lines = []
    tests = sum(len(c.shifts) for c in comparisons)
    for c in comparisons:
        found = [s for s in moved(c) if s.kind == "rate" and " vs " not in s.figure][:top]
        if c.untested:
            lines.append(f"{escape_markdown(c.env)} ({escape_markdown(c.study)}): {UNTESTED.upper()}: "
                         f"{c.untested_why()} ({c.agents} agents {'never' if c.changed == 0 else 'barely'} played "
                         "what it touches), so they are no evidence of balance or imbalance.")
        elif not found:
            lines.append(f"{escape_markdown(c.env)} ({escape_markdown(c.study)}): no figure moved significantly over "
                         f"{c.games} paired games.")
        for shift in found:
            r = shift.result
            move = Finding(c.env, shift.figure, r.delta, r.low, r.high, c.agents)
            lines.append(f"{escape_markdown(c.env)} ({escape_markdown(c.study)}): {move.verdict(thresholds).upper()} "
                         f"move, {move.severity(thresholds)}: {escape_markdown(shift.figure)} {_amount(shift)}, "
                         f"Holm p={r.p_adjusted:.2g}"
                         f" — after {_edits(related_changes(shift, changes, c.content))} ({c.agents} agents).")
        if not c.untested:
            lines.append(f"{escape_markdown(c.env)} ({escape_markdown(c.study)}): {detectable_line(c, tests)}.")
        if c.settling is not None and c.settling.text():
            lines.append(f"{escape_markdown(c.env)} ({escape_markdown(c.study)}): {c.settling.text()}.")
    return lines


def detectable_line(comparison: StudyComparison, tests: int, alpha: float = 0.05) -> str:
    """The smallest move of a side's score the study detects (:mod:`issoku.evaluation.stats.power`), at the fewest pairs
    a side's score has, with the twins taken as independent: a bound the pairing lowers."""
    sides = [s.result.n for s in comparison.shifts if s.figure.endswith(": score") and " vs " not in s.figure]
    return (f"smallest move of a side's score it can detect: {detectable_text(min(sides, default=0), tests, alpha, sd=PAIRED_SD)}"
            "; a bound (twin games lower it): a smaller move may read as no move")


def what_changed(changes: Sequence[Change]) -> list[str]:
    """The report's *What changed* section: the structural diff of the data, one edit a line (also the hunt's, on a variant)."""
    return ["## What changed", "", *([f"- {code_span(c)}" for c in changes] or ["- nothing: the variant's files equal the base's."])]


def write_variant_report(out: Path, changes: Sequence[Change], comparisons: Sequence[StudyComparison],
                         variant: Path, base: Path | None, alpha: float, thresholds: Thresholds = Thresholds(),
                         skipped: Sequence[tuple[str, str]] = (), off_training: Sequence[str] = ()) -> Path:
    """``report.md`` (What changed, headlines, moved figures, every figure) and ``variant_figures.csv``;
    ``skipped``: the studies not played, each with why (said in the report, never dropped silently);
    ``off_training``: the learned agents (``env: name (checkpoint)``) that played the variant's rules though they
    were not trained on them, named in the headlines as the plain report names them."""
    out.mkdir(parents=True, exist_ok=True)
    tests = sum(len(c.shifts) for c in comparisons)
    lines = [f"# Rules variant report: {escape_markdown(variant)} against "
             f"{escape_markdown(base) if base else 'the shipped rules'}", "",
             f"Written {datetime.date.today().isoformat()}.", "", *what_changed(changes)]
    lines += ["", thresholds.describe(of="no move (the base's figure)"), "", HEADLINES, ""]
    lines += [f"- {line}" for line in headlines(comparisons, changes, thresholds=thresholds)]
    lines += [f"- {escape_markdown(agent)} plays rules it was not trained on: the variant's (its figures measure it "
              "off its training)." for agent in off_training] + [""]
    lines += ["## How it was measured", "",
              f"Each study below was played under both versions on the same schedule (same loadouts, policies, "
              f"seats and seeds); each figure is the mean of its per-game differences (variant − base) over the "
              f"twin games. {tests} figures were tested at once: p-values are Holm-corrected, intervals "
              f"Bonferroni-simultaneous at {1 - alpha:.0%}; a figure is listed as moved only when its corrected "
              "interval excludes zero. Studies whose rules the variant leaves unchanged are not played. "
              "Restricted play and the combo table are not compared here (run the plain report on each version). "
              f"Sequential: each rate's GSPRT (δ = ±{100 * thresholds.sequential.delta:g} points, α = "
              f"{thresholds.sequential.alpha:g}, β = {thresholds.sequential.beta:g}) on its per-game differences in "
              "seed order: *moved ≥ δ*, *moved < δ* or *undetermined*, and after how many twin games it decided; "
              "*untested by play* where the edit changed no decision of any game, or the edited content took under "
              f"{UNUSED_SHARE:.1%} of the decisions "
              "(docs/balance.md, Sequential tests).", ""]
    lines += ["Not played: " + "; ".join(f"{escape_markdown(study)} ({escape_markdown(why)})" for study, why in skipped)
              + ".", ""] if skipped else []
    for c in comparisons:
        lines += [f"## {escape_markdown(c.env)}: {escape_markdown(c.study)}", "", f"{c.games} games per version, paired.", ""]
        found = moved(c)
        if c.untested and c.changed == 0:
            lines += ["Untested by play: every variant game was played exactly as its base twin (no agent's decision "
                      "changed), so every difference below is zero by construction, not a measurement.", ""]
        elif c.untested:
            lines += [f"Untested by play: {c.untested_why()}, so the differences below are no evidence of balance "
                      "or imbalance.", ""]
        else:
            lines += [f"The {detectable_line(c, tests, alpha)}.", ""]
        if c.exercised is not None:
            lines += [f"The edited content took {c.exercised:.2%} of the variant games' decisions.", ""]
        lines += ["### Moved significantly", ""]
        lines += _table(["figure", "base → variant (difference [corrected interval])", "Holm p", "pairs",
                         "sequential", "edits behind it"],
                        [(escape_markdown(s.figure), _amount(s), f"{s.result.p_adjusted:.2g}", s.result.n, _sequential(s),
                          _edits(related_changes(s, changes, c.content))) for s in found]) if found else ["none.", ""]
        lines += ["### Every figure", ""]
        lines += _table(["figure", "base → variant", "Holm p", "pairs", "sequential"],
                        [(escape_markdown(s.figure), _amount(s), f"{s.result.p_adjusted:.2g}", s.result.n,
                          _sequential(s, c.untested)) for s in sorted(c.shifts, key=lambda s: s.figure)])
    report = out / REPORT
    report.write_text("\n".join(lines))
    rows = []
    for c in comparisons:
        for s in sorted(c.shifts, key=lambda s: s.figure):
            r, q = s.result, s.sequential
            sequential = [UNTESTED, "", ""] if c.untested else [q.verdict, q.direction, q.pairs] if q else ["", "", ""]
            rows.append([c.env, c.study, s.figure, s.kind, r.base, r.variant, r.delta, r.low, r.high, r.p,
                         r.p_adjusted, r.n] + sequential)
    write_csv(out / "variant_figures.csv", ["env", "study", "figure", "kind", "base", "variant", "delta", "low", "high",
                                            "p", "p_holm", "pairs", "sequential", "sequential_direction",
                                            "sequential_games"], rows)
    write_html_report(report)  # report.html beside it: the same report, sortable tables (no game links)
    return report


def variant_command(study_files: Sequence[Path] | None, env: str | None, policies: Sequence[str] | None,
                    games: int | None, seed: int | None, mirrors: bool | None, db: Path, out: Path,
                    workers: Workers, batch_size: int, variant: Path | None, base: Path | None,
                    allow_imports: bool = False, thresholds: Thresholds = Thresholds(),
                    settle_budget: int = SETTLE_BUDGET) -> int:
    """The CLI's ``balance-report --variant``: prints the headlines and the report path; returns the exit status.

    Any bad input (a variant file, a study, an option) is one line naming file, field and why, exit 2,
    before a game is played.
    """
    from issoku.evaluation.games.studies import check_studies_play, default_studies, study_from_options
    from issoku.rules.kernel.content import DataError

    try:
        if variant is None:
            raise ValueError("--base needs --variant (the version to compare against it)")
        files = list(study_files or ()) or ([] if env else default_studies())
        studies = ([(file.stem, study_from_options(file, env, policies, games, seed, mirrors,
                                                   allow_imports=allow_imports)) for file in files]
                   or [("ad hoc", study_from_options(None, env, policies, games, seed, mirrors))])
        Variant(variant).validate()
        Variant(base).validate()
        check_studies_play([study for _, study in studies], [str(file) for file in files],  # before any game
                           other_rules=True)
        report = compare(studies, variant, db, out, base=base, workers=workers, batch_size=batch_size,
                         thresholds=thresholds, settle_budget=settle_budget)
    except DataError as error:
        field, why = error.problems[0] if error.problems else ("(file)", "invalid")
        print(f"balance-report: {error.path}: {field}: {why}", file=sys.stderr)
        return 2
    except (ValueError, KeyError) as error:
        print(f"balance-report: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    for line in read_headlines(report):
        print(f"  {line}")
    print(f"report: {report}")
    print(f"html: {report.with_suffix('.html')}")
    return 0
