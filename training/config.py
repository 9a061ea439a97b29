"""The self-play training configuration: one dataclass, one docstring per field (CleanRL style).

The whole config is saved in every checkpoint's metadata, so a run can be resumed or reproduced from
its checkpoint alone. ``apply_overrides`` turns command-line ``key=value`` pairs into a new config,
converting each value to its field's type.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from issoku.rules.kernel.content import TooManyEntries, check_entries, parse_data_text, read_data_bytes


class ConfigError(ValueError):
    """A config value, env id or agent name given by the user is not usable."""


@dataclass(frozen=True)
class TrainConfig:
    """Everything that defines a self-play run."""

    env_id: str = "breath_duel_v0"
    """The AEC env to train on: an issoku env id, or a PettingZoo classic one (``connect_four_v3``)."""
    env_kwargs: dict = field(default_factory=dict)
    """Keyword arguments for the env constructor (e.g. loadout randomization)."""
    matchups: tuple[str, ...] = ()
    """Randomized loadouts: fighter names (archetypes); each episode draws one ordered pair of them, passed to
    the env as ``fighters=[a, b]``, so one run covers every matchup. Empty: the env's own fighters, fixed."""
    run_dir: str = ""
    """Where checkpoints, TensorBoard logs and the final evaluation go; empty: ``runs/<env_id>-seed<seed>``."""
    seed: int = 0
    """Seeds the network, the envs (seats, opponents, fights) and the scripted opponents."""
    total_steps: int = 1_000_000
    """Learner decisions to train for, in total (counting steps done before a resume)."""
    n_envs: int = 8
    """Parallel envs in one process (a ``DummyVecEnv``; they share the opponent pool)."""
    torch_threads: int = 1
    """Threads torch may use; keep small on a shared machine."""

    opponents: tuple[str, ...] = ("random",)
    """Scripted pool members by name (``random``, or names from ``issoku.agents.registry``), or checkpoint files
    (``*.zip``: a frozen learned agent, such as an earlier shipped one)."""
    pfsp_power: float = 2.0
    """PFSP weight exponent: weight = (1 - learner's score) ** power; higher focuses harder on losses."""
    pfsp_floor: float = 0.05
    """Smallest PFSP weight, so opponents the learner beats stay in rotation."""
    pfsp_window: int = 200
    """Recent games per opponent that its win rate is measured over."""
    max_snapshots: int = 8
    """Frozen learner snapshots kept in the pool (oldest evicted first)."""
    snapshot_every: int = 1
    """Add every k-th checkpoint to the pool as a snapshot opponent."""

    checkpoint_every: int = 50_000
    """Steps between checkpoints; a killed run resumed with ``--resume`` loses at most this many."""
    eval_every: int = 50_000
    """Steps between evaluations against each scripted opponent (0: never during training)."""
    eval_opponents: tuple[str, ...] = ("random",)
    """Scripted agents the learner is evaluated against, during and after training."""
    eval_episodes: int = 100
    """Seeded duels per scripted opponent at each evaluation during training."""
    final_eval_episodes: int = 1000
    """Seeded duels per scripted opponent after training (written to ``final_eval.json``)."""
    progress_bar: bool = True
    """Show a tqdm bar with steps/s and the current win rate."""

    learning_rate: float = 3e-4
    """Adam step size."""
    n_steps: int = 256
    """Steps per env per rollout (a rollout is n_steps * n_envs decisions)."""
    batch_size: int = 256
    """Minibatch size of the PPO update."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 0.995
    """Discount; rewards come at the end of a fight, so close to 1."""
    gae_lambda: float = 0.95
    """GAE bias/variance trade-off."""
    clip_range: float = 0.2
    """PPO ratio clip."""
    ent_coef: float = 0.01
    """Entropy bonus, keeps the policy exploring maneuvers."""
    net_arch: tuple[int, ...] = (128, 128)
    """Hidden layer sizes of the policy and value networks."""

    style: str = ""
    """A play style (``aggressive``, ``defensive``, ``feinter`` or a style TOML path; docs/opponents.md): a reward
    bonus per decision for the actions it favours, in training only. Empty: none (a neutral agent)."""
    style_weight: float = 0.3
    """The style's bonus scale: at a fight's end the learner gets ``style_weight`` times the mean bonus of its
    decisions (at most ``style_weight`` with bonuses <= 1, against +-1 for the result)."""

    round_limit_reward: float = 0.0
    """The learner's reward, in training only, for a fight that reaches the round limit undecided (the game pays
    0). Negative makes a stall cost: a learner drawing every fight against its own snapshots gets no signal at 0."""

    imitate: str = ""
    """A scripted agent the network copies before self-play (``issoku.training.imitation``): a warm start that
    reads the position. Empty: none (PPO from a random network)."""
    imitation_decisions: int = 50_000
    """The teacher's decisions (against the scripted ``opponents``) the warm start copies."""
    imitation_epochs: int = 10
    """Passes over those decisions."""

    def __post_init__(self) -> None:
        for name, (low, high) in BOUNDS.items():
            value = getattr(self, name)
            for item in value if isinstance(value, tuple) else (value,):
                if not (math.isfinite(item) and low <= item and (high is None or item <= high)):
                    bound = f"in [{low}, {high}]" if high is not None else f"at least {low}"
                    raise ConfigError(f"{name} must be {bound}, not {value!r}")

    @property
    def resolved_run_dir(self) -> str:
        """The run directory, defaulted from the env id and seed."""
        return self.run_dir or f"runs/{self.env_id}-seed{self.seed}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        return json.loads(json.dumps(dataclasses.asdict(self)))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TrainConfig":
        """The config saved by :meth:`to_json` (tuples restored; unknown keys refused)."""
        return apply_overrides(cls(), {key: value for key, value in data.items()})


