"""``issoku autobalance``: the smallest data patch that meets a designer's balance targets.

A designer states targets in a TOML file (:class:`Targets`): every loadout within ±N Elo of the field, none
above +N Elo, every loadout within ±N Elo of its rating under reference rules (after an edit: put the balance
back), the first mover's score inside a band. The search, after Hernandez et al. 2020 ("Metagame autobalancing for
competitive multiplayer games") but editing the rules data itself rather than a meta-game's parameters:

1. **Measure** the rules (the shipped data, or ``--variant DIR``) on the env's loadouts study at
   ``games`` per pairing (seeded: ``seed``), and the reference rules on the same seeds where a target names
   them. If every target is met, no patch is needed.
2. **Your edit first, then where the miss is, then widen.** Each round of the search has up to four
   stages. With ``--variant``, the **edits** stage comes first: the fields the variant edited
   (:mod:`issoku.evaluation.design.edits`: every number it sets differently from the shipped data), each walked
   back toward its shipped value one step at a time, to that value at most (no patience: the walk is
   bounded by the edit itself), in the order a screen of their levers ranks them when there are several.
   As a bisect blames the latest change, the designer's own edit is the first suspect, and undoing part
   of it is the smallest patch there is; later stages of the round do not walk an edited field the same
   way again. The **local** stages' levers are the numbers of the content a loadout missing its target owns
   (:mod:`issoku.evaluation.design.locality`: the fighter's sheet and what it names: its weapon, armour, stances),
   since a designer fixing a loadout edits its own content before every other fighter's: first the
   loadout that misses by most, then (when several miss) the others'. They are few, so their screen plays
   ``screen_games`` per pairing (default :data:`SCREEN_GAMES`: enough for a move of a few points to show on
   the breath duel). Only if no local patch meets the targets does the **wide** stage rank the other
   levers (screened at what a third of the budget left buys, at least 2 and at most ``screen_games`` games
   per pairing). A first-mover target is owned by no loadout: it goes wide at once. A lever whose step
   moved no targeted figure at all fell on a plateau (:func:`plateau`); its field is probed at twice the
   step, in the same stage, and ranked with the others.
3. **Rank the levers** of a stage (:func:`issoku.evaluation.design.levers.run_levers`: every number ±1, paired,
   successive halving) by their **gain**: how much the lever's paired moves shrink the excess of the
   figures that miss their targets (a move that overshoots the band counts only what it lands inside,
   and against it what lies past the far edge). The best :data:`CANDIDATES` fields whose lever gains are
   tried, in order. The *distance* of a set of figures is the sum, in points of score, of how far each
   lies outside its target band (0: every target met).
4. **Walk a field before switching.** Each candidate field is played at 1, 2, ... :data:`MAX_STEP` steps in
   its lever's direction (every trial a variant folder, measured on the same seeds as the base, so trials
   are paired); a field stops at the first step that meets the targets, that the data refuses, or after
   :data:`PATIENCE` steps in a row that do not lower the field's best distance (a field that halves the
   miss is walked on, one noisy step does not stop it). The first field whose trial meets every target
   ends the search; else the trial with the smallest distance is kept and the search adds a second field
   on top of it (levers ranked again on the patched rules), up to ``max_fields``.
5. **Verify with fresh seeds.** The patch is measured again on a seed range the search never saw
   (``seed + VERIFY_SEED_OFFSET``, ``verify_games`` per pairing), and the verdict (met, or not met: which
   target) comes from that run alone.

Budget (``budget`` games): every measurement costs its scheduled games (``games`` × pairings), each lever
ranking a third of what is left (its screen plays every lever at least the stage's screen games per
pairing whatever that share is),
and the verification's games are set aside first. Games the match store already holds are reused, but the
budget counts scheduled games, so the search takes the same path on a fresh or a reused store: the output
is deterministic for a given seed.

Out (``out``): ``patch/`` (the patched rules as a variant folder: the base variant's files with the edits),
``autobalance.md`` (targets, what changed and which stage found it, the verifying figures with their
intervals, verdict, the trials), ``autobalance.csv`` (every measured version's figures),
``levers/<fields>-<n>-<stage>[-probe]/`` (each ranking) and ``trials/``.
"""

from __future__ import annotations

import math
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from issoku.evaluation.games.config import StudyConfig, build_tournament
from issoku.evaluation.reports.csv_output import write_csv
from issoku.evaluation.design.edits import Edited, EditedField, edited_fields
from issoku.evaluation.reports.html_report import code_span, escape_markdown
from issoku.evaluation.design.levers import Lever, Round, check_variants_load, read_files, run_levers, scheduled_records
from issoku.evaluation.design.locality import Ownership, ownership
from issoku.evaluation.stats.metrics import FirstMover, balanced_first_mover
from issoku.evaluation.design.peers import out_of_line, peers_section
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import run_tournament, schedule
from issoku.evaluation.design.variants import data_files, with_variant
from issoku.rules.kernel.content import DataError, load_model
from issoku.rules.variant import Change, NumericField, Variant, data_diff, numeric_fields, write_overrides
from issoku.common.outcomes import Proportion, wilson

