"""Stable-Baselines3 (sb3-contrib ``MaskablePPO``) on one seat of an issoku env through ``SingleAgentEnv``.

    python examples/sb3_single_agent.py [--env breath_duel_v0] [--steps 2048]

The learner plays one seat (drawn from the reset seed each episode); a random legal opponent plays every
other seat inside ``step``. ``SingleAgentEnv.action_masks()`` is what MaskablePPO calls.
"""

from __future__ import annotations

import argparse

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor

from issoku.agents import RandomLegal
from issoku.envs.registry import make_env
from issoku.envs.single_agent import SingleAgentEnv


def main(env_id: str = "breath_duel_v0", steps: int = 2048, seed: int = 0) -> tuple[float, float]:
    """Train for ``steps`` learner steps; returns the mean and spread of 10 evaluation episodes' returns."""
    env = SingleAgentEnv(make_env(env_id), opponent=RandomLegal(seed=seed))
    model = MaskablePPO("MlpPolicy", env, n_steps=min(steps, 2048), batch_size=64, seed=seed, verbose=0)
    model.learn(steps)
    evaluation_env = Monitor(SingleAgentEnv(make_env(env_id), opponent=RandomLegal(seed=seed + 1)))
    evaluation_env.reset(seed=seed + 1)
    mean, spread = evaluate_policy(model, evaluation_env, n_eval_episodes=10, use_masking=True)
    return float(mean), float(spread)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="breath_duel_v0")
    parser.add_argument("--steps", type=int, default=2048)
    arguments = parser.parse_args()
    mean, spread = main(arguments.env, arguments.steps)
    print(f"learner's mean return over 10 episodes against a random opponent: {mean:+.2f} ± {spread:.2f}")
