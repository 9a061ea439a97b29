"""PettingZoo environments over the rules engines.

``from issoku.envs import breath_duel_v0; env = breath_duel_v0.env()``; every env is the generic
:class:`~issoku.envs.adapter.RulesetAECEnv` over a ruleset, listed by id in :mod:`issoku.envs.registry`.
"""

from issoku.envs import (
    breath_duel_v0, breath_skirmish_v0, encounter_duel_v0, encounter_skirmish_v0, tempo_duel_v0, tempo_skirmish_v0,
)
from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import EnvOrderError, IllegalActionError
from issoku.envs.registry import env_ids, make_env
from issoku.envs.single_agent import SingleAgentEnv

__all__ = ["EnvOrderError", "IllegalActionError", "RulesetAECEnv", "SingleAgentEnv", "breath_duel_v0",
           "breath_skirmish_v0", "encounter_duel_v0", "encounter_skirmish_v0", "env_ids", "make_env", "tempo_duel_v0",
           "tempo_skirmish_v0"]