CANDIDATES = 3
"""Fields tried per round of the search (the best gain first)."""

MAX_STEP = 8
"""Steps of a field tried at most (1, 2, ... in its lever's direction)."""

PATIENCE = 2
"""A field's walk stops after this many steps in a row that do not lower its best distance."""

SCREEN_GAMES = 8
"""Default games per pairing of the local stage's screen (about 80 games per loadout on the breath duel)."""

EDITS, LOCAL, WIDE = "edits", "local", "wide"
"""The stages of a search round: the fields the variant edited (walked back), the levers the missing loadouts
own, then the others."""

VERIFY_SEED_OFFSET = 1_000_000
"""The verifying run's seeds start this far above the search's: a range the search never played."""

FIRST_MOVER = "first mover"


class Targets(BaseModel):
    """A designer's balance targets (a TOML file); at least one must be set. The loadout targets cover every
    loadout of the study, or those ``loadouts`` names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    loadout_elo_within: float | None = Field(
        default=None, gt=0, le=1000, description="every loadout's score against the field within ± this Elo of even")
    loadout_elo_max: float | None = Field(
        default=None, ge=-1000, le=1000, description="no loadout above this Elo against the field (no dominant one)")
    reference_elo_within: float | None = Field(
        default=None, gt=0, le=1000,
        description="every loadout within ± this Elo of its own rating under the reference rules (same seeds)")
    reference: str = Field(
        default="shipped", min_length=1, description="the reference rules: 'shipped' or a variant folder")
    first_mover: tuple[float, float] | None = Field(
        default=None, description="the first mover's score (games balanced by move order) inside [low, high]")
    loadouts: tuple[str, ...] | None = Field(
        default=None, min_length=1, description="the loadouts the loadout targets cover (default: all)")

    @field_validator("first_mover")
    @classmethod
    def _band(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and not 0.0 <= value[0] <= value[1] <= 1.0:
            raise ValueError(f"must be [low, high] with 0 <= low <= high <= 1, not {list(value)}")
        return value

    @field_validator("reference")
    @classmethod
    def _reference(cls, value: str) -> str:
        if value != SHIPPED and not Path(value).is_dir():
            raise ValueError(f"{value!r} is neither 'shipped' nor a variant folder")
        return value

    @model_validator(mode="after")
    def _something(self) -> "Targets":
        if all(getattr(self, name) is None for name in TARGET_FIELDS):
            raise ValueError(f"no target set (known: {', '.join(TARGET_FIELDS)})")
        return self

    @property
    def reference_rules(self) -> Path | None:
        """The reference variant folder (None: the shipped rules)."""
        return None if self.reference == SHIPPED else Path(self.reference)

    def bands(self, loadouts: Sequence[str], reference: Figures | None = None) -> dict[str, tuple[float, float]]:
        """Each targeted figure's band in score (an Elo target as the scores it allows) for a study of
        ``loadouts``; ``reference``: the reference rules' figures on the same seeds (``reference_elo_within``)."""
        found: dict[str, tuple[float, float]] = {}
        covered = [name for name in loadouts if self.loadouts is None or name in self.loadouts]
        for name in covered:
            low, high = 0.0, 1.0
            if self.loadout_elo_within is not None:
                low, high = expected(-self.loadout_elo_within), expected(self.loadout_elo_within)
            if self.loadout_elo_max is not None:
                high = min(high, expected(self.loadout_elo_max))
            if self.reference_elo_within is not None and reference is not None and name in reference.loadouts:
                rating = elo(reference.loadouts[name].value)
                low = max(low, expected(rating - self.reference_elo_within))
                high = min(high, expected(rating + self.reference_elo_within))
            if (low, high) != (0.0, 1.0):
                found[f"loadout {name}"] = (low, high)
        if self.first_mover is not None:
            found[FIRST_MOVER] = self.first_mover
        return found

    def check(self, loadouts: Sequence[str], path: Path) -> None:
        """Refuse ``loadouts`` naming a loadout the study does not play (:class:`DataError` on ``path``)."""
        unknown = sorted(set(self.loadouts or ()) - set(loadouts))
        if unknown:
            raise DataError(path, [("loadouts", f"unknown loadout {unknown[0]!r} (the study plays: "
                                                f"{', '.join(loadouts)})")])

    def describe(self) -> str:
        """The targets as a sentence."""
        which = f"loadout ({', '.join(self.loadouts)})" if self.loadouts else "loadout"
        parts = []
        if self.loadout_elo_within is not None:
            parts.append(f"every {which} within ±{self.loadout_elo_within:g} Elo of the field")
        if self.loadout_elo_max is not None:
            parts.append(f"no {which} above {self.loadout_elo_max:+g} Elo against the field")
        if self.reference_elo_within is not None:
            parts.append(f"every {which} within ±{self.reference_elo_within:g} Elo of its rating under the "
                         f"{'shipped rules' if self.reference == SHIPPED else self.reference}")
        if self.first_mover is not None:
            parts.append(f"first mover's score in [{self.first_mover[0]:.0%}, {self.first_mover[1]:.0%}]")
        return "; ".join(parts)


