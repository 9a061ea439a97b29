"""The balance study a command runs, as validated data: env, policies, loadouts, budget, seed.

A study file (TOML) makes a report reproducible by anyone::

    env = "breath_duel_v0"              # a registered env id, or "package.module:factory"
    policies = ["random", "aggressive"] # registered policy names, or "name=package.module:factory"
    games_per_pair = 20                 # per pair and loadout; odd games swap the seats
    base_seed = 0
    mirrors = false                     # also each policy against itself (loadout studies)
    composition_kind = "breath"         # optional: decisions of this kind group into compositions...
    composition_end = ["end_breath"]    # ...each closed by one of these actions (report measures)

    [[loadouts]]                        # optional; default: one loadout with no env keyword arguments
    name = "katana-vs-yari"
    seat_labels = ["katana", "yari"]    # what each seat fields, for the loadout matrix
    kwargs = { fighters = ["katana", "yari"] }   # keyword arguments for the env factory

    [loadout_grid]                      # optional: every ordered pairing of labels (see LoadoutGrid)
    seat_key = "fighters"
    seat_template = { archetype = "kenshi", weapon = "{label}" }
    labels = ["uchigatana", "yari", "nodachi"]

    [combo_table]                       # optional (breath engine): see issoku.evaluation.design.combos
    samples = 200                       # Monte Carlo playouts per cell not computed exactly
    exact_dice = 3                      # cells rolling at most this many d10s are enumerated exactly

    [restricted_play]                   # optional: see issoku.evaluation.design.restricted
    policy = "ma_heuristic"             # default: the study's highest-rated policy
    games = 40                          # per restriction, seats swapped
    maneuvers = 8                       # the most used actions, each masked out in turn
    combos = 2                          # then the most used two-action combos
    replies = 2                         # then the most used actions of every other decision kind
    loadouts = 0                        # in the first N loadouts (0: every loadout)
    fine_tune_steps = 0                 # a checkpoint is first fine-tuned under each restriction

Env names resolve through the env registry (``issoku.envs.registry``), policies as
:mod:`issoku.evaluation.games.policies` says (registered names, checkpoints, import paths), to importable
factories, so worker processes can rebuild them. An import path in a study file is refused unless
the command was given ``--allow-imports`` (a study someone sent you must not run code).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from issoku.evaluation.games.match import DEFAULT_MAX_DECISIONS
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.games.policies import resolve_policy
from issoku.evaluation.games.tournament import Loadout, Tournament
from issoku.common.inputs import MAX_GAMES
from issoku.rules.kernel.content import load_model


class LoadoutConfig(BaseModel):
    """One named env configuration."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    kwargs: dict[str, Any] = Field(default_factory=dict)
    seat_labels: tuple[str, ...] = ()


class LoadoutGrid(BaseModel):
    """Every ordered pairing of ``labels`` (seat 0 fields one, seat 1 the other): a loadout matrix study.

    Each seat's entry of the env keyword ``seat_key`` is ``seat_template`` (or the label's own entry
    in ``templates``) with every ``"{label}"`` string inside it replaced by the seat's label;
    ``kwargs`` are shared by every loadout. Both seat orders of a pairing are played, so seat
    advantages cancel in the matrix. ``templates`` lets labels name weapons while each weapon is
    fielded by its own wielder (``yari = { archetype = "ashigaru" }``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat_key: str = Field(min_length=1)
    seat_template: Any = "{label}"
    templates: dict[str, Any] = Field(default_factory=dict)
    labels: tuple[str, ...] = Field(min_length=2)
    mirrors: bool = False
    kwargs: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _templates_name_labels(self) -> LoadoutGrid:
        unknown = set(self.templates) - set(self.labels)
        if unknown:
            raise ValueError(f"templates name labels not in the grid: {sorted(unknown)}")
        return self

    def entry(self, label: str) -> Any:
        """What a seat fielding ``label`` puts in the env keyword ``seat_key``."""
        return _fill(self.templates.get(label, self.seat_template), label)

    def loadouts(self) -> tuple[LoadoutConfig, ...]:
        """The grid's loadouts, named ``"<label0>-vs-<label1>"``."""
        return tuple(
            LoadoutConfig(name=f"{a}-vs-{b}", seat_labels=(a, b),
                          kwargs={**self.kwargs, self.seat_key: [self.entry(a), self.entry(b)]})
            for a in self.labels for b in self.labels if a != b or self.mirrors)


def _fill(template: Any, label: str) -> Any:
    """``template`` with ``"{label}"`` replaced by ``label`` in every string, at any depth."""
    if isinstance(template, str):
        return template.replace("{label}", label)
    if isinstance(template, dict):
        return {key: _fill(value, label) for key, value in template.items()}
    if isinstance(template, (list, tuple)):
        return [_fill(value, label) for value in template]
    return template


