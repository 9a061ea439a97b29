"""Round-robin tournaments between named policies, over loadouts, as resumable independent jobs.

A tournament is data (:class:`Tournament`): the env factory, the policies, the loadouts (env keyword
arguments) and how many games each pair plays. :func:`schedule` turns it into match specs, each with
its :func:`~issoku.evaluation.games.records.match_key`; :func:`make_jobs` drops the keys the store already
holds and cuts the rest into batches; :func:`run_job` plays one batch anywhere (it needs only
picklable, importable factories) and returns records; :func:`run_tournament` runs the jobs on an execution
backend (:mod:`issoku.common.backend`: the local process pool, or Ray) with a progress bar and stores each
finished batch in one transaction.

Seeds and seats: game ``g`` of a pair uses seed ``base_seed + g // 2``; odd games swap the seats, so
each seed is played from both sides (paired design: the luck of the seed cancels between the pair).
Every pair in a loadout shares the same seeds (common random numbers across pairs). A policy against
itself has no seats to swap, so its game ``g`` uses seed ``base_seed + g`` (a loadout grid swaps the
loadouts instead).

Team fights (a 2v2 skirmish): one policy plays every member of a team, through
:class:`~issoku.envs.teams.TeamView`, so records and analyses stay two-seat (``team_0``, ``team_1``).
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pettingzoo import AECEnv
from tqdm import tqdm

from issoku.agents.policy import Policy
from issoku.evaluation.games.match import (DEFAULT_MAX_DECISIONS, MatchGame, env_id, lockstep_width, play_matches,
                                     rules_fingerprint)
from issoku.evaluation.games.records import MatchRecord, match_key
from issoku.evaluation.games.store import MatchStore
from issoku.envs.teams import as_two_seats
from issoku.common.backend import ENV_FACTORY, Workers, backend_of

EnvFactory = Callable[..., AECEnv]
PolicyFactory = Callable[..., Policy]


@dataclass(frozen=True)
class PolicySpec:
    """A named policy: ``factory(seed=seed)`` builds a fresh instance for each game.

    That is the agents registry's convention, so registered scripted agents plug in as they are.

    ``fingerprint`` identifies the version (a checkpoint digest, say): it is part of every match key,
    so retraining a policy under the same name never reuses its old games.
    """

    name: str
    factory: PolicyFactory
    fingerprint: str = ""


@dataclass(frozen=True)
class Loadout:
    """A named env configuration (keyword arguments for the env factory).

    ``seat_labels`` names what each seat fields (e.g. ``("katana", "yari")``), in ``possible_agents``
    order; loadout matrices (weapon against weapon) group games by these labels.
    """

    name: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    seat_labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tournament:
    """Every pair of ``policies`` plays ``games_per_pair`` games in each loadout.

    ``mirrors`` adds each policy against itself (what a loadout study with one policy needs).
    ``pairings`` replaces the round robin by an explicit list of pairs (a benchmark plays one
    candidate against each reference, not the references among themselves).
    """

    env_factory: EnvFactory
    policies: tuple[PolicySpec, ...]
    loadouts: tuple[Loadout, ...] = (Loadout("default"),)
    games_per_pair: int = 20
    base_seed: int = 0
    mirrors: bool = False
    max_decisions: int = DEFAULT_MAX_DECISIONS
    pairings: tuple[tuple[str, str], ...] | None = None

    def __post_init__(self) -> None:
        names = [p.name for p in self.policies]
        if len(set(names)) != len(names):
            raise ValueError(f"policy names must be unique: {names}")
        if len({lo.name for lo in self.loadouts}) != len(self.loadouts):
            raise ValueError("loadout names must be unique")
        if self.games_per_pair < 1:
            raise ValueError("games_per_pair must be at least 1")
        unknown = {name for pair in self.pairings or () for name in pair} - set(names)
        if unknown:
            raise ValueError(f"pairings name unknown policies: {sorted(unknown)}")

    def pairs(self) -> list[tuple[str, str]]:
        """The policy pairings, each once (the explicit ``pairings``, else the round robin in given order)."""
        if self.pairings is not None:
            return list(self.pairings)
        names = [p.name for p in self.policies]
        combos = itertools.combinations_with_replacement if self.mirrors else itertools.combinations
        return list(combos(names, 2))


@dataclass(frozen=True)
class MatchSpec:
    """One scheduled game: its key, seed, and the policy name at each seat."""

    key: str
    seed: int
    policies: tuple[str, str]


@dataclass(frozen=True)
class Job:
    """An independent batch of games: everything a worker needs, picklable. ``matches`` are games in ``loadout``;
    ``more`` holds the batch's games in other loadouts, each loadout's in a run (see :func:`iter_jobs`)."""

    env_factory: EnvFactory = field(metadata=ENV_FACTORY)
    loadout: Loadout
    policies: tuple[PolicySpec, ...]
    matches: tuple[MatchSpec, ...]
    max_decisions: int
    more: tuple[tuple[Loadout, tuple[MatchSpec, ...]], ...] = ()

    def parts(self) -> tuple[tuple[Loadout, tuple[MatchSpec, ...]], ...]:
        """Every loadout's run of games, in the job's order."""
        return ((self.loadout, self.matches), *self.more)

    @property
    def size(self) -> int:
        """How many games the job plays."""
        return len(self.matches) + sum(len(matches) for _, matches in self.more)


def _env_identity(factory: EnvFactory, loadout: Loadout) -> tuple[str, str, int]:
    """``(env id, rules fingerprint, number of seats)`` of the env a loadout builds (teams count as seats)."""
    env = as_two_seats(factory(**loadout.kwargs))
    try:
        return env_id(env), rules_fingerprint(env), len(env.possible_agents)
    finally:
        env.close()


def schedule(tournament: Tournament) -> list[tuple[Loadout, MatchSpec]]:
    """Every game of the tournament, keyed, as a list (see :func:`iter_schedule`)."""
    return list(iter_schedule(tournament))


def scheduled_count(tournament: Tournament) -> int:
    """How many games the tournament schedules, without building the schedule."""
    return len(tournament.loadouts) * len(tournament.pairs()) * tournament.games_per_pair


def iter_schedule(tournament: Tournament) -> Iterator[tuple[Loadout, MatchSpec]]:
    """Every game of the tournament, keyed, generated lazily (a billion-game study costs no memory up front);
    builds one env per loadout to read its id and rules fingerprint."""
    specs = {p.name: p for p in tournament.policies}
    for loadout in tournament.loadouts:
        env_name, fingerprint, seats = _env_identity(tournament.env_factory, loadout)
        if loadout.seat_labels and len(loadout.seat_labels) != seats:
            raise ValueError(f"loadout {loadout.name!r}: {len(loadout.seat_labels)} seat labels for {seats} seats")
        for a, b in tournament.pairs():
            for game in range(tournament.games_per_pair):
                seats_order = (a, b) if game % 2 == 0 else (b, a)
                seed = tournament.base_seed + (game if a == b else game // 2)
                key = match_key(env_name, fingerprint, loadout.name, loadout.kwargs, seats_order,
                                tuple(specs[name].fingerprint for name in seats_order), seed)
                yield loadout, MatchSpec(key, seed, seats_order)


def make_jobs(tournament: Tournament, scheduled: Iterable[tuple[Loadout, MatchSpec]],
              stored_keys: Iterable[str] = (), batch_size: int = 16) -> list[Job]:
    """The ``scheduled`` games not yet stored, in batches of at most ``batch_size`` games, in schedule order."""
    return list(iter_jobs(tournament, scheduled, stored_keys, batch_size))


def iter_jobs(tournament: Tournament, scheduled: Iterable[tuple[Loadout, MatchSpec]],
              stored_keys: Iterable[str] = (), batch_size: int = 16) -> Iterator[Job]:
    """:func:`make_jobs` lazily: batches are yielded as the schedule is generated (it comes loadout by loadout).

    A batch runs on across loadouts (a job holds each loadout's run of its games: :meth:`Job.parts`) rather than
    stopping at each loadout's last game: a learned policy's decisions share forward passes only within a job,
    and a study with few games per loadout (a lever sweep's screen: 2 games per pairing, one pairing per
    loadout) would otherwise batch 2 games at a time."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}")
    stored = set(stored_keys)

    def batch(games: list[tuple[Loadout, MatchSpec]]) -> Job:
        parts = [(loadout, tuple(spec for _, spec in run))
                 for loadout, run in itertools.groupby(games, key=lambda game: game[0])]
        (loadout, matches), *more = parts
        return Job(tournament.env_factory, loadout, tournament.policies, matches, tournament.max_decisions,
                   tuple(more))

    pending: list[tuple[Loadout, MatchSpec]] = []
    for loadout, spec in scheduled:
        if spec.key in stored:
            continue
        pending.append((loadout, spec))
        if len(pending) == batch_size:
            yield batch(pending)
            pending = []
    if pending:
        yield batch(pending)