SHIPPED = "shipped"
TARGET_FIELDS = ("loadout_elo_within", "loadout_elo_max", "reference_elo_within", "first_mover")
"""The fields of :class:`Targets` that set a target (the others say what a target covers)."""


def load_targets(path: Path) -> Targets:
    """The targets file, validated (a bad one raises :class:`DataError`: file, field, why)."""
    return load_model(path, Targets)


def expected(elo: float) -> float:
    """The score a side rated ``elo`` above its opponents expects."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo(score: float) -> float:
    """The Elo difference a score implies (clipped at ±1000 for a perfect record)."""
    score = min(max(score, expected(-1000.0)), expected(1000.0))
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass(frozen=True)
class Figures:
    """One rules version's measured figures: each loadout's score against the field, the first mover's."""

    loadouts: dict[str, Proportion]
    first_mover: FirstMover
    games: int

    def values(self) -> dict[str, tuple[float, float, float]]:
        """Every figure as ``(estimate, low, high)`` (95 %)."""
        found = {f"loadout {name}": (p.value, p.low, p.high) for name, p in self.loadouts.items()}
        found[FIRST_MOVER] = (self.first_mover.score.value, self.first_mover.score.low, self.first_mover.score.high)
        return found


def excess(value: float, band: tuple[float, float]) -> float:
    """How far ``value`` lies outside ``band`` (0 inside)."""
    return max(0.0, band[0] - value, value - band[1])


def distance(values: dict[str, float], bands: dict[str, tuple[float, float]]) -> float:
    """The sum of every targeted figure's excess: 0 when every target is met."""
    return sum(excess(values[name], band) for name, band in bands.items() if name in values)


def measure(study: StudyConfig, variant: Path | None, store: MatchStore, games: int, seed: int,
            workers: int | None) -> Figures:
    """Play the study under ``variant`` at ``games`` per pairing from ``seed`` (resuming) and measure it."""
    tournament = with_variant(build_tournament(study.model_copy(update={"games_per_pair": games,
                                                                        "base_seed": seed})), variant)
    run_tournament(tournament, store, workers=workers, progress=False)
    records = scheduled_records(tournament, store)
    scores: dict[str, list[float]] = {}
    for record in records:
        labels = record.seat_labels
        if len(labels) == 2 and all(labels) and labels[0] != labels[1]:
            for seat in (0, 1):
                scores.setdefault(labels[seat], []).append(record.score(seat))
    loadouts = {name: wilson(sum(found), len(found)) for name, found in sorted(scores.items())}
    return Figures(loadouts, balanced_first_mover(records), len(records))


def scheduled(study: StudyConfig, games: int) -> int:
    """Games one measurement at ``games`` per pairing schedules."""
    return sum(1 for _ in schedule(build_tournament(study.model_copy(update={"games_per_pair": games}))))


@dataclass
class Trial:
    """One measured version: its edits on top of the base, its folder, its figures and the target bands they
    were held to (``phase``: base, search, verify, or reference: the reference rules themselves)."""

    edits: tuple[tuple[NumericField, int | float], ...]
    folder: Path | None
    figures: Figures
    bands: dict[str, tuple[float, float]]
    phase: str = "search"
    stage: str = ""
    """The search stage that proposed the last edit (:data:`EDITS`, :data:`LOCAL` or :data:`WIDE`)."""

    @property
    def distance(self) -> float:
        """The sum of every targeted figure's excess: 0 when every target is met."""
        return distance(_estimates(self.figures), self.bands)

    def misses(self) -> list[str]:
        """The targets missed, each as a line (empty: every target met)."""
        lines = []
        for name, (value, low, high) in self.figures.values().items():
            band = self.bands.get(name)
            if band is not None and excess(value, band) > 0:
                lines.append(f"{name}: {figure_text(name, value, low, high)} outside [{band[0]:.1%}, {band[1]:.1%}]")
        return lines


@dataclass
class Outcome:
    """What the search found and what the verifying run says of it."""

    targets: Targets
    base: Trial
    best: Trial
    verified: Trial
    changes: list[Change]
    patch: Path | None
    trials: list[Trial] = field(default_factory=list)
    spent: int = 0
    stopped: str = ""
    stages: list[str] = field(default_factory=list)
    """What each stage ranked, as lines (stage, levers, screen, the loadouts it served)."""
    edits_note: str = ""
    """Whether the search had an edits stage, and on which fields."""


def figure_text(name: str, value: float, low: float, high: float) -> str:
    """A figure with its interval, a loadout's also in Elo against the field."""
    text = f"{value:.1%} [{low:.1%}, {high:.1%}]"
    if name.startswith("loadout "):
        text += f" ({elo(value):+.0f} Elo [{elo(low):+.0f}, {elo(high):+.0f}])"
    return text


