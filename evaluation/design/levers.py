"""``issoku levers``: which number of the rules data moves the balance most?

One-at-a-time sensitivity: every number a data file of the env sets (costs, skills, attributes,
damage, AP, reach...: :func:`issoku.rules.variant.numeric_fields`, every ruleset's data through the
one variant overlay) is nudged by ``±step``, one field at a time. Each nudge is a **lever**: a variant
folder (:func:`issoku.rules.variant.write_override`) holding that one edited file, validated like any
variant (a nudge the data schema refuses, a negative cost, is listed as invalid and not played), and
played against the base rules on the same schedule as ``balance-report --variant`` (same loadouts,
policies, seats and seeds: common random numbers). Files whose levers leave the env's rules
fingerprint unchanged (the other rulesets' data) are dropped.

**Successive halving** spends ``budget`` games (base and lever games both count): the rounds are
planned up front (every lever, then the better half, ... down to :data:`FINALISTS`); each round gets
an equal share of the budget left, spent as more games per pairing (always an even number, so seats
swap, and a prefix of the next round's schedule: earlier games are reused from the store) for the
surviving levers and the base. The first round (the screen) plays at least ``screen_games`` (default 2)
games per pairing per lever, whatever the budget. After each round the levers are ranked by their
**effect**: the largest paired move of a loadout's (or policy's) score or of the first mover's score, or
(``rank="z"``) by that move over its standard error, so that a noisy figure on few games does not win the
screen; the better half survives.

**Per-loadout tables.** The whole-field ranking answers *which numbers move the balance most*; a designer
who mistyped a number of one weapon asks *which numbers move that weapon*, and there a field-wide lever
(a cheaper attack of another weapon, a finesse of another archetype) drowns the smaller number that only
moves one loadout. So every loadout (or, with ``focus``, the focused ones) also gets its own table: every
lever ranked by the move of *that loadout's* score (raw or standardized, as ``rank`` says), round reached
first as in the field table. Beside it, the lever's **own** loadouts: those whose content (weapon,
archetype, armour, stance, fighter: the ruleset's ``seat_content``) the edit touches, and its **own rank**,
its place among the levers that edit that loadout's content, in that loadout's table. That is the
designer-facing answer to *which of the nodachi's own numbers moves it most*: the numbers a designer can
change on that loadout alone (a lever acting through an opponent moves every loadout that meets the
opponent, so the field table is the place for it), and a mistyped number of one loadout is one of that
loadout's own numbers, whatever it is.

The halving must not decide the field table at the cost of the per-loadout tables: with ``loadout_top`` k,
each round keeps, beside the field's better half, every lever in some table's top k or among some table's top
k own levers (the union), so the per-loadout leaders are measured on as many games as the field's
finalists. The field's own halving is unchanged by it (it halves its own survivors; a lever kept for a
table ranks in the field table by the round the field kept it: ``field_round``). ``focus`` (``--focus``)
ranks and halves the field by the focused loadouts' score (the biggest move among them), and the halving
keeps **every own lever of a focused loadout** alive through every round (``keep_own``): a focused designer
asks which of *this loadout's* numbers moves it most, its own levers are usually few, and a screen on a few games per
pairing must not decide that ranking by dropping one of them on noise, so the own table ranks them all on
the finalists' games. An own lever whose screen games were all played exactly as the base's is inert (a number no
agent's decision reached) and is not kept: more games of it would replay the base's. They are
finalists of the focused field table too (their ``field_round`` is every round
they played: focused, the field table asks the focused loadouts' question, of which they are the core), while
the field's halving itself still halves its own survivors as before. A field's place in a table is its best
lever's (:func:`field_rank`).

The CSV (``levers.csv``) has one row per lever, ranked as the field table (field round reached, then
effect, then name), with the per-loadout columns (``own_loadouts``, ``own_rank``, ``own_delta/low/high``,
``rank_<loadout>``); the Markdown summary (``levers.md``) names the schedule, the top levers, each named
like the variant report names an edit (``breath/data/weapons.toml: nodachi / parry: cost 2 → 1``), and
each loadout's table.
"""

from __future__ import annotations

import datetime
import hashlib
import math
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from issoku.evaluation.games.config import StudyConfig, build_tournament, load_study
from issoku.evaluation.reports.html_report import code_span, escape_markdown
from issoku.evaluation.reports.csv_output import write_csv
from issoku.evaluation.design.peers import Outlier, out_of_line, peers_section
from issoku.evaluation.stats.paired import PairedDifference, holm
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Tournament, run_tournaments, schedule
from issoku.evaluation.design.variants import (Shift, changed_twins, paired_shifts, data_files, seat_content,
                                        simultaneous, tournament_fingerprint, with_variant)
