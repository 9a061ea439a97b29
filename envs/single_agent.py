"""A Gymnasium view of one seat of an AEC env (an issoku env or any classic-convention PettingZoo
env), for training.

The learner plays one seat; a given opponent policy ``(observation, action_mask) -> action`` plays
every other seat inside ``step``, so the learner only ever sees its own decisions. This is what
sb3-contrib's ``MaskablePPO`` (and any single-agent masked learner) trains on:

* observation: the learner's float32 observation vector (``Box`` of the ruleset's schema);
* ``action_masks()``: the learner's legal actions as a bool vector (the method MaskablePPO calls);
  the same mask is in ``info["action_mask"]``, beside ``info["decision_kind"]``;
* reward: the learner's reward accumulated over its action and the opponents' replies (the AEC
  ``_cumulative_rewards`` that ``last()`` would show it), so the terminal ±1 reaches the learner even
  when an opponent's move ends the fight. In a team fight a learner whose fighter falls stays in the
  episode while its side fights on (issoku envs keep a fallen agent until the end) and is paid its
  side's result: the opponents play the rest of the fight inside the step that saw it fall;
* terminated / truncated: the learner's own flags;
* seat: ``learner_seat`` fixed, or (None, the default) drawn on each ``reset`` from the env's seeded
  ``np_random`` so that one seed fixes the seat and the fight, and training sees both sides.

Randomness: ``reset(seed)`` seeds ``np_random`` (Gymnasium's convention); each fight's seed and seat
are drawn from it, so ``reset(seed=s)`` then unseeded resets replay the same sequence of fights.
An opponent with randomness of its own should have a ``seed(seed)`` method (as
``issoku.agents.RandomLegal`` has): the wrapper calls it on every reset with a seed drawn from
``np_random``, so that one reset seed fixes the opponent's choices too.

Illegal learner actions follow the wrapped env's ``illegal_action`` policy: the default
``"terminate"`` ends the episode with ``illegal_reward`` for the learner (what unmasked samplers such as
Gymnasium's and SB3's env checkers need); ``"raise"`` is for development.

If the opponents end the fight (or eliminate the learner) before the learner's first decision, that
fight is skipped and the next seed drawn: a Gymnasium episode must start with a decision to make.

Only the public AEC API is used (``observe``, ``agent_selection``, ``terminations``, ``truncations``,
``_cumulative_rewards`` — what ``last()`` reads), so any env whose observations are
``{"observation", "action_mask"}`` works, PettingZoo's classic games included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pettingzoo import AECEnv

OpponentPolicy = Callable[[np.ndarray, np.ndarray], int]
"""``(observation, action_mask) -> action``: the shape of ``issoku.agents.Policy`` (envs cannot import agents)."""

MAX_SKIPPED_FIGHTS = 100


class SingleAgentEnv(gymnasium.Env):
    """The learner's seat of ``env`` as a Gymnasium env; the other seats are played by ``opponent``."""

    def __init__(self, env: AECEnv, opponent: OpponentPolicy, learner_seat: int | None = None) -> None:
        agents = list(env.possible_agents)
        if learner_seat is not None and not 0 <= learner_seat < len(agents):
            raise ValueError(f"learner_seat must be in 0..{len(agents) - 1} or None, not {learner_seat}")
        first = agents[0]
        self.observation_space = env.observation_space(first)["observation"]
        self.action_space: spaces.Discrete = spaces.Discrete(env.action_space(first).n)
        for agent in agents[1:]:
            if (env.action_space(agent).n != self.action_space.n
                    or env.observation_space(agent)["observation"] != self.observation_space):
                raise ValueError(f"one learner for every seat needs the seats to share their spaces; {agent!r} differs")
        self.env = env
        self.opponent = opponent
        self.fixed_seat = learner_seat
        self.metadata = {"render_modes": env.metadata.get("render_modes", []), "name": str(env)}
        self.render_mode = getattr(env, "render_mode", None)
        self.learner: str = first
        self.learner_seat: int = 0

    def set_opponent(self, opponent: OpponentPolicy) -> None:
        """Swap the opponent policy (self-play snapshots); takes effect at the opponents' next move
        (and is seeded from the next reset on)."""
        self.opponent = opponent

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new fight at the learner's first decision."""
        super().reset(seed=seed)
        env = self.env
        for _ in range(MAX_SKIPPED_FIGHTS):
            fight_seed = int(self.np_random.integers(2**63 - 1))
            seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(len(env.possible_agents)))
            self.learner_seat = seat
            self.learner = env.possible_agents[seat]
            env.reset(seed=fight_seed, options=options)
            self._seed_opponent()
            self._play_opponents()
            if not self._learner_done():
                return self._seen()
        raise RuntimeError(f"the opponents ended {MAX_SKIPPED_FIGHTS} fights in a row before the learner decided")

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action, then the opponents' moves up to the learner's next decision or the end."""
        env = self.env
        env.step(int(action))
        self._play_opponents()
        learner = self.learner
        reward = float(env._cumulative_rewards[learner])
        observation, info = self._seen()
        return observation, reward, bool(env.terminations[learner]), bool(env.truncations[learner]), info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (all False once the learner is done)."""
        return self.env.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The wrapped env's picture (``render_mode`` is the wrapped env's)."""
        return self.env.render()

    def close(self) -> None:
        """Close the wrapped env."""
        self.env.close()

    # -- internals ----------------------------------------------------------------------------------

    def _play_opponents(self) -> None:
        """Step every other seat (and every leaving agent) until the learner decides or is done."""
        env = self.env
        learner = self.learner
        terminations, truncations = env.terminations, env.truncations
        opponent = self.opponent
        while not (terminations[learner] or truncations[learner]):
            agent = env.agent_selection
            if agent == learner:
                return
            if terminations[agent] or truncations[agent]:
                env.step(None)
                continue
            seen = env.observe(agent)
            env.step(opponent(seen["observation"], seen["action_mask"]))

    def _seed_opponent(self) -> None:
        reseed = getattr(self.opponent, "seed", None)
        if callable(reseed):
            reseed(int(self.np_random.integers(2**63 - 1)))
        watch = getattr(self.opponent, "watch", None)
        if getattr(self.opponent, "reads_state", False) and watch is not None:
            # an opponent that searches the game state (issoku.agents.state_reading.watch_state) reads this fight's
            watch(lambda: self.env.unwrapped.game_state)

    def _learner_done(self) -> bool:
        return self.env.terminations[self.learner] or self.env.truncations[self.learner]

    def _seen(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info, from one ``observe`` (an observation is the costly part)."""
        seen = self.env.observe(self.learner)
        # A copy: issoku envs share read-only masks between steps, and a Gymnasium info must be new data.
        return seen["observation"], {"action_mask": np.array(seen["action_mask"], dtype=np.int8),
                                     "decision_kind": self.env.infos[self.learner].get("decision_kind", -1),
                                     "learner": self.learner, "learner_seat": self.learner_seat}


class MaskedWrapper(gymnasium.Wrapper):
    """A wrapper of the learner's env (a :class:`SingleAgentEnv`, or another such wrapper) through which
    MaskablePPO reads the legal actions: ``action_masks`` is the wrapped env's unless a subclass narrows it.

    Why a class: training stacks reward and mask wrappers on the seat env, and each must pass ``action_masks``
    on; written once here, with the wrapped env typed as one that has it.
    """

    def __init__(self, env: SingleAgentEnv | MaskedWrapper) -> None:
        super().__init__(env)
        self.masked = env
        """The wrapped env (``self.env``), typed as one that answers ``action_masks``."""

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as bools (the wrapped env's)."""
        return self.masked.action_masks()
