"""A fight as frames, decision by decision: what the replay viewer (``issoku view``) shows.

Any env built on :class:`~issoku.envs.adapter.RulesetAECEnv` is traced the same way, with no
ruleset-specific code: before each decision, who decides, what kind of decision, and every legal action by
name; after it, the action taken, the events it produced (each with its rule ID and data), the ruleset's own
text picture (the Ma ladder, the zones, the tempo track...) and every seat's observation unpacked into
its named fields (what each fighter knows: Energy or AP, guard, wounds, stance, distance...).

Frames are built by *replaying* a list of actions from a seed, so a scenario, a seeded duel between
policies and a game from a match store are all traced by one function: the engines are deterministic, so
the same seed and actions give the same fight, event for event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from issoku.envs.adapter import RulesetAECEnv, picture_of

Chooser = Callable[[RulesetAECEnv, str], int]
"""Picks the action of ``agent`` (the env's current agent) from the env as it stands."""


class TraceError(ValueError):
    """A trace that cannot be built: an action list that does not fit the fight, or an unknown action name."""


@dataclass(frozen=True)
class Frame:
    """One step of a fight: the decision (absent in the opening frame), its events, and the state after it."""

    step: int
    agent: str | None
    decision_kind: str | None
    legal: tuple[str, ...]
    action: str | None
    events: tuple[dict[str, Any], ...]
    picture: str | None
    seats: dict[str, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the viewer's data)."""
        return {"step": self.step, "agent": self.agent, "decision_kind": self.decision_kind, "legal": list(self.legal),
                "action": self.action, "events": list(self.events), "picture": self.picture, "seats": self.seats}


@dataclass(frozen=True)
class Trace:
    """A traced fight: the env's name and seed, its frames, and the result."""

    env: str
    seed: int
    agents: tuple[str, ...]
    frames: tuple[Frame, ...]
    returns: dict[str, float]
    terminated: bool
    truncated: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the viewer's data)."""
        return {"env": self.env, "seed": self.seed, "agents": list(self.agents),
                "frames": [frame.to_json() for frame in self.frames], "returns": self.returns,
                "terminated": self.terminated, "truncated": self.truncated}


def _value(vector: np.ndarray) -> float | list[float]:
    values = [round(float(x), 4) for x in vector]
    return values[0] if len(values) == 1 else values


def _seats(env: RulesetAECEnv) -> dict[str, dict[str, Any]]:
    """Every seat's own observation, field by field (what that fighter knows right now)."""
    spec = env.ruleset.observation_spec
    return {agent: {name: _value(part) for name, part in
                    spec.unpack(env.fight.observation(seat)).items()}
            for seat, agent in enumerate(env.possible_agents)}


def _events(env: RulesetAECEnv, start: int) -> tuple[dict[str, Any], ...]:
    return tuple(event.to_dict() for event in env.fight.events.since(start))


def trace(env: RulesetAECEnv, seed: int, choose: Chooser, *, max_steps: int = 10_000,
          options: dict[str, Any] | None = None) -> Trace:
    """Play ``env`` from ``seed`` with ``choose`` picking every decision, recording each step as a :class:`Frame`.

    ``env`` must record events (``record_events=True``). Stops when the fight ends, after ``max_steps``
    decisions, or when ``choose`` raises :class:`StopIteration` (an action list ran out). ``options`` go to
    ``env.reset`` (a scenario's scripted dice).
    """
    env.reset(seed=seed, options=options)
    state = env.fight
    names = env.action_names
    frames = [Frame(0, None, None, (), None, _events(env, 0), picture_of(env.ruleset, state), _seats(env))]
    while env.agents and len(frames) <= max_steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        legal = tuple(names[action] for action in np.flatnonzero(env.observe(agent)["action_mask"]))
        kind = state.decision_kind()
        try:
            action = choose(env, agent)
        except StopIteration:
            break
        start = len(state.events)
        env.step(action)
        frames.append(Frame(len(frames), agent, kind, legal, names[action], _events(env, start),
                            picture_of(env.ruleset, state), _seats(env)))
    returns = state.returns()
    return Trace(env.metadata["name"], seed, tuple(env.possible_agents), tuple(frames),
                 {agent: float(returns[seat]) for seat, agent in enumerate(env.possible_agents)},
                 state.is_terminal(), state.is_truncated())


def replaying(actions: Sequence[int]) -> Chooser:
    """A chooser that plays ``actions`` in order (any seat), then stops the trace."""
    queue = iter(actions)

    def choose(env: RulesetAECEnv, agent: str) -> int:
        return next(queue)

    return choose


def replaying_per_seat(actions: dict[str, Sequence[str]], seat_of: dict[str, str] | None = None) -> Chooser:
    """A chooser that plays each seat's own action names in order (a match record keeps them per seat).

    ``seat_of`` maps the env's agents onto the record's seats when they differ: a team fight stored as two
    seats (``team_0``, ``team_1``: :mod:`issoku.envs.teams`) keeps each team's decisions in the order its
    members made them."""
    queues = {seat: iter(names) for seat, names in actions.items()}

    def choose(env: RulesetAECEnv, agent: str) -> int:
        name = next(queues[seat_of[agent] if seat_of else agent])
        try:
            return env.action_id(name)
        except KeyError:
            raise TraceError(f"{agent} played {name!r}, which {env.metadata['name']} has no action for") from None

    return choose


def policies_choose(policies: Mapping[str, Callable[[np.ndarray, np.ndarray], int]]) -> Chooser:
    """A chooser that asks each agent's policy ``(observation, action_mask) -> action``."""

    def choose(env: RulesetAECEnv, agent: str) -> int:
        seen = env.observe(agent)
        return int(policies[agent](seen["observation"], seen["action_mask"]))

    return choose