class ComboTableConfig(BaseModel):
    """How the study computes the combo table (on the study's first loadout's rules, any fighters)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    samples: int = Field(default=200, ge=1, le=MAX_GAMES)
    exact_dice: int = Field(default=3, ge=0, le=4)
    weapons: tuple[str, ...] | None = None


class RestrictedPlayConfig(BaseModel):
    """How the study runs its restricted-play battery (in every loadout, or the first ``loadouts``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    policy: str | None = None
    games: int = Field(default=40, ge=2, le=MAX_GAMES)
    maneuvers: int = Field(default=8, ge=0)
    combos: int = Field(default=2, ge=0)
    replies: int = Field(default=2, ge=0)
    """Then this many of the most used actions of every other decision kind (defend, react, counter, resist...)."""
    loadouts: int = Field(default=0, ge=0)
    """The battery plays in the study's first this many loadouts (0: every loadout); the report names the rest."""
    fine_tune_steps: int = Field(default=0, ge=0, le=MAX_GAMES)
    """A checkpoint policy is first fine-tuned this many decisions under each restriction (0: never)."""


class StudyConfig(BaseModel):
    """A whole balance study (see the module docstring for the file format)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    env: str = Field(min_length=1)
    policies: tuple[str, ...] = Field(min_length=1)
    games_per_pair: int = Field(default=20, ge=1, le=MAX_GAMES)
    base_seed: int = Field(default=0, ge=0, le=2**31 - 1)
    mirrors: bool = False
    max_decisions: int = Field(default=DEFAULT_MAX_DECISIONS, ge=1, le=MAX_GAMES)
    loadouts: tuple[LoadoutConfig, ...] = ()
    loadout_grid: LoadoutGrid | None = None
    composition_kind: str | None = None
    composition_end: tuple[str, ...] = ()
    combo_table: ComboTableConfig | None = None
    restricted_play: RestrictedPlayConfig | None = None

    @field_validator("policies")
    @classmethod
    def _unique_policy_names(cls, policies: tuple[str, ...]) -> tuple[str, ...]:
        names = [policy.partition("=")[0] for policy in policies]
        if len(set(names)) != len(names):
            raise ValueError(f"policy names must be unique: {names}")
        return policies

    @model_validator(mode="after")
    def _unique_loadout_names(self) -> StudyConfig:
        names = [loadout.name for loadout in self.all_loadouts()]
        if len(set(names)) != len(names):
            raise ValueError(f"loadout names must be unique: {names}")
        return self

    def composition(self) -> CompositionSpec | None:
        """How the report groups decisions into compositions, if the study says."""
        return CompositionSpec(self.composition_kind, self.composition_end) if self.composition_kind else None

    def all_loadouts(self) -> tuple[LoadoutConfig, ...]:
        """The listed loadouts, then the grid's; one loadout ``default`` (no env kwargs) when there are none."""
        loadouts = self.loadouts + (self.loadout_grid.loadouts() if self.loadout_grid else ())
        return loadouts or (LoadoutConfig(name="default"),)


def load_study(path: str | Path, *, allow_imports: bool = False) -> StudyConfig:
    """Read and validate a study file (errors name the file and field).

    Its env and policy names are resolved at once, so a bad one stops the command before anything is
    played or written; import paths among them are refused unless ``allow_imports`` (the file is data).
    """
    study = load_model(path, StudyConfig)
    check_study_names(study, str(path), allow_imports=allow_imports)
    return study


def check_study_names(study: StudyConfig, where: str, *, allow_imports: bool = True) -> None:
    """Resolve every env and policy name a study uses; a bad one raises ValueError naming ``where`` and the field
    (an unknown name, an import path from a file without ``allow_imports``, a missing checkpoint)."""
    from issoku.envs.registry import resolve_env

    def named(field: str, resolve: Any) -> Any:
        try:
            return resolve()
        except (KeyError, ValueError, ImportError) as error:
            message = str(error.args[0]) if isinstance(error, KeyError) else str(error)
            raise ValueError(message if message.startswith(where) else f"{where}: {field}: {message}") from None

    named("env", lambda: resolve_env(study.env, allow_imports=allow_imports, where=where))
    names = {named("policies", lambda: resolve_policy(entry, allow_imports=allow_imports, where=f"{where}: policies")).name
             for entry in study.policies}
    restricted = study.restricted_play.policy if study.restricted_play else None
    if restricted is not None and restricted not in names:
        named("restricted_play.policy",
              lambda: resolve_policy(restricted, allow_imports=allow_imports, where=f"{where}: restricted_play.policy"))


def build_tournament(study: StudyConfig) -> Tournament:
    """The runnable tournament a study describes (its names checked by :func:`check_study_names`)."""
    from issoku.envs.registry import resolve_env

    return Tournament(
        env_factory=resolve_env(study.env),
        policies=tuple(resolve_policy(entry) for entry in study.policies),
        loadouts=tuple(Loadout(lo.name, dict(lo.kwargs), tuple(lo.seat_labels)) for lo in study.all_loadouts()),
        games_per_pair=study.games_per_pair, base_seed=study.base_seed, mirrors=study.mirrors,
        max_decisions=study.max_decisions)