def moves(lever: Lever) -> dict[str, float]:
    """The lever's paired moves of the targeted kinds of figure (a loadout's score, the first mover's)."""
    found: dict[str, float] = {}
    for shift in lever.shifts:
        if shift.figure == "first mover's score":
            found[FIRST_MOVER] = shift.result.delta
        elif shift.figure.startswith("loadout ") and shift.figure.endswith(": score") and " vs " not in shift.figure:
            found[shift.figure.removesuffix(": score")] = shift.result.delta
    return found


def gain(current: Trial, lever: Lever) -> float:
    """How much ``lever``'s paired moves would shrink the excess of the figures that miss their targets
    (points: a move into the band gains the whole excess, one past its far edge loses what lies beyond, a
    move away counts against). Figures inside their bands are left out: at a screen's few games their noise
    would drown the signal, and a trial measures them anyway."""
    values, moved, total = _estimates(current.figures), moves(lever), 0.0
    for name, band in current.bands.items():
        missed = excess(values.get(name, band[0]), band)
        if missed > 0 and name in moved:
            total += missed - excess(values[name] + moved[name], band)
    return total


def plateau(lever: Lever) -> bool:
    """Whether ``lever``'s step changed none of the targeted kinds of figure at all: the nudge fell on a plateau
    (a skill rank the rules treat like the next), which says nothing about the field's direction; the search
    probes such a field at twice the step."""
    return bool(lever.shifts) and all(delta == 0 for delta in moves(lever).values())


def missing_loadouts(trial: Trial) -> list[str]:
    """The loadouts whose figure misses its target in ``trial``, the biggest miss first."""
    values = _estimates(trial.figures)
    missed = {name.removeprefix("loadout "): excess(values.get(name, band[0]), band)
              for name, band in trial.bands.items() if name.startswith("loadout ")}
    return sorted((name for name, amount in missed.items() if amount > 0), key=lambda name: (-missed[name], name))


def candidates(levers: Sequence[Lever], current: Trial, taken: set[tuple[str, tuple[str | int, ...]]]) -> list[Lever]:
    """The first :data:`CANDIDATES` fields, in the levers' ranked order (the halving's last round first, then
    the gain), whose lever gains; fields already patched are left out."""
    found: list[Lever] = []
    for lever in levers:
        where = (lever.number.file, lever.number.address)
        if (lever.shifts and gain(current, lever) > 0 and where not in taken
                and all((other.number.file, other.number.address) != where for other in found)):
            found.append(lever)
    return found[:CANDIDATES]


@dataclass
class Search:
    """The search's fixed settings and its running state (games spent, trials measured)."""

    study: StudyConfig
    base: Variant
    out: Path
    store: MatchStore
    games: int
    workers: int | None
    bands: dict[str, tuple[float, float]] = field(default_factory=dict)
    trials: list[Trial] = field(default_factory=list)
    spent: int = 0
    stages: list[str] = field(default_factory=list)
    """What each stage ranked and tried, as lines."""
    edits_note: str = ""
    """Whether the search had an edits stage (for the report)."""

    def measure(self, edits: tuple[tuple[NumericField, int | float], ...], folder: Path | None,
                phase: str = "search", stage: str = "") -> Trial:
        """Play and measure one version on the search's seeds (its games counted)."""
        figures = measure(self.study, folder, self.store, self.games, self.study.base_seed, self.workers)
        self.spent += figures.games
        trial = Trial(edits, folder, figures, self.bands, phase, stage)
        self.trials.append(trial)
        return trial

    def steps(self, current: Trial, lever: Lever, say: Callable[[str], None], limit: int,
              stage: str) -> Iterator[Trial]:
        """The trials of ``lever``'s field at 1, 2, ... :data:`MAX_STEP` steps on top of ``current`` (from the
        lever's own step: 2 for a probe), one by one
        until one meets the targets or :data:`PATIENCE` in a row do not lower the field's best distance,
        stopping at a step the data refuses or one that would spend past ``limit`` games."""
        number = lever.number
        size = lever.change.after - lever.change.before
        direction = 1 if size > 0 else -1
        lowest, stale = current.distance, 0
        for step in range(int(abs(size)), MAX_STEP + 1):  # a probe's lever starts past the plateau it crossed
            tried = self.trial(current, number, number.value + direction * step, stage, say, limit)
            if tried is None:
                return
            yield tried
            if tried.distance == 0:
                return
            stale = 0 if tried.distance < lowest else stale + 1
            lowest = min(lowest, tried.distance)
            if stale >= PATIENCE:
                return

    def trial(self, current: Trial, number: NumericField, value: int | float, stage: str,
              say: Callable[[str], None], limit: int) -> Trial | None:
        """``number`` set to ``value`` on top of ``current``, written and measured (None: the data refuses it,
        or measuring it would spend past ``limit`` games)."""
        if self.spent + scheduled(self.study, self.games) > limit:
            return None
        edits = (*current.edits, (number, value))
        folder = self.out / "trials" / _slug(edits)
        shutil.rmtree(folder, ignore_errors=True)
        try:
            write_overrides(folder, edits, self.base).validate()
        except DataError:
            shutil.rmtree(folder, ignore_errors=True)
            return None
        tried = self.measure(edits, folder, stage=stage)
        say(f"autobalance: {stage}: {_edits_text(edits)}: distance {tried.distance:.3f}")
        return tried

    def revert(self, current: Trial, edited: EditedField, say: Callable[[str], None], limit: int) -> Iterator[Trial]:
        """The trials of an edited field walked back toward its shipped value on top of ``current``, one step
        at a time (the last trial: the shipped value itself; past :data:`MAX_STEP` steps, straight to it),
        until one meets the targets, stopping at a step the data refuses or one that would spend past
        ``limit`` games. No patience: the walk is bounded by the edit itself, and a partial undo that does
        nothing yet may be the step before the one that does."""
        number = _now(current, edited)
        span = abs(edited.shipped - number.value)
        direction = _toward(current, edited)
        values = [number.value + direction * step for step in range(1, min(math.ceil(span), MAX_STEP) + 1)]
        for value in [*[value for value in values[:-1] if abs(value - number.value) < span], edited.shipped]:
            tried = self.trial(current, number, value, EDITS, say, limit)
            if tried is None:
                return
            yield tried
            if tried.distance == 0:
                return


