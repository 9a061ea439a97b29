"""Play one seeded game of any PettingZoo AEC env between policies, and record it.

Works with every env following the PettingZoo classic convention: each observation is a dict with
``"observation"`` and ``"action_mask"``, and a policy maps those two arrays to an action
(:class:`issoku.agents.Policy`). Nothing here knows a ruleset: an env that exposes ``action_names``
(the issoku adapter does) gets its actions recorded by name, others by number; an env whose
``unwrapped.ruleset`` has a ``fingerprint`` gets it recorded, so matches under changed rules data
never mix with older ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from issoku.agents.policy import Policy
from issoku.evaluation.records import MatchRecord, winner_of

DEFAULT_MAX_DECISIONS = 100_000


def env_id(env: AECEnv) -> str:
    """The env's versioned id (``metadata["name"]``, e.g. ``breath_duel_v0``), else its class name."""
    return str(env.metadata.get("name") or type(env.unwrapped).__name__)


def rules_fingerprint(env: AECEnv) -> str:
    """The digest of the rules the env plays (its ruleset's ``fingerprint``), else the env class's full name."""
    ruleset = getattr(env.unwrapped, "ruleset", None)
    fingerprint = getattr(ruleset, "fingerprint", None) or getattr(env.unwrapped, "fingerprint", None)
    if fingerprint:
        return str(fingerprint)
    cls = type(env.unwrapped)
    return f"{cls.__module__}.{cls.__qualname__}"


def action_namer(env: AECEnv):
    """A function from action number to its recorded name (the env's ``action_names`` when it has them)."""
    names = getattr(env.unwrapped, "action_names", None)
    if names is None:
        return str
    names = tuple(names)
    return lambda action: names[action]


def kind_namer(env: AECEnv) -> Callable[[Any], str]:
    """A function from ``infos[agent]["decision_kind"]`` to its recorded name: issoku envs give an index
    into ``metadata["decision_kinds"]`` (−1: none), other envs may give a name or nothing ("")."""
    kinds = tuple(env.unwrapped.metadata.get("decision_kinds", ()))

    def name(kind: Any) -> str:
        if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
            return kinds[kind] if 0 <= kind < len(kinds) else ""
        return str(kind or "")

    return name


def play_match(env: AECEnv, seat_policies: Sequence[Policy], seed: int, *, key: str, loadout: str,
               loadout_kwargs: Mapping[str, Any], policy_names: Sequence[str],
               seat_labels: Sequence[str] | None = None,
               max_decisions: int = DEFAULT_MAX_DECISIONS) -> MatchRecord:
    """Reset ``env`` with ``seed``, let ``seat_policies`` (in ``possible_agents`` order) play it out, record it.

    Returns are the sum of every step's ``env.rewards``, so a seat that loses on the opponent's move
    is counted too. A policy that chooses a masked-out action is a bug, never a result: ValueError. A game still running after ``max_decisions`` is stopped and recorded as truncated.
    """
    agents = list(env.possible_agents)
    if len(seat_policies) != len(agents):
        raise ValueError(f"{len(seat_policies)} policies for {len(agents)} seats")
    seat_of = {agent: seat for seat, agent in enumerate(agents)}
    name_of = action_namer(env)
    kind_of = kind_namer(env)
    env.reset(seed=seed)
    returns = [0.0] * len(agents)
    actions: list[list[str]] = [[] for _ in agents]
    kinds: list[list[str]] = [[] for _ in agents]
    first_seat = None
    truncated = False
    decisions = 0
    for agent in env.agent_iter():
        observation, _, terminated, was_truncated, info = env.last()
        if terminated or was_truncated:
            truncated = truncated or (was_truncated and not terminated)
            action = None
        elif decisions >= max_decisions:
            truncated = True
            break
        else:
            seat = seat_of[agent]
            action = int(seat_policies[seat](observation["observation"], observation["action_mask"]))
            if not 0 <= action < len(observation["action_mask"]) or not observation["action_mask"][action]:
                # the env would end the fight and score it as a loss (its default): a lab must not
                # count a policy's bug as a result
                raise ValueError(f"policy {policy_names[seat]!r} chose a masked-out action {action} for {agent} "
                                 f"(game seed {seed}, decision {decisions + 1})")
            actions[seat].append(name_of(action))
            kinds[seat].append(kind_of(info.get("decision_kind")))
            first_seat = seat if first_seat is None else first_seat
            decisions += 1
        env.step(action)
        for other, reward in env.rewards.items():
            returns[seat_of[other]] += float(reward)
    return MatchRecord(
        key=key, env_id=env_id(env), rules_fingerprint=rules_fingerprint(env), loadout=loadout,
        loadout_kwargs=dict(loadout_kwargs), seat_labels=tuple(seat_labels or ("",) * len(agents)), seed=int(seed),
        agents=tuple(agents), policies=tuple(policy_names), returns=tuple(returns), winner=winner_of(returns),
        first_seat=first_seat, length=decisions, truncated=truncated, actions=tuple(tuple(a) for a in actions),
        kinds=tuple(tuple(k) for k in kinds))
