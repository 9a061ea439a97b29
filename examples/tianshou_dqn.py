"""Tianshou: an issoku env through ``tianshou.env.PettingZooEnv``, a masked DQN learner against a
masked random opponent, a short off-policy training run.

    python examples/tianshou_dqn.py [--env breath_duel_v0] [--epochs 1] [--steps 200]

Tianshou's ``PettingZooEnv`` reads the action mask from the observation and hands it to each
algorithm as ``obs.mask``; ``MultiAgentOffPolicyAlgorithm`` dispatches each step to the algorithm of
the agent whose turn it is. A fallen fighter stays in the env until the fight ends, so an episode
lasts the whole fight and every agent is paid its side's result.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from issoku.envs.registry import make_env


def main(env_id: str = "breath_duel_v0", epochs: int = 1, steps: int = 200, seed: int = 0) -> CollectStats:
    """Train the first agent's learner (every other agent plays masked random) for ``epochs`` of
    ``steps`` env steps; returns a test collection's stats (``returns``: one column per agent)."""
    np.random.seed(seed)
    torch.manual_seed(seed)

    def get_env() -> PettingZooEnv:
        return PettingZooEnv(make_env(env_id))

    env = get_env()
    observation_space = env.observation_space.spaces["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=env.action_space.n, hidden_sizes=[64, 64])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                                 eps_training=0.2, eps_inference=0.05),
                  optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, n_step_return_horizon=1, target_update_freq=100)
    opponents = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents[1:]]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *opponents], env=env)

    train_envs = DummyVectorEnv([get_env for _ in range(2)])
    test_envs = DummyVectorEnv([get_env for _ in range(2)])
    train_envs.seed(seed)
    test_envs.seed(seed + 1)
    train_collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(5_000, len(train_envs)),
                                              exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64)
    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector, test_collector=test_collector, max_epochs=epochs, epoch_num_steps=steps,
        collection_step_num_env_steps=10, test_step_num_episodes=2, batch_size=32,
        update_step_num_gradient_steps_per_sample=0.1, show_progress=False,
        multi_agent_return_reduction=lambda returns: returns[:, 0]))
    return test_collector.collect(n_episode=2, reset_before_collect=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="breath_duel_v0")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=200)
    arguments = parser.parse_args()
    stats = main(arguments.env, arguments.epochs, arguments.steps)
    print(f"test episodes: {stats.n_collected_episodes}, learner's mean return {stats.returns[:, 0].mean():+.2f}")
