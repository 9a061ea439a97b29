"""A scripted team fighter for the tempo skirmish (003, ``tempo_skirmish_v0``): focus fire.

Every member of a side picks the same target — the standing enemy with the least Health left (as a share
of its maximum; ties to the lower enemy slot, which all allies number alike) — and strikes it whenever it
can, closing in on it otherwise; a bow or crossbow shoots it from where it stands and steps away from
anyone in reach. Reactions and counter-tempo follow the duel's heuristic
(:class:`issoku.agents.tempo_scripted.Heuristic`). A policy ``(observation, action_mask) -> action`` that
reads named slices of the skirmish observation, so it needs no ruleset and plays any seat of any size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from issoku.rules.tempo.actions import (
    PROACTIVE_TECHNIQUES,
    STATUS_NAMES,
    ActionTable,
    targeted_orders,
)
from issoku.rules.tempo.content import WEAPON_KINDS
from issoku.rules.tempo.kinds import COUNTER_KIND, DECISION_KINDS, REACT_KIND
from issoku.rules.tempo.ruleset import SKIRMISH_CAPACITY, TempoSkirmishConfig
from issoku.rules.tempo.skirmish_observation import skirmish_spec

_NAMES = ActionTable(targeted_orders(SKIRMISH_CAPACITY)).names
_INDEX = {name: i for i, name in enumerate(_NAMES)}
_SPEC = skirmish_spec(SKIRMISH_CAPACITY)
_SLOTS = 2 * SKIRMISH_CAPACITY
_PROFILE_KIND = 8          # weapon-kind one-hot starts after six skills, armour and encumbrance (observation.profile)
_BIND_ACTIONS = ("disarm", "grapple", "press", "withdraw")
_MAX_DISTANCE = TempoSkirmishConfig.max_distance   # the observation scales distance by the ruleset's max_distance
_TOO_CLOSE = 2                                     # a shooter steps away from anyone this near


def _field(observation: np.ndarray, name: str) -> np.ndarray:
    """A per-slot field as a (slots, width) array."""
    return observation[_SPEC.slice(f"slot_{name}")].reshape(_SLOTS, -1)


class FocusFire:
    """The focus-fire team fighter (see the module docstring)."""

    def __init__(self, seed: int | None = None, feint_rate: float = 0.3, ruleset: Any = None) -> None:
        """``ruleset``, where given, is only checked: this agent reads the tempo skirmish's actions and
        observation, and refuses other rules rather than choose wrong actions."""
        if ruleset is not None and tuple(ruleset.action_names) != _NAMES:
            raise ValueError(f"a tempo_skirmish_v0 agent, it reads the tempo skirmish's actions and observation, "
                             f"not those of the {ruleset.name!r} rules")
        self.feint_rate = feint_rate
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed (the single-agent training wrapper calls this on every reset)."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        for name in self.preferences(observation):
            action = _INDEX[name]
            if action_mask[action]:
                return action
        return _INDEX["pass"]

    def preferences(self, observation: np.ndarray) -> Sequence[str]:
        """Action names in order of preference for this situation."""
        decision = observation[_SPEC.slice("decision")]
        kind = DECISION_KINDS[int(np.argmax(decision))] if decision.max() > 0 else None
        health = _field(observation, "health")[:, 0]
        if kind == REACT_KIND:
            return self._react(observation, health)
        if kind == COUNTER_KIND:
            return ["ct:feint_counter_attack", "ct:counter_attack", "ct:parry"]
        return self._act(observation, health)

    def _act(self, observation: np.ndarray, health: np.ndarray) -> list[str]:
        status = STATUS_NAMES[int(np.argmax(_field(observation, "status")[0]))]
        if status == "off_guard":
            return ["proactive:ready"]
        if status == "pinned":
            return ["proactive:escape"]
        if status == "grappled":
            return ["proactive:pin", *self._at("proactive:unarmed_attack", observation, health), "proactive:escape"]
        if status == "bound":
            return ["proactive:press", "proactive:disarm", "proactive:withdraw"]
        flags = _field(observation, "flags")[0]
        if flags[0]:
            return ["proactive:recover_weapon"]
        kind = WEAPON_KINDS[int(np.argmax(_field(observation, "profile")[0, _PROFILE_KIND:_PROFILE_KIND + 3]))]
        if kind == "ranged":
            distance = _field(observation, "distance")[:, 0]
            standing = _field(observation, "standing")[:, 0]
            near = [k for k in range(SKIRMISH_CAPACITY) if standing[SKIRMISH_CAPACITY + k]
                    and distance[SKIRMISH_CAPACITY + k] * _MAX_DISTANCE <= _TOO_CLOSE]
            if near:
                return [f"proactive:combat_move:open:enemy{near[0]}", f"proactive:move:open:enemy{near[0]}",
                        "proactive:reload", *self._at("proactive:ranged_attack", observation, health)]
            return ["proactive:reload", *self._at("proactive:aim", observation, health),
                    *self._at("proactive:ranged_attack", observation, health)]
        attack = "proactive:feint" if self.rng.random() < self.feint_rate else "proactive:melee_attack"
        return [*self._at(attack, observation, health), *self._at("proactive:melee_attack", observation, health),
                *self._at("proactive:unarmed_attack", observation, health),
                *self._at("proactive:move:close", observation, health, first_only=True),
                *self._at("proactive:combat_move:close", observation, health, first_only=True)]

    @staticmethod
    def _at(order: str, observation: np.ndarray, health: np.ndarray, first_only: bool = False) -> list[str]:
        """``order`` aimed at the standing enemies, the focus target first, then by Health left."""
        standing = _field(observation, "standing")[:, 0]
        enemies = [k for k in range(SKIRMISH_CAPACITY) if standing[SKIRMISH_CAPACITY + k]]
        enemies.sort(key=lambda k: (health[SKIRMISH_CAPACITY + k], k))
        return [f"{order}:enemy{k}" for k in (enemies[:1] if first_only else enemies)]

    @staticmethod
    def _react(observation: np.ndarray, health: np.ndarray) -> list[str]:
        declared_field = observation[_SPEC.slice("declared")]
        declared = PROACTIVE_TECHNIQUES[int(np.argmax(declared_field))] if declared_field.max() > 0 else None
        if declared in _BIND_ACTIONS:
            return ["react:wind", "react:double"]
        if declared in ("escape", "pin", "unarmed_attack"):
            return ["react:struggle", "react:counter_attack", "react:evade", "react:parry"]
        if declared == "ranged_attack":
            return ["react:dodge"]
        if declared in ("move", "combat_move", "aim"):
            return ["react:counter_fire", "react:counter_attack"]
        acting = int(np.argmax(_field(observation, "acting")[:, 0]))
        if health[0] >= health[acting]:
            return ["react:counter_attack", "react:evade", "react:parry"]
        return ["react:evade", "react:parry", "react:counter_attack"]