def policy_seed(match_seed: int, seat: int) -> int:
    """The seed a seat's policy gets in a game: distinct per seat, fixed by the game's seed."""
    return match_seed * 2 + seat


def make_seat_policy(spec: PolicySpec, seed: int, env: AECEnv, seat_label: str = "") -> Policy:
    """A fresh policy for one seat of one game.

    A factory with a ``ruleset`` parameter (a scripted agent built for one ruleset, reading its
    action names and observation schema) gets the env's ruleset, so it follows each loadout's rules data;
    one with a ``seat_label`` parameter (a loadout grid's per-loadout agents) gets what the seat fields.
    """
    extra: dict[str, Any] = {}
    if factory_takes(spec.factory, "ruleset"):
        extra["ruleset"] = getattr(env.unwrapped, "ruleset", None)
    if factory_takes(spec.factory, "seat_label"):
        extra["seat_label"] = seat_label
    return spec.factory(seed=seed, **extra)


def factory_takes(factory: Callable[..., Policy], parameter: str) -> bool:
    """Whether a policy factory takes ``parameter`` (``ruleset``, ``seat_label``): the convention by which a factory
    asks for what only the game knows."""
    try:
        return _takes_parameter(factory, parameter)
    except TypeError:  # an unhashable factory: read its signature every time
        return _takes_parameter.__wrapped__(factory, parameter)