from issoku.rules.kernel.content import DataError
from issoku.rules.variant import (Change, NumericField, Variant, data_diff, numeric_fields, shipped_files, shown,
                                  write_override)
from issoku.common.backend import Workers

FINALISTS = 4
"""Successive halving stops halving when this many levers (or fewer) are left."""

SCREEN_GAMES = 2
"""Default games per pairing of the first round (the screen): one with each seat order."""

RANKINGS = ("effect", "z")
"""What the halving may rank by: the raw effect, or the standardized one (:attr:`Lever.z`)."""

LOADOUT_TOP = 3
"""The per-loadout tables' top: how many levers of each table (and of its own levers) the command keeps alive
through the halving (``--loadout-top``) and the summary shows."""

COLUMNS = ("rank", "lever", "file", "item", "field", "before", "after", "round", "games_per_pair", "pairs",
           "games_changed",
           "effect", "z", "effect_figure", "effect_delta", "effect_low", "effect_high", "effect_p_holm",
           "first_mover_delta", "first_mover_low", "first_mover_high",
           "matchup", "matchup_delta", "matchup_low", "matchup_high",
           "spread_base", "spread_lever", "status",
           "field_round", "own_loadouts", "own_rank", "own_delta", "own_low", "own_high")
"""The fixed columns of ``levers.csv``; then one ``rank_<loadout>`` column per per-loadout table: the lever's
place in that loadout's table (``own_rank``: its place among its own loadout's own levers, there)."""


@dataclass
class Lever:
    """One number nudged: its edit, its variant folder, and what it did at the last round it played."""

    change: Change
    folder: Path
    number: NumericField
    """The number nudged (its address in the file), before the nudge."""
    status: str = "played"
    round: int = -1
    """The last round the lever played (kept by the field's halving or by a per-loadout table)."""
    games_per_pair: int = 0
    shifts: list[Shift] = field(default_factory=list)
    changed: int = -1
    """Of the lever's paired games at its last round, how many were played otherwise than the base game (any action
    of any seat; -1 until it plays): 0 is an inert lever, a number no agent's play reached."""
    own: tuple[str, ...] = ()
    """The loadouts whose content (their seats' ``seat_content``: weapon, archetype, armour, stance...) the edit
    touches: the loadouts the number belongs to."""
    field_round: int = -1
    """The last round the field's own halving kept the lever, or, for an own lever of a focused loadout (it plays
    every round), the last round (the field table ranks by it)."""

    @property
    def name(self) -> str:
        """The edit as the variant report names it."""
        return str(self.change)

    def figure(self, which: str) -> Shift | None:
        """The biggest move among the lever's ``side`` scores, ``matchup`` scores, or the ``first`` mover's."""
        found = [s for s in self.shifts if _kind(s) == which]
        return max(found, key=lambda s: (abs(s.result.delta), s.figure), default=None)

    @property
    def effect(self) -> float:
        """The ranking key: the largest absolute move of a side's score or the first mover's score."""
        moves = [abs(s.result.delta) for s in (self.figure("side"), self.figure("first")) if s is not None]
        return max(moves, default=0.0)

    @property
    def z(self) -> float:
        """The standardized effect: the largest ``|move| / half-width of its interval`` among the sides' scores and
        the first mover's (every figure of a lever has the same simultaneous level, so this orders as
        ``|move| / standard error``): a big move on few noisy games ranks below a smaller, surer one."""
        return max((_size(s.result, "z") for s in self.shifts if _kind(s) in ("side", "first")), default=0.0)

    def on(self, loadout: str) -> Shift | None:
        """The move of ``loadout``'s score (None when the lever has not played or the loadout is not fielded)."""
        return next((s for s in self.shifts if s.figure == f"loadout {loadout}: score"), None)

    def size_on(self, loadouts: Sequence[str], rank: str) -> float:
        """The biggest move of ``loadouts``' scores, raw (``effect``) or standardized (``z``)."""
        return max((_size(s.result, rank) for name in loadouts if (s := self.on(name)) is not None), default=0.0)


    def spread(self) -> tuple[float, float]:
        """Max minus min of the sides' mean scores, base and lever (point estimates)."""
        sides = [s.result for s in self.shifts if s.figure.endswith(": score") and " vs " not in s.figure]
        if not sides:
            return math.nan, math.nan
        return (max(r.base for r in sides) - min(r.base for r in sides),
                max(r.variant for r in sides) - min(r.variant for r in sides))


