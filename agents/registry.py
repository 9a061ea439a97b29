"""Policy names -> policy factories, by import path, so that a new agent registers with one line.

A factory is called as ``factory(seed=seed, **kwargs)`` and returns a policy
``(observation, action_mask) -> action`` (see :mod:`issoku.agents.policy`). Names are what command
lines, scenario files and tournament configs use.

To add an agent: ``POLICY_FACTORIES["aggressive"] = "issoku.agents.scripted:Aggressive"`` below (or
:func:`register_policy` at run time).
"""

from __future__ import annotations

import inspect
from typing import Any

from issoku.agents.policy import Policy
from issoku.envs.registry import UnknownNameError, check_import_path, import_object, is_import_path, refuse_imports

POLICY_FACTORIES: dict[str, str] = {
    "random": "issoku.agents.policy:RandomLegal",
    "breath_aggressive": "issoku.agents.breath_scripted:Aggressive",
    "breath_defensive": "issoku.agents.breath_scripted:Defensive",
    "breath_heuristic": "issoku.agents.breath_scripted:Heuristic",
    "ma_aggressive": "issoku.agents.ma_scripted:MaAggressive",
    "ma_defensive": "issoku.agents.ma_scripted:MaDefensive",
    "ma_distance_keeper": "issoku.agents.ma_scripted:MaDistanceKeeper",
    "ma_heuristic": "issoku.agents.ma_scripted:MaHeuristic",
    "spells_caster": "issoku.agents.spells_scripted:SpellCaster",
    "ma_spells_caster": "issoku.agents.spells_scripted:MaSpellCaster",
    "tempo_always_parry": "issoku.agents.tempo_scripted:AlwaysParry",
    "tempo_feint_counter": "issoku.agents.tempo_scripted:FeintCounter",
    "tempo_heuristic": "issoku.agents.tempo_scripted:Heuristic",
    "tempo_combat_approach": "issoku.agents.tempo_approach:CombatApproach",
    "tempo_focus_fire": "issoku.agents.tempo_team_scripted:FocusFire",
    "encounter_aggressive": "issoku.agents.encounter_scripted:Aggressive",
    "encounter_defensive": "issoku.agents.encounter_scripted:Defensive",
    "encounter_heuristic": "issoku.agents.encounter_scripted:Heuristic",
    "encounter_air": "issoku.agents.encounter_scripted:AirStance",
    "encounter_earth": "issoku.agents.encounter_scripted:EarthStance",
    "encounter_fire": "issoku.agents.encounter_scripted:FireStance",
    "encounter_void": "issoku.agents.encounter_scripted:VoidStance",
    "encounter_water": "issoku.agents.encounter_scripted:WaterStance",
    "encounter_focus_fire": "issoku.agents.encounter_team:FocusFire",
    "one_step": "issoku.agents.search.agents:OneStepLookahead",
    "mcts_small": "issoku.agents.search.agents:mcts_small",
    "mcts_large": "issoku.agents.search.agents:mcts_large",
}


def register_policy(name: str, factory_path: str) -> None:
    """Register (or replace) a policy factory under ``name``."""
    POLICY_FACTORIES[name] = check_import_path(factory_path)


def policy_names() -> list[str]:
    """Every registered policy name, sorted."""
    return sorted(POLICY_FACTORIES)


def reads_state(name: str) -> bool:
    """Whether the registered policy ``name`` decides by searching the game state (a search agent), which the
    reports name apart from the scripted agents that read only their observation; False for unregistered names."""
    return name in POLICY_FACTORIES and bool(getattr(resolve_policy_factory(name), "reads_state", False))


def resolve_policy_factory(name: str, *, allow_imports: bool = True, where: str = "policy") -> Any:
    """The one resolver of policy names: a registered name, or (if ``allow_imports``) ``package.module:attribute``.

    A name read from a file is resolved with ``allow_imports`` false unless the user passed
    ``--allow-imports`` (see :mod:`issoku.envs.registry`). Raises UnknownNameError or ImportRefusedError.
    """
    if name in POLICY_FACTORIES:
        return import_object(POLICY_FACTORIES[name])
    if is_import_path(name):
        refuse_imports([("policy", name)], where, allow_imports=allow_imports)
        try:
            return import_object(name)
        except (ImportError, AttributeError) as error:
            raise UnknownNameError("policy", name, [f"an importable package.module:attribute ({error})"]) from None
    raise UnknownNameError("policy", name, policy_names())


def make_policy(name: str, seed: int | None = None, ruleset: Any = None, *, allow_imports: bool = True,
                **kwargs: Any) -> Policy:
    """A new policy called ``name`` (see :func:`resolve_policy_factory`), seeded with ``seed``.

    A scripted agent built for one ruleset (it reads the action names, observation schema and content)
    declares a ``ruleset`` parameter and gets ``ruleset``; other factories never see it. One that only checks
    the ruleset it is given (a tempo agent refusing another ruleset) declares ``ruleset=None``.
    """
    factory = resolve_policy_factory(name, allow_imports=allow_imports)
    parameter = inspect.signature(factory).parameters.get("ruleset")
    if parameter is not None:
        if ruleset is None and parameter.default is inspect.Parameter.empty:
            raise ValueError(f"policy {name!r} is built for a ruleset; give one (an issoku env's env.unwrapped.ruleset)")
        kwargs["ruleset"] = ruleset
    return factory(seed=seed, **kwargs)