BOUNDS: dict[str, tuple[float, float | None]] = {
    "total_steps": (1, None), "n_envs": (1, 1024), "torch_threads": (1, 1024), "pfsp_power": (0, None),
    "pfsp_floor": (0, 1), "pfsp_window": (1, None), "max_snapshots": (0, None), "snapshot_every": (1, None),
    "checkpoint_every": (1, None), "eval_every": (0, None), "eval_episodes": (1, None),
    "final_eval_episodes": (0, None), "learning_rate": (1e-12, None), "n_steps": (1, None),
    "batch_size": (2, None), "n_epochs": (1, None), "gamma": (0, 1), "gae_lambda": (0, 1), "clip_range": (1e-12, None),
    "ent_coef": (0, None), "net_arch": (1, 65536), "seed": (0, 2**31 - 1), "style_weight": (0, None),
    "round_limit_reward": (-1, 1), "imitation_decisions": (1, None), "imitation_epochs": (1, None),
}
"""Bounds of the numeric fields (inclusive; None: no upper bound): a config outside them is refused before
anything is written (a batch size of 0 used to fail after the first checkpoint, and then block the rerun)."""


def _convert(config_field: dataclasses.Field, value: Any) -> Any:
    """``value`` (possibly a command-line string) as the type of ``config_field`` (ConfigError naming the field)."""
    try:
        return _convert_value(config_field, value)
    except (ValueError, TypeError) as error:
        if isinstance(error, ConfigError):
            raise
        raise ConfigError(f"{config_field.name}: cannot read {value!r} ({error})") from None


def _convert_value(config_field: dataclasses.Field, value: Any) -> Any:
    default = getattr(config_field, "default", None)
    if config_field.default_factory is not dataclasses.MISSING:
        default = config_field.default_factory()
    if isinstance(default, dict):
        converted = json.loads(value) if isinstance(value, str) else dict(value)
        if not isinstance(converted, dict):
            raise ConfigError(f"{config_field.name}: expected a JSON object, got {value!r}")
        return converted
    if isinstance(default, tuple):
        items = [item for item in value.split(",") if item] if isinstance(value, str) else list(value)
        element = type(default[0]) if default else str
        return tuple(_scalar(config_field.name, element, item) for item in items)
    if isinstance(default, bool):
        if isinstance(value, str):
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ConfigError(f"{config_field.name}: expected true or false, got {value!r}")
            return value.lower() in ("true", "1", "yes")
        return bool(value)
    return _scalar(config_field.name, type(default), value)