@functools.lru_cache(maxsize=1024)
def _takes_parameter(factory: Callable[..., Policy], parameter: str) -> bool:
    """Whether a policy factory takes ``parameter`` (its signature read once per factory, not at every seat
    of every game: reading it costs about as much as a decision)."""
    return parameter in inspect.signature(factory).parameters


def run_job(job: Job, width: int | None = None) -> list[MatchRecord]:
    """Play a batch of games and return their records, in the job's order (runs in a worker process).

    The games run in lockstep (:func:`~issoku.evaluation.games.match.play_matches`), each on an env of its own
    loadout, on as many env instances as :func:`~issoku.evaluation.games.match.lockstep_width` asks for: when a
    learned policy plays (its decisions share forward passes, across the job's loadouts too), up to that
    width per loadout; otherwise one env per loadout, its games one at a time, loadout after loadout.
    ``width`` caps it (1: one game at a time, the benchmark's baseline). The records are the same at any width.
    """
    specs = {p.name: p for p in job.policies}
    envs: dict[str, list[AECEnv]] = {}
    try:
        games: list[MatchGame] = []
        for loadout, matches in job.parts():
            env = envs.setdefault(loadout.name, [as_two_seats(job.env_factory(**loadout.kwargs))])[0]
            labels = loadout.seat_labels
            games += [MatchGame(tuple(make_seat_policy(specs[name], policy_seed(match.seed, seat), env,
                                                       labels[seat] if labels else "")
                                      for seat, name in enumerate(match.policies)),
                                match.seed, match.key, loadout.name, loadout.kwargs, match.policies,
                                loadout.seat_labels or None, job.max_decisions)
                      for match in matches]
        most = lockstep_width(games, width)
        if most == 1:  # one game at a time: each loadout's run on its one env, in the job's order
            records: list[MatchRecord] = []
            start = 0
            for loadout, matches in job.parts():
                records += play_matches(envs[loadout.name], games[start:start + len(matches)])
                start += len(matches)
            return records
        for loadout, matches in job.parts():
            pool = envs[loadout.name]
            pool += [as_two_seats(job.env_factory(**loadout.kwargs))
                     for _ in range(min(len(matches), most) - len(pool))]
        return play_matches(envs, games)
    finally:
        for pool in envs.values():
            for env in pool:
                env.close()


