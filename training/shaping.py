"""Play styles: a small reward bonus per decision for the actions a style favours, during training only.

A game wants "a cautious ronin" that is recognisably cautious and still strong. A style file (TOML data,
``training/styles/<name>.toml`` or any path) maps action-name prefixes to bonuses; a run with
``style = "defensive"`` adds, when the fight ends, ``style_weight`` times the *mean* bonus of the learner's
decisions in it. A mean, not a sum: a per-decision bonus was farmed by long fights (the first aggressive
agents learned to drag fights out, every close half-step paying), while the mean rewards the *share* of
favoured decisions whatever the fight's length, and stays below ``style_weight`` against the result's +-1, so
the agent keeps trying to win, with a lean. Strength is always measured without the bonus: evaluations,
benchmarks and ladders play the plain env, and the opponent pool's win rates read the unshaped result.

A prefix matches segment by segment: ``attack`` matches ``attack:straight_thrust:torso``, ``half_step:close``
matches only the close half-step, ``half`` matches nothing. A prefix that matches no action of the env is an
error naming the file and the field (a typo must not silently train a neutral agent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from issoku.envs.single_agent import MaskedWrapper
from issoku.rules.kernel.content import DataError, load_model

STYLES_DIR = Path(__file__).resolve().parent / "styles"
"""The shipped styles (``aggressive``, ``defensive`` for breath_duel_v0; ``feinter`` for tempo_duel_v0)."""


class StyleFile(BaseModel):
    """A style file's fields."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1)
    env: str = Field(min_length=1)
    """The env id whose action names the prefixes refer to."""
    bonus: dict[str, float] = Field(min_length=1)
    """Action-name prefix -> bonus per decision (before ``style_weight``)."""


@dataclass(frozen=True)
class Style:
    """A loaded style: its name (file stem), where it came from, and its validated fields."""

    name: str
    path: Path
    description: str
    env: str
    bonus: dict[str, float]


def style_path(name_or_path: str) -> Path:
    """A shipped style's file by name, or the path given."""
    path = Path(name_or_path)
    return path if path.suffix else STYLES_DIR / f"{name_or_path}.toml"


def load_style(name_or_path: str) -> Style:
    """A style by shipped name or file path (``DataError`` naming the file and field when it is bad)."""
    path = style_path(name_or_path)
    data = load_model(path, StyleFile)
    return Style(path.stem, path, data.description, data.env, dict(data.bonus))


def matches(prefix: str, action_name: str) -> bool:
    """Whether ``prefix`` matches ``action_name`` segment by segment (``:``-separated)."""
    wanted = prefix.split(":")
    return action_name.split(":")[:len(wanted)] == wanted


def bonus_per_action(style: Style, env_id: str, action_names: Sequence[str]) -> np.ndarray:
    """The bonus of each action number (the largest matching prefix's value where several match).

    Raises ``DataError`` when the style is for another env or a prefix matches no action.
    """
    if style.env != env_id:
        raise DataError(style.path, [("env", f"the style is for {style.env}, the run trains {env_id}")])
    bonus = np.zeros(len(action_names), dtype=np.float64)
    for prefix, value in sorted(style.bonus.items(), key=lambda item: len(item[0])):
        hits = [index for index, name in enumerate(action_names) if matches(prefix, name)]
        if not hits:
            raise DataError(style.path, [(f"bonus.{prefix}", f"matches no action of {env_id}")])
        bonus[hits] = value
    return bonus


class StyleShaping(MaskedWrapper):
    """Adds ``weight * mean(bonus of the learner's decisions)`` to the learner's reward when the fight ends.

    Wraps the self-play env from outside, so the opponent pool's win rates (read inside) stay unshaped;
    ``info["style_bonus"]`` carries the bonus given (at the fight's last step).
    """

    def __init__(self, env: MaskedWrapper, bonus: np.ndarray, weight: float) -> None:
        super().__init__(env)
        self._bonus = bonus
        self._weight = weight
        self._total = 0.0
        self._decisions = 0

    def reset(self, **kwargs: Any) -> Any:
        self._total, self._decisions = 0.0, 0
        return self.env.reset(**kwargs)

    def step(self, action: int) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._total += float(self._bonus[int(action)])
        self._decisions += 1
        if terminated or truncated:
            extra = self._weight * self._total / self._decisions
            return observation, float(reward) + extra, terminated, truncated, {**info, "style_bonus": extra}
        return observation, reward, terminated, truncated, info


class RoundLimitReward(MaskedWrapper):
    """Pays the learner ``reward`` for a fight that reaches the round limit undecided (truncated with a 0 return).

    The plain game pays a round-limit draw 0 to both sides. Against a frozen copy of itself a learner that
    never commits draws every fight, a 0 like any even trade, so nothing pushes it out of the stall (the first
    shipped tempo agent passed on every decision against itself). A negative ``reward`` makes the stall worse
    than trying. Training only, outside the self-play env like :class:`StyleShaping`, so the pool's win rates
    read the plain result; ``info["round_limit_reward"]`` carries it (at the fight's last step).
    """

    def __init__(self, env: MaskedWrapper, reward: float) -> None:
        super().__init__(env)
        self._reward = reward
        self._return = 0.0

    def reset(self, **kwargs: Any) -> Any:
        self._return = 0.0
        return self.env.reset(**kwargs)

    def step(self, action: int) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._return += float(reward)
        if truncated and not terminated and self._return == 0.0:
            return (observation, float(reward) + self._reward, terminated, truncated,
                    {**info, "round_limit_reward": self._reward})
        return observation, reward, terminated, truncated, info


def action_shares(actions: Sequence[str], prefixes: Sequence[str]) -> dict[str, float]:
    """The share of ``actions`` (names) by kind (the first ``:`` segment), by maneuver (the first two segments)
    and by each of ``prefixes``.

    Both levels, because what a segment means is the ruleset's: the Ma duel's kind is the maneuver
    (``attack`` in ``attack:straight_thrust:torso``), while the tempo duel's first segment is only the phase
    (``proactive``, ``react``, ``ct``) and its maneuver is the second (``proactive:feint``,
    ``react:parry``): a feinter's table must show what it feints instead of.
    """
    total = max(len(actions), 1)
    counts: Counter[str] = Counter()
    for name in actions:
        segments = name.split(":")
        counts.update({segments[0], ":".join(segments[:2])})
    shares = {label: count / total for label, count in counts.items()}
    for prefix in prefixes:
        if prefix.count(":") > 1:
            shares[prefix] = sum(matches(prefix, name) for name in actions) / total
    return dict(sorted(shares.items()))