def _size(result: PairedDifference, rank: str) -> float:
    """A move's size: ``|delta|`` or (``z``) ``|delta|`` over its interval's half-width."""
    return abs(result.delta) / (max((result.high - result.low) / 2, 1e-12) if rank == "z" else 1.0)


def _kind(shift: Shift) -> str:
    if shift.figure == "first mover's score":
        return "first"
    return "matchup" if " vs " in shift.figure else ("side" if shift.figure.endswith(": score") else "")


def ranking(rank: str, focus: Sequence[str] = ()) -> Callable[[Lever], float]:
    """The halving's sort key for ``rank`` (one of :data:`RANKINGS`), lowest first; ``focus``: by the biggest
    move of those loadouts' scores instead of the field's figures."""
    if rank not in RANKINGS:
        raise ValueError(f"--rank must be one of {', '.join(RANKINGS)}, not {rank!r}")
    if focus:
        return lambda lever: -lever.size_on(focus, rank)
    return (lambda lever: -lever.z) if rank == "z" else (lambda lever: -lever.effect)


def loadout_table(levers: Sequence[Lever], loadout: str, rank: str = "effect", own: bool = False) -> list[Lever]:
    """``loadout``'s table: the played levers ranked by the move of its score (round reached first, as the field
    table: a lever dropped earlier was measured on fewer games); ``own``: only the levers editing its content."""
    found = [lever for lever in levers if lever.on(loadout) is not None and (not own or loadout in lever.own)]
    return sorted(found, key=lambda lever: (-lever.round, -lever.size_on((loadout,), rank), lever.name))


def _moved(lever: Lever, loadout: str) -> bool:
    move = lever.on(loadout)
    return move is not None and (move.result.delta != 0 or move.result.high > move.result.low)


def kept_own(levers: Sequence[Lever], loadouts: Sequence[str]) -> list[Lever]:
    """Every lever of ``levers`` (in their order) that edits the content of one of ``loadouts``: the levers a focused
    run keeps alive through every round, however little they moved, so that its own table ranks them on equal games.

    Except an inert one: a lever already played whose games were all played exactly as the base's
    (:attr:`Lever.changed` 0: no agent's decision reached the number) would only replay them (the tempo spearman
    owns 38 levers with ``--defaults``, most of them AP of actions the scripted agents never take; kept, they
    took most of its finalists' games). It stops where it was found inert, the screen."""
    return [lever for lever in levers if any(name in lever.own for name in loadouts) and lever.changed != 0]


def kept_for_tables(levers: Sequence[Lever], tables: Sequence[str], top: int, rank: str) -> list[Lever]:
    """The levers in some table's top ``top``, or among its top ``top`` own levers (in ``levers``' order); a
    lever that changed none of a loadout's games (a zero move, no spread) is no leader of its table."""
    chosen = {id(lever) for name in tables for own in (False, True)
              for lever in loadout_table(levers, name, rank, own)[:top] if _moved(lever, name)}
    return [lever for lever in levers if id(lever) in chosen]


@dataclass(frozen=True)
class Round:
    """One round of the halving: how many levers, at how many games per pairing, and the games it played."""

    levers: int
    games_per_pair: int
    played: int


def loadouts_study(env: str) -> StudyConfig:
    """The env's shipped loadouts study (the one with loadouts), else its first shipped study."""
    from issoku.evaluation.games.studies import default_studies

    studies = [load_study(path) for path in default_studies()]
    mine = [s for s in studies if s.env == env]
    if not mine:
        known = sorted({s.env for s in studies})
        raise ValueError(f"no shipped study for env {env!r} (give --study FILE; envs with one: {', '.join(known)})")
    return next((s for s in mine if s.loadouts or s.loadout_grid), mine[0])


MAX_LEVERS = 1_000
"""Most levers (variant folders) one run makes: the shipped breath data with ``--defaults`` has 384. A variant with
more numbers (a 1,000-weapon one made 392 folders before anything said so) is refused before a folder is written;
``--file`` names fewer files."""
SLUG_CHARS = 120
"""Longest lever folder name; a longer one (a long data key) is cut and a digest of the whole appended (an over-long
key used to fail on the file system after 75 folders were written)."""