@dataclass(frozen=True)
class TournamentRun:
    """What one call of :func:`run_tournament` did."""

    scheduled: int
    already_stored: int
    played: int
    skipped: int = 0
    """Games a sequential run (:mod:`issoku.evaluation.games.sequential_play`) left unplayed: their cells were decided."""


def run_tournament(tournament: Tournament, store: MatchStore, workers: Workers = None, batch_size: int = 16,
                   progress: bool = True, scheduled: Sequence[tuple[Loadout, MatchSpec]] | None = None) -> TournamentRun:
    """Play every game of ``tournament`` not yet in ``store`` and store it; safe to kill and rerun.

    ``workers=0`` plays in this process; otherwise a process pool of ``workers`` processes (default:
    one per CPU), or a :class:`~issoku.common.backend.Backend` (Ray). Workers return records; only
    this process writes the store, each finished batch committed at once, so a killed run loses at most
    the batches in flight. ``scheduled`` plays only those games of the tournament's schedule (a sequential
    run's round); default: all of them.
    """
    return _run([(tournament, scheduled)], store, workers, batch_size, progress)[0]


def run_tournaments(tournaments: Sequence[Tournament], store: MatchStore, workers: Workers = None,
                    batch_size: int = 16, progress: bool = True) -> list[TournamentRun]:
    """:func:`run_tournament` for several tournaments at once, their jobs through one pool, in order.

    Why: a lever sweep's round is dozens of small tournaments (the base and each lever's variant, a hundred
    games each). Played one by one, each starts its own pool of fresh workers and ends with all but one
    worker idle while its last batch finishes; as one stream of jobs, the workers stay busy from the round's
    first batch to its last. What is played and stored is the same.
    """
    return _run([(tournament, None) for tournament in tournaments], store, workers, batch_size, progress)


def progress_label(tournaments: Sequence[Tournament], most: int = 48) -> str:
    """What a progress bar is playing, in a few words: the env, the policies (their names when one or two, else
    how many) and the loadouts (``breath_duel_v0: ma_heuristic, 30 loadouts``), cut to ``most`` characters.

    Why: a report plays several studies one after another, and a bar that only says "tournament" leaves the
    user guessing which one is slow."""
    envs = sorted({getattr(t.env_factory, "__module__", "").rpartition(".")[2] for t in tournaments} - {""})
    names = list(dict.fromkeys(spec.name for t in tournaments for spec in t.policies))
    loadouts = len({loadout.name for t in tournaments for loadout in t.loadouts})
    what = (", ".join(names) if len(names) <= 2 else f"{len(names)} policies") \
        + (f", {loadouts} loadouts" if loadouts > 1 else "")
    label = f"{'+'.join(envs)}: {what}" if envs else what
    return label if len(label) <= most else label[:most - 1] + "…"


def _run(parts: Sequence[tuple[Tournament, Sequence[tuple[Loadout, MatchSpec]] | None]], store: MatchStore,
         workers: Workers, batch_size: int, progress: bool) -> list[TournamentRun]:
    totals = [scheduled_count(tournament) if scheduled is None else len(scheduled) for tournament, scheduled in parts]
    stored = store.keys()
    pending, played = [0] * len(parts), [0] * len(parts)
    owner: dict[int, int] = {}  # id(job) -> its tournament's index, while the job is in flight

    def jobs() -> Iterator[Job]:
        for index, (tournament, scheduled) in enumerate(parts):
            games = iter_schedule(tournament) if scheduled is None else iter(scheduled)
            for job in iter_jobs(tournament, games, stored, batch_size):
                pending[index] += job.size
                owner[id(job)] = index
                yield job

    total = sum(totals)
    with tqdm(total=total, unit="game", desc=progress_label([tournament for tournament, _ in parts]),
              disable=not progress) as bar:
        for job, records in backend_of(workers, most=total).map_unordered(run_job, jobs()):
            played[owner.pop(id(job))] += store.insert(records)
            bar.update(job.size)
        bar.update(total - sum(pending))
    return [TournamentRun(scheduled=count, already_stored=count - waiting, played=done)
            for count, waiting, done in zip(totals, pending, played)]
