"""What ``issoku view`` traces: a scenario file, a seeded fight between named policies, or a stored game.

Each source becomes an action list replayed from its seed by :func:`issoku.envs.trace.trace`, so the viewer
shows exactly the fight the scenario, the policies or the tournament played.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from issoku.agents.state_reading import watch_state
from issoku.envs.trace import Trace, TraceError, policies_choose, replaying, replaying_per_seat, trace
from issoku.evaluation.games.records import MatchRecord

if TYPE_CHECKING:
    from issoku.evaluation.reports.example_games import Example


def play_scenario(path: Path, *, allow_imports: bool = False) -> Any:
    """A scenario file played as ``issoku replay`` plays it: its script, then its play-out policy.

    The file's env and policy may be import paths only with ``allow_imports`` (a scenario is data)."""
    from issoku.agents.registry import make_policy
    from issoku.envs.scenario import check_scenario_names, load_scenario, play, scenario_env

    spec = load_scenario(path)
    check_scenario_names(spec, str(path), allow_imports=allow_imports)
    env = scenario_env(spec)
    policy = None
    if spec.policy is not None:
        seed = spec.seed if spec.policy_seed is None else spec.policy_seed
        policy = make_policy(spec.policy, seed=seed, ruleset=env.ruleset, allow_imports=allow_imports)
        watch_state(policy, lambda: env.unwrapped.game_state)
    return play(spec, policy, env)


def trace_scenario(path: Path) -> tuple[Trace, str]:
    """A scenario file's fight (as :func:`play_scenario` plays it), and a title."""
    from issoku.envs.scenario import scenario_env

    played = play_scenario(path)
    spec = played.scenario
    fight = trace(scenario_env(spec), spec.seed, replaying([decision.action for decision in played.decisions]),
                  options=spec.reset_options())
    return fight, spec.title or path.stem


def trace_fight(env_id: str, seed: int, agents: Sequence[str], env_kwargs: Mapping[str, Any]) -> tuple[Trace, str]:
    """A seeded fight of ``env_id`` between policies, one per seat (the last repeats), and a title.

    A policy is named as ``head-to-head`` and studies name one (:func:`issoku.evaluation.games.policies.resolve_policy`):
    a registered policy, a checkpoint ``.zip`` or ``shipped:<env>``; a checkpoint of other rules or another
    interface is refused with every difference listed, before anything is played."""
    from issoku.envs.registry import make_env
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits, checkpoint_paths
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.tournament import make_seat_policy

    env = make_env(env_id, **{**env_kwargs, "record_events": True})
    names = [agents[min(seat, len(agents) - 1)] for seat in range(len(env.possible_agents))]
    specs = {name: resolve_policy(name, where=f"--agent {name}") for name in dict.fromkeys(names)}
    for checkpoint in checkpoint_paths(dict.fromkeys(names)):
        check_checkpoint_fits(checkpoint, env, env_id)
    policies = {agent: make_seat_policy(specs[name], seed + seat, env)
                for seat, (agent, name) in enumerate(zip(env.possible_agents, names))}
    for policy in policies.values():
        watch_state(policy, lambda: env.unwrapped.game_state)
    title = f"{env_id} seed {seed}: " + " vs ".join(names)
    return trace(env, seed, policies_choose(policies)), title


def trace_stored(db: Path, key: str) -> tuple[Trace, str]:
    """A game from a match store, replayed from its seed and recorded actions, and a title (:func:`trace_record`)."""
    from issoku.evaluation.games.store import MatchStore

    if not db.is_file():
        raise TraceError(f"--db {db}: no such file")
    with MatchStore(db) as store:
        record = store.record(key)
    if record is None:
        raise TraceError(f"--game {key!r}: no game with that key in {db}")
    return trace_record(record, where=f"--db {db}: game {key!r}")


def trace_record(record: MatchRecord, where: str = "the match store") -> tuple[Trace, str]:
    """A stored game replayed from its seed and recorded actions, and a title.

    Refused (:class:`TraceError`) when the env's rules fingerprint differs from the record's: the same
    actions would be another fight under other rules. A team fight stored as two seats replays each team's
    decisions to its members in turn.
    """
    fight, title, _ = _trace_record(record, where)
    return fight, title


def replayed(record: MatchRecord) -> Trace | None:
    """The stored game replayed (:func:`trace_record`), or None when it cannot be here (another machine's rules, an
    env that is not registered): what the report's analyses that read events use, skipping such games."""
    try:
        return trace_record(record)[0]
    except (TraceError, KeyError, ValueError, TypeError):
        return None


