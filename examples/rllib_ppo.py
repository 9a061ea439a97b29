"""RLlib: an issoku env through ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``, PPO with RLlib's
action-masking RL module, one shared policy for every seat, a few training iterations.

    bash scripts/rllib_venv.sh && .venv-rllib/bin/python examples/rllib_ppo.py [--env breath_duel_v0 ...] [--iterations 1]

RLlib pins gymnasium 1.2.2, so it runs in a virtualenv of its own (``scripts/rllib_venv.sh`` builds
``.venv-rllib`` once). RLlib's ``ActionMaskingTorchRLModule`` reads a ``Dict`` observation with the keys
``"observations"`` and ``"action_mask"``; issoku's (PettingZoo classic) key is ``"observation"``, so the wrapper
issoku ships for it, ``issoku.envs.rllib_keys.RLlibObservationKeys``, renames it. Illegal actions cannot be sampled (the module masks the logits);
RLlib's env pre-check, which samples unmasked actions, passes because the env ends the fight on an
illegal action by default instead of raising.
"""

from __future__ import annotations

import argparse
import math

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.rllib.utils.pre_checks.env import check_multiagent_environments
from ray.tune.registry import register_env

from issoku.envs.registry import make_env
from issoku.envs.rllib_keys import RLlibObservationKeys


def make_rllib_env(config: dict) -> PettingZooEnv:
    return PettingZooEnv(RLlibObservationKeys(make_env(config.get("env_id", "breath_duel_v0"))))


def train(env_id: str = "breath_duel_v0", iterations: int = 1, batch: int = 256, seed: int = 0) -> list[float]:
    """Train ``iterations`` PPO iterations of ``batch`` env steps in the running Ray session (one session serves
    several envs); returns each iteration's total loss."""
    for _ in range(10):  # RLlib's env pre-check steps a random unmasked action: it must pass every time
        check_multiagent_environments(make_rllib_env({"env_id": env_id}))
    register_env("issoku", make_rllib_env)
    config = (
        PPOConfig()
        .environment("issoku", env_config={"env_id": env_id})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                   model_config={"fcnet_hiddens": [64, 64], "head_fcnet_hiddens": [64]})}))
        .env_runners(num_env_runners=0, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=batch, minibatch_size=64, num_epochs=1)
        .debugging(seed=seed)
    )
    algorithm = config.build_algo()
    losses = []
    try:
        for _ in range(iterations):
            result = algorithm.train()
            losses.append(float(result["learners"]["shared"]["total_loss"]))
    finally:
        algorithm.stop()
    return losses


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", nargs="+", default=["breath_duel_v0"], help="one env id or several, in turn")
    parser.add_argument("--iterations", type=int, default=1)
    parser.add_argument("--batch", type=int, default=256)
    arguments = parser.parse_args()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        for env_id in arguments.env:
            losses = train(env_id, arguments.iterations, arguments.batch, seed=0)
            assert losses and all(math.isfinite(loss) for loss in losses), (env_id, losses)
            for iteration, loss in enumerate(losses, 1):
                print(f"{env_id} iteration {iteration}: PPO total loss {loss:.4f}", flush=True)
    finally:
        ray.shutdown()
