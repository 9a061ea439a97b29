"""What ``issoku view`` traces: a scenario file, a seeded fight between named policies, or a stored game.

Each source becomes an action list replayed from its seed by :func:`issoku.envs.trace.trace`, so the viewer
shows exactly the fight the scenario, the policies or the tournament played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from issoku.envs.trace import Trace, TraceError, policies_choose, replaying, replaying_per_seat, trace


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
    """A seeded fight of ``env_id`` between registered policies, one per seat (the last repeats), and a title."""
    from issoku.agents.registry import make_policy
    from issoku.envs.registry import make_env

    env = make_env(env_id, **{**env_kwargs, "record_events": True})
    names = [agents[min(seat, len(agents) - 1)] for seat in range(len(env.possible_agents))]
    policies = {agent: make_policy(name, seed=seed + seat, ruleset=env.ruleset)
                for seat, (agent, name) in enumerate(zip(env.possible_agents, names))}
    title = f"{env_id} seed {seed}: " + " vs ".join(names)
    return trace(env, seed, policies_choose(policies)), title


def trace_stored(db: Path, key: str) -> tuple[Trace, str]:
    """A game from a match store, replayed from its seed and recorded actions, and a title.

    Refused when the store's rules fingerprint differs from the env's now: the same actions would be
    another fight under other rules.
    """
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.store import MatchStore

    if not db.is_file():
        raise TraceError(f"--db {db}: no such file")
    with MatchStore(db) as store:
        record = store.record(key)
    if record is None:
        raise TraceError(f"--game {key!r}: no game with that key in {db}")
    # the store is a file: its env id may name a registered env only, never an import path
    env = resolve_env(record.env_id, allow_imports=False, where=f"--db {db}: game {key!r}")(
        **{**record.loadout_kwargs, "record_events": True})
    fingerprint = getattr(env.ruleset, "fingerprint", None)
    if fingerprint != record.rules_fingerprint:
        raise TraceError(f"--game {key!r}: played under rules {record.rules_fingerprint}, the env's rules are now "
                         f"{fingerprint}; the recorded actions would be another fight")
    fight = trace(env, record.seed, replaying_per_seat(dict(zip(record.agents, record.actions))))
    title = f"{record.env_id} {record.loadout}: " + " vs ".join(record.policies) + f" (game {key})"
    return fight, title