def _trace_record(record: MatchRecord, where: str = "the match store") -> tuple[Trace, str, dict[str, int]]:
    """:func:`trace_record`, and the record's seat of each of the env's agents."""
    from issoku.envs.registry import resolve_env
    from issoku.envs.teams import seat_teams

    # the store is a file: its env id may name a registered env only, never an import path
    env = resolve_env(record.env_id, allow_imports=False, where=where)(
        **{**record.loadout_kwargs, "record_events": True})
    fingerprint = getattr(env.ruleset, "fingerprint", None)
    if fingerprint != record.rules_fingerprint:
        raise TraceError(f"game {record.key!r}: played under rules {record.rules_fingerprint}, the env's rules are "
                         f"now {fingerprint}; the recorded actions would be another fight")
    seat_of = None
    if tuple(record.agents) != tuple(env.possible_agents):
        seat_of = {agent: f"team_{team}" for agent, team in zip(env.possible_agents, seat_teams(env))}
        if set(seat_of.values()) != set(record.agents):
            raise TraceError(f"game {record.key!r}: its seats {list(record.agents)} are neither the env's agents "
                             f"nor its teams")
    fight = trace(env, record.seed, replaying_per_seat(dict(zip(record.agents, record.actions)), seat_of))
    title = f"{record.env_id} {record.loadout}: " + " vs ".join(record.policies) + f" (game {record.key})"
    return fight, title, {agent: record.agents.index(seat_of[agent] if seat_of else agent)
                          for agent in env.possible_agents}


REPLAY_LIMIT = 40
"""At most this many replay pages for one report (each headline links at most three games)."""
_SAFE_KEY = re.compile(r"^[0-9A-Za-z_-]{1,64}$")


@dataclass(frozen=True)
class GameLink:
    """A stored game as the HTML report links it: what it was, and its replay page (relative to the report),
    or why there is none."""

    label: str
    href: str | None
    why: str = ""


def describe(record: MatchRecord) -> str:
    """A game in a few words: who met whom, who won, in how many decisions."""
    sides = [f"{label} ({policy})" if label else policy for label, policy in zip(record.seat_labels, record.policies)]
    result = (f"won by {sides[record.winner]}" if record.winner is not None
              else "cut off, a draw" if record.truncated else "a draw")
    return f"{' vs '.join(sides)}: {result} in {record.length} decisions"


def write_replays(examples: Mapping[str, Sequence[Example]], folder: Path, limit: int = REPLAY_LIMIT,
                  report: Path | None = None) -> dict[str, list[GameLink]]:
    """A viewer page per example game in ``folder`` (one per game however many headlines link it; at most
    ``limit``, the first headlines first), and per headline the links to them, each opening at the example's
    decision when it names one. Each page links back to ``report`` (the ``report.html`` linking them), if given.

    A game that cannot be replayed (an env that is not registered, rules changed since it was stored) is
    listed with the reason. Pages an earlier report wrote there that no headline links now are removed, so
    the folder holds this report's replays only.
    """
    from issoku.envs.viewer import rule_statements

    statements = rule_statements()
    pages: dict[str, tuple[GameLink, dict[tuple[int, int], int]]] = {}
    links: dict[str, list[GameLink]] = {}
    for headline, found in examples.items():
        links[headline] = []
        for example in found:
            record = example.record
            if record.key not in pages:
                full = sum(link.href is not None for link, _ in pages.values()) >= limit
                pages[record.key] = _replay(record, folder, statements, full=full, limit=limit, report=report)
            page, steps = pages[record.key]
            step = (steps.get((example.seat, example.decision))
                    if example.seat is not None and example.decision is not None else None)
            links[headline].append(page if page.href is None or step is None else
                                   GameLink(page.label, f"{page.href}#step={step}"))
    kept = {link.href.rsplit("/", 1)[-1] for link, _ in pages.values() if link.href}
    for old in folder.glob("*.html") if folder.is_dir() else ():
        if old.name not in kept and _SAFE_KEY.match(old.stem):
            old.unlink()
    return links


def _replay(record: MatchRecord, folder: Path, statements: dict[str, str], *, full: bool,
            limit: int, report: Path | None = None) -> tuple[GameLink, dict[tuple[int, int], int]]:
    """Write ``record``'s viewer page into ``folder`` (unless ``full``), linking back to ``report``: its link (or
    why there is none), and the page's step of each ``(seat, decision index)``."""
    from issoku.envs.viewer import write_html

    label = describe(record)
    if full:
        return GameLink(label, None, f"over the report's {limit} replays"), {}
    try:
        fight, title, seat_of = _trace_record(record)
    except (TraceError, KeyError, ValueError, TypeError) as error:
        return GameLink(label, None, " ".join(str(error).split())), {}
    stem = record.key if _SAFE_KEY.match(record.key) else hashlib.sha256(record.key.encode()).hexdigest()[:32]
    write_html(fight, folder / f"{stem}.html", title=title, rules=statements, report=report)
    steps: dict[tuple[int, int], int] = {}
    made = [0] * len(record.agents)
    for frame in fight.frames[1:]:
        seat = seat_of[str(frame.agent)]
        steps[(seat, made[seat])] = frame.step
        made[seat] += 1
    return GameLink(label, f"{folder.name}/{stem}.html"), steps