def _slug(change: Change, sign: str) -> str:
    text = f"{change.file.replace('/data/', '_').removesuffix('.toml')}_{change.item}_{change.field}"
    slug = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()
    if len(slug) + len(sign) > SLUG_CHARS:
        slug = f"{slug[:SLUG_CHARS - 20]}_{hashlib.sha256(text.encode()).hexdigest()[:12]}"
    return slug + sign


def count_levers(step: int, files: Sequence[str] | None = None, base: Variant | None = None, defaults: bool = False,
                 keep: Callable[[NumericField], bool] | None = None, named: Sequence[str] | None = None) -> int:
    """How many levers :func:`make_levers` would make (writing nothing); more than :data:`MAX_LEVERS` is refused
    (``named``: the files the user named, which the refusal names; default: the data files the env reads)."""
    base = base or Variant()
    count = sum(2 for relative in files or shipped_files() for number in numeric_fields(relative, base, defaults)
                if keep is None or keep(number))
    if count > MAX_LEVERS:
        raise ValueError(f"{count:,} levers (two per number of {', '.join(named or ('the data files the env reads',))}), more "
                         f"than the {MAX_LEVERS:,} one run makes: name fewer data files with --file")
    return count


def make_levers(folder: Path, step: int, files: Sequence[str] | None = None, base: Variant | None = None,
                defaults: bool = False, keep: Callable[[NumericField], bool] | None = None) -> list[Lever]:
    """Every ``±step`` nudge of every number of ``files`` (default all) in ``base`` (default the shipped data),
    as variant folders under ``folder`` (each holds ``base``'s files too, so it is ``base`` with one edit);
    ``defaults``: also the optional numbers the files leave at their schema value, nudged from it (the
    lever adds the field). A nudge the data refuses is kept with status ``invalid: ...``. ``keep``: only the
    numbers it keeps become levers (no folder is written for the others)."""
    base = base or Variant()
    levers = []
    for relative in files or shipped_files():
        for number in numeric_fields(relative, base, defaults):
            if keep is not None and not keep(number):
                continue
            for sign, after in (("_down", number.value - step), ("_up", number.value + step)):
                levers.append(_lever(folder, number, after, sign, base))
    return levers


def _lever(folder: Path, number: NumericField, after: int | float, sign: str, base: Variant) -> Lever:
    scratch = folder / "_new"
    variant = write_override(scratch, number, after, base)
    changes = data_diff(base, variant)
    if len(changes) != 1:
        raise RuntimeError(f"{number}: the override wrote {len(changes)} changes, not one")
    target = folder / _slug(changes[0], sign)
    if target.exists():
        for path in sorted(target.rglob("*"), reverse=True):
            path.rmdir() if path.is_dir() else path.unlink()
        target.rmdir()
    scratch.rename(target)
    lever = Lever(changes[0], target, number)
    try:
        Variant(target).validate()
    except DataError as error:
        where, why = error.problems[0] if error.problems else ("(file)", "invalid")
        lever.status = f"invalid: {where}: {why}"
    return lever


def scheduled_records(tournament: Tournament, store: MatchStore) -> list:
    """The tournament's stored games, read by key in schedule order."""
    # by key, in schedule order: the base and every lever share loadout names, so a query by loadout would
    # read every lever's games each time
    found = (store.record(spec.key) for _, spec in schedule(tournament))
    return [record for record in found if record is not None]


def halving_sizes(levers: int) -> list[int]:
    """How many levers the field's halving keeps each round: all, then halves down to :data:`FINALISTS`."""
    sizes = [levers]
    while sizes[-1] > FINALISTS:
        sizes.append(math.ceil(sizes[-1] / 2))
    return sizes


