"""The balance study a command runs, as validated data: env, policies, loadouts, budget, seed.

A study file (TOML) makes a report reproducible by anyone::

    env = "breath_duel_v0"              # a registered env id, or "package.module:factory"
    policies = ["random", "aggressive"] # registered policy names, or "name=package.module:factory"
    games_per_pair = 20                 # per pair and loadout; odd games swap the seats
    base_seed = 0
    mirrors = false                     # also each policy against itself (loadout studies)

    [[loadouts]]                        # optional; default: one loadout with no env keyword arguments
    name = "katana-vs-yari"
    seat_labels = ["katana", "yari"]    # what each seat fields, for the loadout matrix
    kwargs = { fighters = ["katana", "yari"] }   # keyword arguments for the env factory

Names resolve through the env and agent registries (``issoku.envs.registry``,
``issoku.agents.registry``) to importable factories, so worker processes can rebuild them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from issoku.evaluation.match import DEFAULT_MAX_DECISIONS
from issoku.evaluation.tournament import Loadout, PolicySpec, Tournament
from issoku.rules.kernel.content import load_model


class LoadoutConfig(BaseModel):
    """One named env configuration."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    kwargs: dict[str, Any] = Field(default_factory=dict)
    seat_labels: tuple[str, ...] = ()


class StudyConfig(BaseModel):
    """A whole balance study (see the module docstring for the file format)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    env: str = Field(min_length=1)
    policies: tuple[str, ...] = Field(min_length=1)
    games_per_pair: int = Field(default=20, ge=1)
    base_seed: int = Field(default=0, ge=0)
    mirrors: bool = False
    max_decisions: int = Field(default=DEFAULT_MAX_DECISIONS, ge=1)
    loadouts: tuple[LoadoutConfig, ...] = (LoadoutConfig(name="default"),)

    @field_validator("policies")
    @classmethod
    def _unique_policy_names(cls, policies: tuple[str, ...]) -> tuple[str, ...]:
        names = [policy.partition("=")[0] for policy in policies]
        if len(set(names)) != len(names):
            raise ValueError(f"policy names must be unique: {names}")
        return policies

    @field_validator("loadouts")
    @classmethod
    def _unique_loadout_names(cls, loadouts: tuple[LoadoutConfig, ...]) -> tuple[LoadoutConfig, ...]:
        names = [loadout.name for loadout in loadouts]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"loadout names must be unique and at least one given: {names}")
        return loadouts


def load_study(path: str | Path) -> StudyConfig:
    """Read and validate a study file (errors name the file and field)."""
    return load_model(path, StudyConfig)


def resolve_env_factory(env: str):
    """The factory of a registered env id, or of a ``"package.module:factory"`` import path."""
    from issoku.envs.registry import ENV_FACTORIES, UnknownNameError, import_object

    if ":" in env:
        return import_object(env)
    if env not in ENV_FACTORIES:
        raise UnknownNameError("env id", env, sorted(ENV_FACTORIES))
    return import_object(ENV_FACTORIES[env])


def resolve_policy(entry: str) -> PolicySpec:
    """A registered policy name, or ``"name=package.module:factory"``, as a :class:`PolicySpec`."""
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import UnknownNameError, import_object

    name, _, path = entry.partition("=")
    if not path:
        if name not in POLICY_FACTORIES:
            raise UnknownNameError("policy", name, sorted(POLICY_FACTORIES))
        path = POLICY_FACTORIES[name]
    return PolicySpec(name, import_object(path))


def build_tournament(study: StudyConfig) -> Tournament:
    """The runnable tournament a study describes."""
    return Tournament(
        env_factory=resolve_env_factory(study.env),
        policies=tuple(resolve_policy(entry) for entry in study.policies),
        loadouts=tuple(Loadout(lo.name, dict(lo.kwargs), tuple(lo.seat_labels)) for lo in study.loadouts),
        games_per_pair=study.games_per_pair, base_seed=study.base_seed, mirrors=study.mirrors,
        max_decisions=study.max_decisions)
