"""A warm start by imitation: before self-play, the learner's network copies a scripted agent's choices.

A scripted agent reads the position (distance, status, wounds, the declared action) by construction; a
network trained by PPO from scratch against a pool that a fixed order beats can settle on such an order and
never look at its observation (the first shipped agents did: ``issoku.agents.ablation``). With ``imitate`` set,
:func:`imitate` first plays ``imitation_decisions`` decisions of the named scripted agent on the learner's seat
against the run's scripted opponents (drawn uniformly), then fits the policy network to its choices (masked
cross-entropy) and the value network to the discounted returns of those games, for ``imitation_epochs`` passes.
PPO then starts from a network that already plays the teacher's game and improves on it.

The teacher may be a search agent (``one_step``, ``mcts_small``: :mod:`issoku.agents.search`), which decides from
the game state rather than the observation: it is handed the state of the learner's fight
(:func:`issoku.agents.state_reading.watch_state`, as every game loop does), and the network learns to reach its
choices from the observation alone, which is how a learned agent comes to read what the search reads.

The warm start happens once, at the start of a fresh run, before the step-0 checkpoint (so the first pool
snapshot plays the teacher's game); its decisions are not learner steps and do not count in ``total_steps``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from issoku.agents.state_reading import watch_state
from issoku.envs.single_agent import SingleAgentEnv
from issoku.training.config import TrainConfig
from issoku.training.opponents import Opponent, OpponentPool, scripted_policy

IMITATION_SEED = 7_000_001
"""Offset of the teacher's games' seeds from the run's seed (distinct from the training and evaluation seeds)."""
IMITATION_BATCH = 512
"""Minibatch size of the imitation passes."""
IMITATION_LEARNING_RATE = 1e-3
"""Adam step size of the imitation passes (a fresh optimizer: PPO's own keeps its state)."""


def teacher_games(config: TrainConfig, ruleset: Any) -> dict[str, np.ndarray]:
    """The teacher's decisions: ``observations``, ``masks``, ``actions`` and ``returns`` (discounted by
    ``gamma`` from the fight's end, with the training reward) of at least ``imitation_decisions`` decisions."""
    from issoku.training.make_env import make_selfplay_env

    seed = config.seed + IMITATION_SEED
    teacher = scripted_policy(config.imitate, seed, ruleset)
    pool = OpponentPool([Opponent(name, scripted_policy(name, seed + 1 + index, ruleset), source=name)
                         for index, name in enumerate(config.opponents)], power=0.0)
    env = make_selfplay_env(config, pool)
    seat_env = env.unwrapped  # the learner's seat, whose ``env`` is the AEC env being played
    assert isinstance(seat_env, SingleAgentEnv)
    watch_state(teacher, lambda: seat_env.env.unwrapped.game_state)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    observation, _ = env.reset(seed=seed)
    episode_rewards: list[float] = []
    while len(actions) < config.imitation_decisions or episode_rewards:
        mask = env.get_wrapper_attr("action_masks")().astype(bool)
        action = int(teacher(observation, mask))
        observations.append(observation)
        masks.append(mask)
        actions.append(action)
        observation, reward, terminated, truncated, _ = env.step(action)
        episode_rewards.append(float(reward))
        if terminated or truncated:
            returns += _discounted(episode_rewards, config.gamma)
            episode_rewards = []
            observation, _ = env.reset()
    env.close()
    return {"observations": np.asarray(observations, dtype=np.float32), "masks": np.asarray(masks, dtype=bool),
            "actions": np.asarray(actions, dtype=np.int64), "returns": np.asarray(returns, dtype=np.float32)}


def _discounted(rewards: list[float], gamma: float) -> list[float]:
    """The discounted return from each step of one episode."""
    out, running = [], 0.0
    for reward in reversed(rewards):
        running = reward + gamma * running
        out.append(running)
    return out[::-1]


def imitate(model: Any, config: TrainConfig, ruleset: Any) -> dict[str, float]:
    """Fit ``model``'s policy to the teacher's choices and its value to their returns (see the module docstring);
    returns the teacher's decisions, the final pass's mean losses and how often the network now picks the
    teacher's action."""
    import torch

    games = teacher_games(config, ruleset)
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=IMITATION_LEARNING_RATE)
    tensors = {key: torch.as_tensor(value) for key, value in games.items()}
    size = len(games["actions"])
    generator = np.random.default_rng(config.seed + IMITATION_SEED)
    policy.set_training_mode(True)
    for _ in range(config.imitation_epochs):
        policy_losses, value_losses = [], []
        order = generator.permutation(size)
        for start in range(0, size, IMITATION_BATCH):
            batch = torch.as_tensor(order[start:start + IMITATION_BATCH])
            values, log_prob, _ = policy.evaluate_actions(
                tensors["observations"][batch], tensors["actions"][batch], action_masks=tensors["masks"][batch])
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), tensors["returns"][batch])
            optimizer.zero_grad()
            (policy_loss + 0.5 * value_loss).backward()
            optimizer.step()
            policy_losses.append(policy_loss.item())
            value_losses.append(value_loss.item())
    policy.set_training_mode(False)
    with torch.no_grad():
        chosen = policy.get_distribution(tensors["observations"], action_masks=games["masks"]).mode()
    return {"decisions": size, "policy_loss": float(np.mean(policy_losses)), "value_loss": float(np.mean(value_losses)),
            "agreement": float((chosen.numpy() == games["actions"]).mean())}