def _scalar(name: str, kind: type, value: Any) -> Any:
    """``value`` as ``kind``: an int must be integral (``1.9`` is refused, not truncated), a float finite."""
    try:
        converted = kind(value)
        if kind is int and float(value) != converted:
            raise ValueError
    except (ValueError, TypeError, OverflowError):
        raise ConfigError(f"{name}: expected {kind.__name__}, got {value!r}") from None
    if kind is float and not math.isfinite(converted):
        raise ConfigError(f"{name}: expected a finite number, got {value!r}")
    return converted


def apply_overrides(config: TrainConfig, overrides: dict[str, Any]) -> TrainConfig:
    """A copy of ``config`` with ``overrides`` (field name -> value or string) converted and applied."""
    fields = {f.name: f for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise ConfigError(f"unknown config field(s) {unknown}; known: {sorted(fields)}")
    return dataclasses.replace(config, **{key: _convert(fields[key], value) for key, value in overrides.items()})


CONFIGS_DIR = Path(__file__).parent / "configs"
"""The shipped config files (``issoku train --config reference_breath_duel``)."""


def config_file_path(name_or_path: str) -> Path:
    """A config file given as a path, or as the name of a shipped one (``training/configs/<name>.toml``)."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = CONFIGS_DIR / f"{name_or_path}.toml"
    if shipped.is_file():
        return shipped
    names = sorted(p.stem for p in CONFIGS_DIR.glob("*.toml"))
    raise ConfigError(f"config file {name_or_path!r} not found (neither a file nor a shipped config; shipped: {names})")


def read_config_file(name_or_path: str, *, allow_imports: bool = False) -> dict[str, Any]:
    """A TOML config file's ``field = value`` pairs (checked and converted later by :func:`apply_overrides`).

    Import paths among its env and agent names are refused unless ``allow_imports`` (see :func:`refuse_config_imports`).
    """
    path = config_file_path(name_or_path)
    try:
        fields = parse_data_text(read_data_bytes(path), tomllib.loads)
        check_entries(fields)
    except TooManyEntries as error:
        raise ConfigError(f"{path}: {error.field}: {error}") from None
    except ValueError as error:  # too large, not UTF-8, a syntax error, nested too deeply
        raise ConfigError(f"{path}: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: {error.strerror}") from None
    refuse_config_imports(fields, str(path), allow_imports=allow_imports)
    return fields


IMPORTABLE_FIELDS = ("env_id", "opponents", "eval_opponents", "imitate")
"""Config fields whose names are resolved by import path when written ``package.module:attribute``."""


def refuse_config_imports(fields: dict[str, Any], where: str, *, allow_imports: bool) -> None:
    """Refuse import paths in a config read from a file (a config file, a checkpoint's metadata) unless allowed."""
    from issoku.envs.registry import refuse_imports

    named = []
    for key in IMPORTABLE_FIELDS:
        value = fields.get(key)
        values = [value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else []
        named += [(key, item) for item in values]
    try:
        refuse_imports(named, where, allow_imports=allow_imports)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def parse_assignments(assignments: list[str]) -> dict[str, str]:
    """``["key=value", ...]`` from the command line as a dict."""
    pairs = {}
    for assignment in assignments:
        key, separator, value = assignment.partition("=")
        if not separator:
            raise ConfigError(f"expected key=value, got {assignment!r}")
        pairs[key.strip().replace("-", "_")] = value
    return pairs


def checkpoint_config(checkpoint: str | Path, metadata: dict[str, Any], *, allow_imports: bool) -> TrainConfig:
    """The config saved in a checkpoint's metadata, its import paths refused unless ``allow_imports``."""
    fields = metadata.get("config")
    if not isinstance(fields, dict):
        raise ConfigError(f"{Path(checkpoint).with_suffix('.json')}: no 'config' object")
    refuse_config_imports(fields, str(Path(checkpoint).with_suffix(".json")), allow_imports=allow_imports)
    return TrainConfig.from_json(fields)