def round_games(left: int, rounds_left: int, levers: int, unit: int, floor: int = 0) -> int:
    """A round's new games per pairing: an equal share of the budget ``left`` over the ``rounds_left``, spent on
    ``levers`` and the base (even, at least ``floor``); ``unit``: games per pairing step of one version."""
    share = left // rounds_left
    return max(share // ((levers + 1) * unit) // 2 * 2, floor, 0)  # a screen over budget leaves the rest nothing


def plan(levers: int, budget: int, unit: int, screen: int = SCREEN_GAMES) -> list[tuple[int, int]]:
    """The halving's rounds as ``(levers, new games per pairing)``, budget split evenly over the rounds
    (the first round plays at least ``screen``) when no lever is kept for a per-loadout table (those that
    are make a round bigger: :func:`run_levers` shares what is left over the levers actually alive)."""
    rounds, left = [], budget
    sizes = halving_sizes(levers)
    for index, size in enumerate(sizes):
        more = round_games(left, len(sizes) - index, size, unit, screen if index == 0 else 0)
        rounds.append((size, more))
        left -= more * (size + 1) * unit
    return rounds


def check_variants_load(study: StudyConfig, base: Variant, files: Sequence[str] | None = None) -> str:
    """Validate ``base`` and check that ``study``'s env loads a variant of it (a probe written in a scratch
    folder, before any output is); returns the base's rules fingerprint. ValueError names what is wrong."""
    base.validate()
    tournament = with_variant(build_tournament(study.model_copy(update={"games_per_pair": SCREEN_GAMES})),
                              base.root)
    with tempfile.TemporaryDirectory() as scratch:
        first = numeric_fields((files or shipped_files())[0], base)[0]
        probe = write_override(scratch, first, first.value + 1, base)
        try:
            base_print = tournament_fingerprint(tournament)
            tournament_fingerprint(with_variant(tournament, probe.root))
        except TypeError as error:
            raise ValueError(f"env {study.env} cannot load a rules variant: {error}") from None
    return base_print


def read_files(tournament: Tournament, files: Sequence[str] | None = None) -> list[str]:
    """The data files whose levers are played: ``files`` (default every shipped one) less those the tournament's env
    never reads (:func:`~issoku.evaluation.design.variants.data_files`: the systems its ruleset names). Why: a lever of an
    unread file plays the base's games again (under a variant folder its fingerprint may still differ, so the
    fingerprint check below does not catch it: the breath duel's 793 levers were 590 of tempo and encounter files)."""
    read = set(data_files(tournament))
    return [file for file in (files or shipped_files()) if file in read]


def study_outliers(study: StudyConfig, variant: Path | None = None, files: Sequence[str] | None = None) -> list[Outlier]:
    """The values out of line with their peers (:mod:`issoku.evaluation.design.peers`) among the data files ``study``'s env
    reads (``files``: only those), as ``variant`` (default the shipped data) sets them."""
    tournament = with_variant(build_tournament(study.model_copy(update={"games_per_pair": SCREEN_GAMES})), variant)
    return out_of_line(read_files(tournament, files), Variant(variant))


def run_levers(study: StudyConfig, budget: int, out: Path, db: Path, step: int = 1,
               files: Sequence[str] | None = None, workers: Workers = 0, batch_size: int = 16,
               progress: bool = False, variant: Path | None = None, defaults: bool = False,
               order: Callable[[Lever], float] = lambda lever: -lever.effect,
               screen_games: int = SCREEN_GAMES, keep: Callable[[NumericField], bool] | None = None,
               tables: Sequence[str] | None = None, loadout_top: int = 0,
               rank: str = "effect", keep_own: Sequence[str] = ()) -> tuple[list[Lever], list[Round]]:
    """Make, screen and halve the levers of ``study``'s env; writes ``levers.csv`` and ``levers.md`` in ``out``
    (``progress``: a line on stderr after each round). ``variant``: the base rules are that variant folder
    (validated first), and the levers are nudges of its data; ``defaults``: see :func:`make_levers`; ``order``:
    what the halving ranks by, lowest first (default the effect, biggest first; ``issoku autobalance`` ranks by
    how far the lever leaves the designer's targets, :func:`ranking` the standardized effect); ``screen_games``:
    the first round's games per pairing (even, at least 2: more buys a screen that small effects survive);
    ``keep``: only the numbers it keeps are levers (``issoku autobalance``'s locality stage); ``tables``: the
    loadouts that get a per-loadout table (default every loadout the study fields; an unknown one is refused
    as ``--focus``), ranked by ``rank``; ``loadout_top``: each table's top levers (and top own levers) kept
    alive through the halving (0: the field's halving alone decides, as ``issoku autobalance`` wants);
    ``keep_own``: loadouts (``--focus``) whose own levers all play every round (:func:`kept_own`; they share
    each round's budget with the field's survivors and the tables' leaders, as those do)."""
    if budget < 1:
        raise ValueError(f"--budget must be at least 1, not {budget}")
    if screen_games < 2 or screen_games % 2:
        raise ValueError(f"--screen-games must be an even number, at least 2, not {screen_games}")
    base = Variant(variant)
    base_tournament = with_variant(build_tournament(study.model_copy(update={"games_per_pair": SCREEN_GAMES})),
                                   variant)
    base_print = check_variants_load(study, base, files)
    content = seat_content(base_tournament)
    unknown = [name for name in [*(tables or ()), *keep_own] if name not in content]
    if unknown:
        raise ValueError(f"--focus {unknown[0]}: no loadout of the {study.env} study "
                         f"(its loadouts: {', '.join(sorted(content)) or '(none)'})")
    tables = sorted(content) if tables is None else list(dict.fromkeys(tables))
    asked, files = files, read_files(base_tournament, files)
    if not files:
        raise ValueError(f"no lever of {', '.join(asked or ())} changes the rules of {study.env}: it reads only "
                         f"{', '.join(data_files(base_tournament))}")
    count_levers(step, files, base, defaults, keep, asked)  # before a folder is written
    levers = make_levers(out / "variants", step, files, base, defaults, keep)
    for lever in levers:
        items = set(lever.change.item.split(" / "))
        lever.own = tuple(name for name in sorted(content) if items & content[name])
    relevant: dict[str, bool] = {}
    for lever in levers:  # a file the env does not read leaves its fingerprint unchanged: its levers are dropped
        if lever.status == "played" and lever.change.file not in relevant:
            fingerprint = tournament_fingerprint(with_variant(base_tournament, lever.folder))
            relevant[lever.change.file] = fingerprint != base_print
    levers = [lever for lever in levers if relevant.get(lever.change.file, False)]
    alive = [lever for lever in levers if lever.status == "played"]
    if not alive:
        raise ValueError(f"no lever of {', '.join(files)} changes the rules of {study.env}")
    unit = len(base_tournament.loadouts) * len(base_tournament.pairs())
    rounds: list[Round] = []
    games, left, sizes = 0, budget, halving_sizes(len(alive))
    survivors = alive
    with MatchStore(db) as store:
        for index, size in enumerate(sizes):
            survivors = survivors[:size]  # the field's own halving, as if no table kept anything
            kept = {id(lever) for lever in [*survivors, *kept_for_tables(alive, tables, loadout_top, rank),
                                             *kept_own(alive, keep_own)]}
            alive = [lever for lever in alive if id(lever) in kept]
            more = round_games(left, len(sizes) - index, len(alive), unit, screen_games if index == 0 else 0)
            left -= more * (len(alive) + 1) * unit
            games += more
            tournament = with_variant(build_tournament(study.model_copy(update={"games_per_pair": games})), variant)
            before = store.count()
            lever_tournaments = [with_variant(tournament, lever.folder) for lever in alive]
            run_tournaments([tournament, *lever_tournaments], store, workers=workers, batch_size=batch_size,
                            progress=False)
            base_records = scheduled_records(tournament, store)
            for lever, lever_tournament in zip(alive, lever_tournaments):
                lever_records = scheduled_records(lever_tournament, store)
                shifts = paired_shifts(base_records[0].env_id, base_records, lever_records)
                lever.shifts = [replace(s, result=simultaneous(s.result, len(shifts), 0.05)) for s in shifts]
                lever.changed = changed_twins(base_records, lever_records)
                lever.round, lever.games_per_pair = index, games
            for lever in [*survivors, *kept_own(alive, keep_own)]:
                lever.field_round = index
            rounds.append(Round(len(alive), games, store.count() - before))
            if progress:
                print(f"levers: round {index}: {len(alive)} levers at {games} games per pairing, "
                      f"{rounds[-1].played} games played", file=sys.stderr, flush=True)
            alive.sort(key=lambda lever: (order(lever), lever.name))
            survivors.sort(key=lambda lever: (order(lever), lever.name))
    ranked = sorted(levers, key=lambda lever: (-lever.field_round, order(lever), lever.name))
    write_levers(out, study, ranked, rounds, budget, step, sorted(file for file, read in relevant.items() if read),
                 variant=variant, screen_games=screen_games, tables=tables, rank=rank, loadout_top=loadout_top,
                 keep_own=keep_own, peers=peers_section(out_of_line(files, base)))
    return ranked, rounds


def _rows(levers: Sequence[Lever], tables: Sequence[str] = (), rank: str = "effect") -> list[list]:
    played = [lever for lever in levers if lever.shifts]
    places = {name: {id(lever): place for place, lever in enumerate(loadout_table(levers, name, rank), 1)}
              for name in tables}
    own_places = {name: {id(lever): place for place, lever in enumerate(loadout_table(levers, name, rank, True), 1)}
                  for name in tables}
    effects = {id(lever): _effect_figure(lever) for lever in played}
    corrected = dict(zip([id(lever) for lever in played],
                         holm([effects[id(lever)].result for lever in played]), strict=True))
    rows = []
    for place, lever in enumerate(levers, 1):
        c = lever.change
        row: list = [place, lever.name, c.file, c.item, c.field, shown(c.before), shown(c.after), lever.round,
                     lever.games_per_pair]
        own = _own_place(lever, own_places)
        tail = [lever.field_round, ";".join(lever.own), *(own if lever.shifts else [""] * 4)]
        ranks = [places[name].get(id(lever), "") for name in tables]
        if not lever.shifts:
            rows.append(row + [""] * (COLUMNS.index("status") - len(row)) + [lever.status, *tail, *ranks])
            continue
        top = effects[id(lever)]
        first, matchup = lever.figure("first"), lever.figure("matchup")
        row += [top.result.n, lever.changed, _num(lever.effect), _num(lever.z), top.figure, *_interval(top.result),
                _num(corrected[id(lever)].p_adjusted)]
        row += _interval(first.result) if first else ["", "", ""]
        row += [matchup.figure, *_interval(matchup.result)] if matchup else ["", "", "", ""]
        row += [_num(value) for value in lever.spread()] + [lever.status]
        rows.append(row + tail + ranks)
    return rows


def _own_place(lever: Lever, own_places: dict[str, dict[int, int]]) -> list:
    """``own_rank`` and the move of the own loadout where the lever ranks best among that loadout's own levers
    (a stance several loadouts field is one of each one's own levers)."""
    placed = sorted((own_places[name][id(lever)], name) for name in lever.own
                    if id(lever) in own_places.get(name, {}))
    if not placed:
        return ["", "", "", ""]
    move = lever.on(placed[0][1])
    return [placed[0][0], *(_interval(move.result) if move else ["", "", ""])]


def _effect_figure(lever: Lever) -> Shift:
    found = [s for s in (lever.figure("side"), lever.figure("first")) if s is not None]
    return max(found, key=lambda s: (abs(s.result.delta), s.figure))


def _num(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.4f}"


def _interval(result: PairedDifference) -> list[str]:
    return [_num(result.delta), _num(result.low), _num(result.high)]


def write_levers(out: Path, study: StudyConfig, levers: Sequence[Lever], rounds: Sequence[Round], budget: int,
                 step: int, files: Sequence[str] = (), top: int = 10, variant: Path | None = None,
                 screen_games: int = SCREEN_GAMES, tables: Sequence[str] = (), rank: str = "effect",
                 loadout_top: int = 0, keep_own: Sequence[str] = (), peers: Sequence[str] = ()) -> Path:
    """``levers.csv`` (every lever, ranked, with its place in each of ``tables``' per-loadout tables) and
    ``levers.md`` (the schedule, the top levers, each table's top ``max(loadout_top, LOADOUT_TOP)``, then ``peers``:
    the values out of line with their peers, :func:`issoku.evaluation.design.peers.peers_section`)."""
    out.mkdir(parents=True, exist_ok=True)
    rows = _rows(levers, tables, rank)
    header = (*COLUMNS, *(f"rank_{name}" for name in tables))
    write_csv(out / "levers.csv", header, rows)
    played = sum(r.played for r in rounds)
    skipped = [lever for lever in levers if lever.status != "played"]
    lines = [f"# Levers of {escape_markdown(study.env)}{f' under the variant {escape_markdown(variant)}' if variant else ''} "
             f"(±{step} on each number of its rules data)", "",
             f"Written {datetime.date.today().isoformat()}. Budget {budget} games, {played} played "
             f"(base and levers; games already in the store are reused, not counted). Seeds from "
             f"{study.base_seed}; each lever is paired with the base game by game (same loadouts, policies, "
             "seats and seeds). Effect: the largest move of a side's score or of the first mover's score; "
             "z: the largest such move over half its interval's width (the halving ranks by the one asked for); "
             f"the screen played {screen_games} games per pairing; intervals are 95 % Bonferroni-simultaneous over "
             "the lever's figures, p Holm-corrected over the "
             f"levers. Data files the env reads: {', '.join(files) or '(none)'}.", "", "## Schedule (successive halving)", "",
             "| round | levers | games per pairing | games played |", "|---|---|---|---|"]
    lines += [f"| {i} | {r.levers} | {r.games_per_pair} | {r.played} |" for i, r in enumerate(rounds)]
    lines += ["", f"## Top {top} levers", "",
              "| rank | lever | round | effect figure | move [interval] | first mover | most moved matchup |",
              "|---|---|---|---|---|---|---|"]
    for row in rows[:top]:
        record = dict(zip(header, row, strict=True))
        if not record["effect_figure"]:
            continue
        move = f"{record['effect_delta']} [{record['effect_low']}, {record['effect_high']}]"
        first = (f"{record['first_mover_delta']} [{record['first_mover_low']}, {record['first_mover_high']}]"
                 if record["first_mover_delta"] != "" else "")
        matchup = (f"{escape_markdown(record['matchup'])}: {record['matchup_delta']} [{record['matchup_low']}, "
                   f"{record['matchup_high']}]" if record["matchup"] else "")
        lines.append(f"| {record['rank']} | {code_span(record['lever'])} | {record['round']} "
                     f"| {escape_markdown(record['effect_figure'])} "
                     f"| {move} | {first} | {matchup} |")
    lines += _loadout_sections(levers, tables, rank, max(loadout_top, LOADOUT_TOP), loadout_top, keep_own)
    lines += list(peers)
    lines += ["", f"{len(skipped)} levers not played (the data schema refused the nudge): see the `status` "
              "column of levers.csv.", ""]
    report = out / "levers.md"
    report.write_text("\n".join(lines))
    return report


def _loadout_sections(levers: Sequence[Lever], tables: Sequence[str], rank: str, top: int,
                      kept: int, keep_own: Sequence[str] = ()) -> list[str]:
    """Each loadout's table: its top ``top`` levers, then its top ``top`` own levers not among them (every own lever
    for a loadout of ``keep_own``: all of them played every round)."""
    if not tables:
        return []
    size = "over its standard error" if rank == "z" else "raw"
    lines = ["", "## Per-loadout tables", "",
             f"Each loadout's levers ranked by the move of its score ({size}; round reached first), then its best "
             "**own** levers (those editing the loadout's own weapon, archetype, armour or stance: the numbers a "
             "designer changes on that loadout alone). "
             + (f"The halving kept each table's top {kept} and top {kept} own levers alive to the last round."
                if kept else "The halving was the field's alone: a table's leaders may have been dropped early.")
             + (f" Every own lever of {', '.join(map(escape_markdown, keep_own))} played every round (focused: its own levers are "
                "ranked on equal games), except those whose screen games were all played exactly as the base's "
                "(inert, `games_changed` 0: a number no agent's decision reached; they stop there)."
                if keep_own else "")]
    for name in tables:
        table = loadout_table(levers, name, rank)
        own = loadout_table(levers, name, rank, own=True)
        leaders = {id(lever) for lever in table[:top]}
        shown_levers = table[:top] + [lever for lever in (own if name in keep_own else own[:top])
                                      if id(lever) not in leaders]
        columns = f"| place | own place | lever | {escape_markdown(name)}'s score [interval] | games per pairing |"
        lines += ["", f"### {escape_markdown(name)}", "", columns, "|---|---|---|---|---|"]
        places = {id(lever): place for place, lever in enumerate(table, 1)}
        own_places = {id(lever): place for place, lever in enumerate(own, 1)}
        for lever in shown_levers:
            move = lever.on(name)
            if move is not None:  # always: a table holds only levers with a move of its loadout's score
                lines.append(f"| {places[id(lever)]} | {own_places.get(id(lever), '')} | {code_span(lever.name)} "
                             f"| {move.result.delta:+.4f} [{move.result.low:+.4f}, {move.result.high:+.4f}] "
                             f"| {lever.games_per_pair} |")
    return lines


def field_rank(levers: Sequence[Lever], file: str, item: str, name: str) -> int | None:
    """Where the field ``file: item / name`` ranks among the distinct fields of ``levers`` (ranked; a field's
    place is its best lever's), 1-based; None when no played lever nudges it."""
    fields: list[tuple[str, str, str]] = []
    for lever in levers:
        key = (lever.change.file, lever.change.item, lever.change.field)
        if lever.shifts and key not in fields:
            fields.append(key)
    return fields.index((file, item, name)) + 1 if (file, item, name) in fields else None


__all__ = ["COLUMNS", "FINALISTS", "LOADOUT_TOP", "Lever", "RANKINGS", "Round", "SCREEN_GAMES", "check_variants_load",
           "field_rank", "halving_sizes", "kept_for_tables", "kept_own", "loadout_table", "loadouts_study",
           "make_levers", "plan", "ranking", "read_files", "round_games", "run_levers", "study_outliers", "scheduled_records", "write_levers"]
