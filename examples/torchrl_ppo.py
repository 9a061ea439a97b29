"""TorchRL: an issoku env through ``torchrl.envs.PettingZooWrapper``, a masked rollout, a few PPO updates.

    python examples/torchrl_ppo.py [--env breath_duel_v0] [--iterations 3] [--frames 256] [--parallel]

All agents sit in one group with one shared policy. The wrapper reads the action mask from the
observation (``use_mask=True``: in an AEC env only the selected agent's action counts, ``mask`` says
which); the policy samples from a ``MaskedCategorical`` over the legal actions. Rewards and ``done`` are
per agent, so the advantage is computed per agent (GAE) and the clipped PPO loss trains the shared net.

``--parallel`` wraps ``parallel_env(idle_mask="placeholder")`` instead: TorchRL samples every agent's action at
every step there, so each idle agent is given action 0 alone as legal (a placeholder the step ignores, sampled with
probability 1, so it adds no gradient); with the default all-zero masks the masked distribution would be empty.
"""

from __future__ import annotations

import argparse
import importlib

import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.envs import PettingZooWrapper
from torchrl.envs.libs.pettingzoo import MarlGroupMapType
from torchrl.modules import MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss, ValueEstimators

from issoku.envs.registry import make_env

GROUP = "agents"


def main(env_id: str = "breath_duel_v0", iterations: int = 3, frames: int = 256, seed: int = 0,
         parallel: bool = False) -> list[float]:
    """Train for ``iterations`` rollouts of ``frames`` steps; returns the loss of each iteration."""
    torch.manual_seed(seed)
    pettingzoo_env = (importlib.import_module(f"issoku.envs.{env_id}").parallel_env(idle_mask="placeholder")
                      if parallel else make_env(env_id))
    env = PettingZooWrapper(env=pettingzoo_env, use_mask=True, categorical_actions=True, seed=seed,
                            group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    observation_size = env.observation_spec[GROUP, "observation", "observation"].shape[-1]
    num_actions = env.full_action_spec[GROUP, "action"].space.n

    actor_net = TensorDictModule(nn.Sequential(nn.Linear(observation_size, 64), nn.Tanh(), nn.Linear(64, num_actions)),
                                 in_keys=[(GROUP, "observation", "observation")], out_keys=[(GROUP, "logits")])
    policy = ProbabilisticActor(actor_net, in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "action_mask")},
                                out_keys=[(GROUP, "action")], distribution_class=MaskedCategorical,
                                return_log_prob=True, log_prob_key=(GROUP, "sample_log_prob"))
    critic = TensorDictModule(nn.Sequential(nn.Linear(observation_size, 64), nn.Tanh(), nn.Linear(64, 1)),
                              in_keys=[(GROUP, "observation", "observation")], out_keys=[(GROUP, "state_value")])
    loss = ClipPPOLoss(policy, critic, clip_epsilon=0.2, entropy_coeff=0.01)
    loss.set_keys(reward=(GROUP, "reward"), action=(GROUP, "action"), sample_log_prob=(GROUP, "sample_log_prob"),
                  value=(GROUP, "state_value"), done=(GROUP, "done"), terminated=(GROUP, "terminated"))
    loss.make_value_estimator(ValueEstimators.GAE, gamma=0.99, lmbda=0.95)
    optimiser = torch.optim.Adam(loss.parameters(), lr=3e-4)

    losses = []
    for _ in range(iterations):
        with torch.no_grad():
            batch = env.rollout(frames, policy=policy, break_when_any_done=False)
            # GAE reads the next step's done/reward per agent: give the group's flags the reward's shape.
            for key in ("done", "terminated"):
                batch.set(("next", GROUP, key), batch.get(("next", key)).unsqueeze(-1).expand(
                    batch.get(("next", GROUP, "reward")).shape))
            loss.value_estimator(batch, params=loss.critic_network_params, target_params=loss.target_critic_network_params)
        parts = loss(batch)
        total = parts["loss_objective"] + parts["loss_critic"] + parts["loss_entropy"]
        optimiser.zero_grad()
        total.backward()
        optimiser.step()
        losses.append(float(total.detach()))
        legal = batch.get((GROUP, "action_mask")).gather(-1, batch.get((GROUP, "action")).unsqueeze(-1))
        acting = batch.get((GROUP, "mask"))
        assert bool(legal.squeeze(-1)[acting].all()), "the masked policy chose an illegal action"
    env.close()
    return losses


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="breath_duel_v0")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--frames", type=int, default=256)
    parser.add_argument("--parallel", action="store_true", help="wrap parallel_env(idle_mask='placeholder')")
    arguments = parser.parse_args()
    for iteration, value in enumerate(main(arguments.env, arguments.iterations, arguments.frames,
                                           parallel=arguments.parallel), 1):
        print(f"iteration {iteration}: PPO loss {value:.4f}")
