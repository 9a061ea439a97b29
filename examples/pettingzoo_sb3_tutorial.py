"""PettingZoo's own SB3 tutorial pattern ("SB3: action masking for AEC environments") on an issoku env.

    python examples/pettingzoo_sb3_tutorial.py [--env breath_duel_v0] [--steps 2048]

The tutorial wraps the AEC env in a ``pettingzoo.utils.BaseWrapper`` subclass that turns it into a
single-agent Gymnasium-like env whose ``step`` returns the *next* agent's view (one shared policy plays
every seat: self-play), trains ``MaskablePPO`` behind ``ActionMasker``, then plays the trained policy
against a random agent through the plain AEC loop. Written as in the tutorial; for training on one
seat against a chosen opponent, ``issoku.envs.single_agent.SingleAgentEnv`` is the better tool.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import pettingzoo.utils
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

from issoku.envs.registry import make_env


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The tutorial's wrapper: every seat's decision is one step of a single-agent env."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        current_agent = self.agent_selection
        super().step(action)
        next_agent = self.agent_selection
        return (self.observe(next_agent), self._cumulative_rewards[current_agent],
                self.terminations[current_agent], self.truncations[current_agent], self.infos[current_agent])

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def mask_fn(env: gymnasium.Env) -> np.ndarray:
    return env.action_mask()


def main(env_id: str = "breath_duel_v0", steps: int = 2048, games: int = 10, seed: int = 0) -> dict[str, float]:
    """Train for ``steps``, then play ``games`` AEC games against a random agent; the trained seat's total reward."""
    env = ActionMasker(SB3ActionMaskWrapper(make_env(env_id)), mask_fn)
    env.reset(seed=seed)
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=min(steps, 2048), batch_size=64, seed=seed, verbose=0)
    model.set_random_seed(seed)
    model.learn(total_timesteps=steps)

    aec = make_env(env_id)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for game in range(games):
        aec.reset(seed=seed + game)
        trained = aec.possible_agents[game % len(aec.possible_agents)]
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            totals[agent] += reward
            if termination or truncation:
                aec.step(None)
                continue
            mask = observation["action_mask"]
            if agent == trained:
                # a copy: issoku's masks are read-only, which PyTorch warns about inside predict
                action = int(model.predict(observation["observation"], action_masks=np.array(mask, dtype=bool),
                                           deterministic=True)[0])
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            aec.step(action)
    return totals


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="breath_duel_v0")
    parser.add_argument("--steps", type=int, default=2048)
    arguments = parser.parse_args()
    print("total reward per seat over 10 games (the trained policy alternates seats):",
          main(arguments.env, arguments.steps))
