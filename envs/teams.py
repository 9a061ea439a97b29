"""Two teams as two seats: a team fight (a 2v2 skirmish, say) seen as a two-agent AEC env for tournaments.

Every analysis of the balance lab compares two seats (a policy against a policy). A fight with more
agents on two teams — an issoku env whose ruleset's ``seat_teams`` names two teams — is the same
contest: one policy plays every member of one team. :class:`TeamView` wraps such an env so that
``play_match`` and everything after it see two agents, ``team_0`` and ``team_1``:

* ``agent_selection`` is the team of the member whose decision it is; ``observe`` and ``infos`` are
  that member's, so a policy answers for each member in turn (scripted agents read only the observation);
* members' dead steps (at the end of a fight) are stepped inside the view;
* a team's reward at a step is its members' common non-zero reward (the mean if they differ); issoku
  envs pay every member, the fallen ones too, its side's result, so a team gets +1 / −1 / 0;
* a team is done when all its members are: truncated if any member was, terminated otherwise.

:func:`as_two_seats` leaves a two-agent env as it is, so nothing changes for duels.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv


def seat_teams(env: AECEnv) -> tuple[int, ...]:
    """The team of each agent in ``possible_agents`` order: the ruleset's ``seat_teams``, else one team a seat."""
    teams = getattr(getattr(env.unwrapped, "ruleset", None), "seat_teams", None)
    return tuple(teams) if teams is not None else tuple(range(len(env.possible_agents)))


def as_two_seats(env: AECEnv) -> AECEnv:
    """``env`` itself when it has two agents, a :class:`TeamView` when they form two teams; ValueError otherwise."""
    if len(env.possible_agents) == 2:
        return env
    teams = seat_teams(env)
    if len(set(teams)) != 2:
        raise ValueError(f"a tournament needs two seats or two teams; {env.metadata.get('name') or env} "
                         f"has {len(env.possible_agents)} agents on {len(set(teams))} teams")
    return TeamView(env, teams)


class TeamView(AECEnv):
    """``env``'s agents grouped by ``teams`` (one team number per agent, two teams) into two agents."""

    def __init__(self, env: AECEnv, teams: tuple[int, ...]) -> None:
        super().__init__()
        self.env = env
        order = sorted(set(teams))
        self.possible_agents = [f"team_{team}" for team in order]
        self.members = {name: [agent for agent, team in zip(env.possible_agents, teams) if team == number]
                        for name, number in zip(self.possible_agents, order)}
        self.team_of = {agent: name for name, agents in self.members.items() for agent in agents}
        first = {name: agents[0] for name, agents in self.members.items()}
        self.observation_spaces = {name: env.observation_space(agent) for name, agent in first.items()}
        self.action_spaces = {name: env.action_space(agent) for name, agent in first.items()}
        self.metadata = dict(env.metadata)
        self.render_mode = getattr(env, "render_mode", None)

    @property
    def unwrapped(self) -> AECEnv:
        """The wrapped env's own (its ruleset, action names and fingerprint identify the games)."""
        return self.env.unwrapped

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, int]] = {name: {} for name in self.agents}
        self._advance(dict.fromkeys(self.agents, 0.0))

    def observe(self, agent: str) -> Any:
        """The deciding member's observation when ``agent`` decides, else its first member still present."""
        inner = self.env
        if self.team_of.get(inner.agent_selection) == agent:
            return inner.observe(inner.agent_selection)
        present = [member for member in self.members[agent] if member in inner.agents]
        return inner.observe(present[0] if present else self.members[agent][0])

    def step(self, action: int | None) -> None:
        team = self.agent_selection
        if self.terminations[team] or self.truncations[team]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[team] = 0.0
        gained = dict.fromkeys(self.agents, 0.0)
        self._step_inner(action, gained)
        self._advance(gained)

    def close(self) -> None:
        self.env.close()

    def render(self) -> Any:
        return self.env.render()

    # -- internals ----------------------------------------------------------------------------------

    def _step_inner(self, action: int | None, gained: dict[str, float]) -> None:
        """One step of the wrapped env, its rewards folded into ``gained`` per team."""
        inner = self.env
        inner.step(action)
        for name in gained:
            rewards = [float(inner.rewards[a]) for a in self.members[name] if inner.rewards.get(a)]
            gained[name] += float(np.mean(rewards)) if rewards else 0.0

    def _advance(self, gained: dict[str, float]) -> None:
        """Step members' dead steps while the fight goes on, then publish rewards, flags and who decides."""
        inner = self.env
        while inner.agents and not all(self._member_done(a) for a in inner.agents) \
                and self._member_done(inner.agent_selection):
            self._step_inner(None, gained)
        for name in self.agents:
            self.rewards[name] = gained.get(name, 0.0)
            self._cumulative_rewards[name] += self.rewards[name]
            members = [a for a in self.members[name] if a in inner.agents]
            done = all(self._member_done(a) for a in members)
            self.truncations[name] = done and any(inner.truncations[a] for a in members)
            self.terminations[name] = done and not self.truncations[name]
        deciding = self.team_of[inner.agent_selection] if inner.agents else None
        done_teams = [name for name in self.agents if self.terminations[name] or self.truncations[name]]
        if deciding in self.agents and not (self.terminations[deciding] or self.truncations[deciding]):
            self.agent_selection = deciding
        else:
            self.agent_selection = done_teams[0] if done_teams else self.agents[0]
        if deciding is not None and inner.agents:
            self.infos[deciding] = inner.infos[inner.agent_selection]

    def _member_done(self, agent: str) -> bool:
        return self.env.terminations[agent] or self.env.truncations[agent]
