"""Policies: callables ``(observation, action_mask) -> action`` usable by envs, wrappers and evaluation alike."""

from issoku.agents.policy import Policy, RandomLegal
from issoku.envs.adapter import legal_mask

__all__ = ["Policy", "RandomLegal", "legal_mask"]