def _slug(edits: Sequence[tuple[NumericField, int | float]]) -> str:
    number, value = edits[-1]
    parts = [str(part) for part in (*number.address, value)]
    return f"{len(edits)}_" + "_".join(parts).replace("/", "_").replace(".", "_")


def _levers_spent(rounds: Sequence[Round], unit: int) -> int:
    """The games a levers run schedules: each round's new games per pairing for its levers and the base."""
    before = [0] + [r.games_per_pair for r in rounds]
    return sum((r.games_per_pair - previous) * (r.levers + 1) * unit for r, previous in zip(rounds, before))


@dataclass(frozen=True)
class Stage:
    """One stage of a search round: its name (:data:`EDITS`, :data:`LOCAL` or :data:`WIDE`), the content its
    levers sit in (``owned``: the edited fields, a loadout's content; None: any), and the content earlier local
    stages of the round screened (left out here)."""

    name: str
    owned: Edited | Ownership | None
    before: tuple[Ownership, ...] = ()

    def keep(self, number: NumericField) -> bool:
        """Whether ``number`` is a lever of this stage."""
        return ((self.owned is None or self.owned.owns(number))
                and not any(earlier.owns(number) for earlier in self.before))

    def describe(self) -> str:
        """What the stage screens, for the report."""
        if self.owned is None:
            return "every other lever" if self.before else "every lever"
        if isinstance(self.owned, Edited):
            return f"the fields your variant edited ({self.owned.describe()})"
        return f"the content {', '.join(self.owned.labels)} own ({self.owned.describe()})"


def _stages(study: StudyConfig, current: Trial, edited: Sequence[EditedField]) -> list[Stage]:
    """The stages of a round on top of ``current``: the variant's ``edited`` fields not yet patched (walked
    back), local to the loadout missing its target by most, then to every loadout that misses (when more
    than one does), then wide (the rest)."""
    taken = {(number.file, number.address) for number, _ in current.edits}
    left = tuple(field for field in edited if (field.file, field.address) not in taken)
    first = [Stage(EDITS, Edited(left))] if left else []
    missing = missing_loadouts(current)
    if not missing:
        return [*first, Stage(WIDE, None)]
    # the sheets may sit in a file the levers leave out (--file): ownership reads every data file the env reads
    tournament, variant = build_tournament(study), Variant(current.folder)
    files = data_files(tournament)
    worst = ownership(tournament.loadouts, missing[:1], variant, files)
    owned = [worst]
    if len(missing) > 1:
        owned.append(ownership(tournament.loadouts, missing, variant, files))
    stages = [Stage(LOCAL, owned[0]), *(Stage(LOCAL, more, (worst,)) for more in owned[1:])]
    return [*first, *stages, Stage(WIDE, None, tuple(owned))]


def _ranked(search: Search, current: Trial, stage: Stage, index: int, share: int, count: int, screen_games: int,
            files: Sequence[str] | None, db: Path, workers: int | None, limit: int,
            walked: set[tuple[str, tuple[str | int, ...], int]], taken: set[tuple[str, tuple[str | int, ...]]]
            ) -> list[Lever]:
    """A local or wide stage's candidates: its ``count`` levers screened and halved by their gain (a plateau's
    fields probed at twice the step), the best :data:`CANDIDATES` fields that gain, leaving out a direction
    the edits stage already walked (``walked``). Writes the stage's line into ``search.stages``."""
    unit, cost, name = scheduled(search.study, 1), scheduled(search.study, search.games), stage.name
    screen = _screen(name, screen_games, share, count, unit)
    levers, rounds = run_levers(search.study, share, search.out / "levers" / f"{len(current.edits)}-{index}-{name}",
                                db, files=files, workers=workers, variant=current.folder,
                                order=lambda lever: -gain(current, lever), screen_games=screen, keep=stage.keep)
    search.spent += _levers_spent(rounds, unit)
    flat = {(lever.number.file, lever.number.address) for lever in levers if plateau(lever)}
    if flat and search.spent + cost <= limit:
        probes, rounds = run_levers(
            search.study, max((limit - search.spent) // 3, 1),
            search.out / "levers" / f"{len(current.edits)}-{index}-{name}-probe", db, step=2, files=files,
            workers=workers, variant=current.folder, order=lambda lever: -gain(current, lever), screen_games=screen,
            keep=lambda number: stage.keep(number) and (number.file, number.address) in flat)
        search.spent += _levers_spent(rounds, unit)
        levers = sorted([*levers, *probes], key=lambda lever: (-gain(current, lever), lever.name))
    found = candidates([lever for lever in levers
                        if (lever.number.file, lever.number.address, _direction(lever)) not in walked], current, taken)
    search.stages.append(
        f"round {len(current.edits) + 1}, {name}: {len(levers)} levers of {stage.describe()} "
        f"screened at {screen} games per pairing; tried: "
        f"{', '.join(lever.name for lever in found) or 'none (no lever gains)'}")
    return found


def _direction(lever: Lever) -> int:
    return 1 if lever.change.after > lever.change.before else -1


def _now(current: Trial, edited: EditedField) -> NumericField:
    """The edited field as ``current``'s rules set it."""
    return next(number for number in numeric_fields(edited.file, Variant(current.folder), defaults=True)
                if number.address == edited.address)


def _toward(current: Trial, edited: EditedField) -> int:
    """The direction that takes ``edited`` back toward its shipped value in ``current``'s rules."""
    return 1 if edited.shipped > _now(current, edited).value else -1


def _revert_order(search: Search, current: Trial, stage: Stage, index: int, share: int, screen_games: int,
                  db: Path, workers: int | None) -> list[EditedField]:
    """The edits stage's fields in the order they are walked back: one field as it is; several screened
    (their ±1 levers only, ``screen_games`` per pairing) and ordered by the gain of the step toward the
    shipped value (every edited field is walked, the best first: the edit is the suspect, the screen only
    says which part first). Writes the stage's line into ``search.stages``."""
    assert isinstance(stage.owned, Edited)
    fields = list(stage.owned.fields)
    screened = "one field: no screen needed"
    if len(fields) > 1:
        unit = scheduled(search.study, 1)
        levers, rounds = run_levers(search.study, share, search.out / "levers" / f"{len(current.edits)}-{index}-{EDITS}",
                                    db, files=sorted({f.file for f in fields}), workers=workers,
                                    variant=current.folder, order=lambda lever: -gain(current, lever),
                                    screen_games=screen_games, keep=stage.keep, defaults=True)
        search.spent += _levers_spent(rounds, unit)
        best_gain = {(lever.number.file, lever.number.address, _direction(lever)): gain(current, lever)
                     for lever in levers if lever.shifts}
        fields.sort(key=lambda f: -best_gain.get((f.file, f.address, _toward(current, f)), -math.inf))
        screened = f"{len(levers)} levers screened at {screen_games} games per pairing"
    search.stages.append(f"round {len(current.edits) + 1}, {EDITS}: {stage.describe()}; {screened}; walked back "
                         f"toward the shipped value, in order: {', '.join(f.describe() for f in fields)}")
    return fields


def _edits_note(variant: Path | None, edited: Sequence[EditedField]) -> str:
    """Whether the search had an edits stage, as a line for the report."""
    if variant is None:
        return "No edits stage: no --variant, so no edit of yours to revert first."
    if not edited:
        return "No edits stage: the variant edits no number the shipped data sets."
    return (f"Edits stage first: the {len(edited)} field{'s' * (len(edited) != 1)} your variant edited "
            f"({'; '.join(f.describe() for f in edited)}), each walked back toward its shipped value.")


def _screen(stage: str, screen_games: int, share: int, levers: int, unit: int) -> int:
    """The stage's screen games per pairing: ``screen_games`` for the edits and local stages; wide, what ``share`` games buy for
    about ``levers`` levers and the base, even, between 2 and ``screen_games``."""
    if stage != WIDE:
        return screen_games
    return max(2, min(screen_games, share // ((levers + 1) * unit) // 2 * 2))


def autobalance(study: StudyConfig, targets: Targets, out: Path, db: Path, budget: int,
                variant: Path | None = None, games: int = 20, verify_games: int = 40, max_fields: int = 2,
                files: Sequence[str] | None = None, workers: int | None = 0, progress: bool = False,
                targets_file: Path = Path("targets"), screen_games: int = SCREEN_GAMES) -> Outcome:
    """Search for the smallest patch of ``variant`` (default the shipped rules) meeting ``targets``, verify
    it on fresh seeds, and write ``out`` (see the module docstring)."""
    if screen_games < 2 or screen_games % 2:
        raise ValueError(f"--screen-games must be an even number, at least 2, not {screen_games}")
    base = Variant(variant)
    check_variants_load(study, base, files)
    has_reference, reference = targets.reference_elo_within is not None, targets.reference_rules
    Variant(reference).validate()
    loadouts = sorted({label for lo in build_tournament(study).loadouts for label in lo.seat_labels if label})
    targets.check(loadouts, targets_file)
    versions = 2 if has_reference else 1
    cost, verify_cost = scheduled(study, games), scheduled(study, verify_games)
    if budget < versions * (cost + verify_cost):
        raise ValueError(f"--budget {budget} buys no search: measuring one version takes {cost} games and "
                         f"the verification {verify_cost}{' (each twice: the reference too)' if versions == 2 else ''}")
    out.mkdir(parents=True, exist_ok=True)
    say = _progress if progress else _quiet
    seed = study.base_seed
    with MatchStore(db) as store:
        search = Search(study, base, out, store, games, workers)
        ref_figures = search.measure((), reference, "reference").figures if has_reference else None
        search.bands = targets.bands(loadouts, ref_figures)
        for trial in search.trials:
            trial.bands = search.bands
        start = search.measure((), variant, "base")
        best, stopped = start, ""
        say(f"autobalance: base distance {start.distance:.3f} ({len(start.figures.loadouts)} loadouts, {cost} games)")
        reserve = versions * verify_cost
        every_file = read_files(build_tournament(study), files)  # the files the env reads
        edited = edited_fields(base) if variant is not None else []
        say(f"autobalance: edits stage: {len(edited)} field{'s' * (len(edited) != 1)} your variant edited, "
            "walked back first" if edited else
            "autobalance: no edits stage (" + ("no --variant: no edit of yours to revert)" if variant is None
                                               else "the variant edits no number of the shipped data)"))
        search.edits_note = _edits_note(variant, edited)
        while best.distance > 0 and not stopped:
            if len(best.edits) >= max_fields:
                stopped = f"{max_fields} fields patched"
                break
            current = best
            taken = {(number.file, number.address) for number, _ in current.edits}
            walked: set[tuple[str, tuple[str | int, ...], int]] = set()
            for index, stage in enumerate(_stages(study, current, edited)):
                if search.spent + cost > budget - reserve:
                    stopped = "budget spent"
                    break
                share = max((budget - reserve - search.spent) // 3, 1)
                walks: list[Iterator[Trial]]
                if isinstance(stage.owned, Edited):
                    order = _revert_order(search, current, stage, index, share, screen_games, db, workers)
                    walked.update((edited_field.file, edited_field.address, _toward(current, edited_field))
                                  for edited_field in order)
                    walks = [search.revert(current, edited_field, say, budget - reserve) for edited_field in order]
                else:
                    count = 2 * sum(1 for relative in every_file for number in
                                    numeric_fields(relative, Variant(current.folder)) if stage.keep(number))
                    if not count:
                        continue
                    found = _ranked(search, current, stage, index, share, count, screen_games, files, db, workers,
                                    budget - reserve, walked, taken)
                    walks = [search.steps(current, lever, say, budget - reserve, stage.name) for lever in found]
                say(f"autobalance: {search.stages[-1]}")
                for walk in walks:  # lazy: a walk plays only when its turn comes
                    for tried in walk:
                        if tried.distance < best.distance:
                            best = tried
                    if search.spent + cost > budget - reserve:
                        stopped = "budget spent"
                    if best.distance == 0 or stopped:
                        break
                if best.distance == 0 or stopped:
                    break
            if best is current:
                stopped = stopped or "no lever lowers the distance"
        fresh = seed + VERIFY_SEED_OFFSET
        ref_verified = measure(study, reference, store, verify_games, fresh, workers) if has_reference else None
        figures = measure(study, best.folder, store, verify_games, fresh, workers)
        verified = Trial(best.edits, best.folder, figures, targets.bands(loadouts, ref_verified), "verify",
                         best.stage)
        search.trials.append(verified)
        search.spent += reserve
    patch = None
    if best.edits:
        patch = out / "patch"
        shutil.rmtree(patch, ignore_errors=True)
        write_overrides(patch, best.edits, base)
    changes = data_diff(base, Variant(patch)) if patch else []
    outcome = Outcome(targets, start, best, verified, changes, patch, search.trials, search.spent, stopped,
                      search.stages, search.edits_note)
    write_outcome(out, study, outcome, variant, games, verify_games, budget,
                  peers=peers_section(out_of_line(every_file, base)))
    return outcome


def _estimates(figures: Figures) -> dict[str, float]:
    return {name: value for name, (value, _, _) in figures.values().items()}


def _edits_text(edits: Sequence[tuple[NumericField, int | float]]) -> str:
    return "; ".join(f"{number.file}: {'.'.join(map(str, number.address))} = {value}" for number, value in edits) \
        or "(no edit)"


CSV_COLUMNS = ("trial", "phase", "stage", "patch", "seed_from", "games", "distance", "figure", "value", "low", "high",
               "target_low", "target_high", "excess")


def write_outcome(out: Path, study: StudyConfig, outcome: Outcome, variant: Path | None, games: int,
                  verify_games: int, budget: int, peers: Sequence[str] = ()) -> Path:
    """``autobalance.csv`` (every measured version's figures) and ``autobalance.md`` (the verdict first; ``peers``:
    the values out of line with their peers, :func:`issoku.evaluation.design.peers.peers_section`, at its end)."""
    rows = []
    for index, trial in enumerate(outcome.trials):
        seed = study.base_seed + (VERIFY_SEED_OFFSET if trial.phase == "verify" else 0)
        for name, (value, low, high) in trial.figures.values().items():
            band = trial.bands.get(name)
            rows.append([index, trial.phase, trial.stage, _edits_text(trial.edits), seed, trial.figures.games,
                         f"{trial.distance:.4f}", name, f"{value:.4f}", f"{low:.4f}", f"{high:.4f}",
                         *([f"{band[0]:.4f}", f"{band[1]:.4f}", f"{excess(value, band):.4f}"] if band
                           else ["", "", ""])])
    write_csv(out / "autobalance.csv", CSV_COLUMNS, rows)
    verified = outcome.verified
    # Names in it come from studies, targets and variants someone else may have written: text, never Markdown.
    lines = [f"# Autobalance of {escape_markdown(study.env)} ({escape_markdown(variant or 'the shipped rules')})", "",
             f"Targets: {escape_markdown(outcome.targets.describe())}.", "",
             f"Verdict: {escape_markdown(verdict(outcome))}", "", "## The patch (What changed)", ""]
    lines += [f"- {code_span(c)}" for c in outcome.changes] or ["- none: the base rules were kept."]
    if outcome.changes:
        lines += ["", f"Found by the {stage_text(outcome.best.stage)}."]
    lines += ["", *([f"Patch folder: {code_span(outcome.patch)}", ""] if outcome.patch else []),
              f"## The verifying run (fresh seeds from {study.base_seed + VERIFY_SEED_OFFSET}, {verify_games} games "
              f"per pairing, {verified.figures.games} games)", "",
              "| figure | score [95 % interval] | target | met |", "|---|---|---|---|"]
    for name, (value, low, high) in verified.figures.values().items():
        band = verified.bands.get(name)
        target = f"[{band[0]:.1%}, {band[1]:.1%}]" if band else ""
        met = ("yes" if excess(value, band) == 0 else "no") if band else ""
        lines.append(f"| {escape_markdown(name)} | {figure_text(name, value, low, high)} | {target} | {met} |")
    lines += ["", f"## The search (seeds from {study.base_seed}, {games} games per pairing per version)", "",
              f"Budget {budget} games, {outcome.spent} scheduled (every measured version, the levers' rankings in "
              f"`levers/`, the verification; games a store already held are reused). "
              f"Stopped: {outcome.stopped or ('targets met' if outcome.best.distance == 0 else 'search ended')}.", "",
              *([escape_markdown(outcome.edits_note), ""] if outcome.edits_note else []),
              *[f"- {escape_markdown(line)}" for line in outcome.stages], *([""] if outcome.stages else []),
              "| # | phase | stage | patch | distance (points outside the targets) |", "|---|---|---|---|---|"]
    lines += [f"| {index} | {trial.phase} | {trial.stage} | {escape_markdown(_edits_text(trial.edits))} | "
              f"{trial.distance:.3f} |"
              for index, trial in enumerate(outcome.trials)]
    lines += list(peers)
    report = out / "autobalance.md"
    report.write_text("\n".join(lines) + "\n")
    return report


def stage_text(stage: str) -> str:
    """Which stage a patch came from, as a phrase."""
    if stage == EDITS:
        return "edits stage (reverting part of your edit: a field your variant changed, walked back toward its " \
               "shipped value)"
    return ("local stage (levers of the content the loadouts missing their targets own)" if stage == LOCAL
            else "wide stage (levers of every other content: no local patch met the targets)")


def verdict(outcome: Outcome) -> str:
    """``met`` or ``not met: <the targets missed>``, from the verifying run."""
    misses = outcome.verified.misses()
    return "met (every target, on the verifying run's estimates)" if not misses else "not met: " + "; ".join(misses)


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _quiet(message: str) -> None:
    """No progress lines."""


__all__ = ["CANDIDATES", "EDITS", "FIRST_MOVER", "Figures", "LOCAL", "MAX_STEP", "Outcome", "PATIENCE", "SCREEN_GAMES", "Search", "Stage",
           "TARGET_FIELDS", "Targets", "Trial", "VERIFY_SEED_OFFSET", "WIDE", "autobalance", "candidates", "distance",
           "elo", "expected", "figure_text", "gain", "load_targets", "measure", "missing_loadouts", "moves", "plateau",
           "stage_text", "verdict"]
