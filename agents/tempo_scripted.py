"""Scripted fighters for the tempo duel (003): always-parry, feint-into-counter-attack, and a heuristic.

Each is a policy ``(observation, action_mask) -> action``. The tempo action table and observation
schema are fixed by the ruleset module (they do not depend on the fighters), so an agent needs no
ruleset: it reads named slices of :data:`issoku.rules.tempo.observation.SPEC` and picks among the
legal actions by name. Everything about the fight comes from the observation and the mask, so the same
agent plays in the AEC env, tournaments and engine playouts (:func:`issoku.agents.play.play_fight`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from issoku.rules.tempo.actions import ACTION_NAMES, PROACTIVE_TECHNIQUES, REACTIVE_TECHNIQUES, STATUS_NAMES
from issoku.rules.tempo.content import WEAPON_KINDS
from issoku.rules.tempo.kinds import ACT_KIND, COUNTER_KIND, DECISION_KINDS, REACT_KIND
from issoku.rules.tempo.observation import SPEC
from issoku.rules.tempo.ruleset import TempoConfig

_INDEX = {name: i for i, name in enumerate(ACTION_NAMES)}
_PROFILE_KIND = 8          # weapon-kind one-hot starts after six skills, armour and encumbrance
_PROFILE_REACH = _PROFILE_KIND + len(WEAPON_KINDS)
_DEFAULT_MAX_DISTANCE = TempoConfig.max_distance  # the observation scales distance by the ruleset's max_distance


@dataclass(frozen=True, slots=True)
class View:
    """What a scripted fighter reads from an observation, decoded."""

    decision: str
    status: str
    opponent_status: str
    health: float
    opponent_health: float
    ap: float
    distance: float
    declared: str | None
    reaction: str | None
    weapon_kind: str
    disarmed: bool
    loaded: bool


def _one_hot(observation: np.ndarray, name: str, labels: Sequence[str]) -> str | None:
    values = observation[SPEC.slice(name)]
    return labels[int(np.argmax(values))] if values.max() > 0 else None


def read(observation: np.ndarray) -> View:
    """Decode the fields the scripted fighters use."""
    flags = observation[SPEC.slice("self_flags")]
    profile = observation[SPEC.slice("self_profile")]
    return View(
        decision=_one_hot(observation, "decision", DECISION_KINDS) or ACT_KIND,
        status=_one_hot(observation, "self_status", STATUS_NAMES) or "on_guard",
        opponent_status=_one_hot(observation, "opponent_status", STATUS_NAMES) or "on_guard",
        health=float(observation[SPEC.slice("self_health")][0]),
        opponent_health=float(observation[SPEC.slice("opponent_health")][0]),
        ap=float(observation[SPEC.slice("self_ap")][0]),
        distance=float(observation[SPEC.slice("distance")][0]),
        declared=_one_hot(observation, "declared", PROACTIVE_TECHNIQUES),
        reaction=_one_hot(observation, "reaction", REACTIVE_TECHNIQUES),
        weapon_kind=WEAPON_KINDS[int(np.argmax(profile[_PROFILE_KIND:_PROFILE_REACH]))],
        disarmed=bool(flags[0]),
        loaded=bool(flags[2]),
    )


def first_legal(mask: np.ndarray, preferences: Sequence[str]) -> int | None:
    """The first action named in ``preferences`` that the mask allows."""
    for name in preferences:
        action = _INDEX[name]
        if mask[action]:
            return action
    return None


class TempoScripted:
    """Shared plumbing: a preference list per situation, ``pass`` when nothing preferred is legal."""

    def __init__(self, seed: int | None = None, ruleset: Any = None) -> None:
        """``ruleset``, where given, is only checked: these agents read the tempo duel's fixed actions and
        observation, so on another ruleset they would choose wrong actions; they refuse it instead."""
        if ruleset is not None and tuple(ruleset.action_names) != tuple(ACTION_NAMES):
            raise ValueError(f"a tempo_duel_v0 agent, it reads the tempo duel's actions and observation, "
                             f"not those of the {ruleset.name!r} rules")
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed (the single-agent training wrapper calls this on every reset)."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = read(observation)
        choice = first_legal(action_mask, self.preferences(view))
        return choice if choice is not None else _INDEX["pass"]

    def preferences(self, view: View) -> Sequence[str]:
        """Action names in order of preference for this situation."""
        raise NotImplementedError

    @staticmethod
    def advance(view: View, attack: str) -> list[str]:
        """Proactive preferences shared by all: get ready, get out of holds, attack in reach, else close in."""
        if view.status == "off_guard":
            return ["proactive:ready"]
        if view.status == "pinned":
            return ["proactive:escape"]
        if view.status == "grappled":
            if view.opponent_status == "pinned":
                return ["proactive:unarmed_attack"]
            return ["proactive:pin", "proactive:unarmed_attack", "proactive:escape"]
        if view.status == "bound":
            return ["proactive:press", "proactive:withdraw"]
        if view.disarmed:
            return ["proactive:recover_weapon"]
        if view.weapon_kind == "ranged":
            return ["proactive:reload", "proactive:ranged_attack", "proactive:move:open"] if view.loaded else [
                "proactive:reload"]
        return [attack, "proactive:unarmed_attack", "proactive:move:close", "proactive:combat_move:close"]


class AlwaysParry(TempoScripted):
    """Attacks plainly and parries everything it can; CT-parries a counter-attack; withdraws from binds."""

    def preferences(self, view: View) -> Sequence[str]:
        if view.decision == REACT_KIND:
            return ["react:parry", "react:wind", "react:struggle", "react:dodge", "react:evade"]
        if view.decision == COUNTER_KIND:
            return ["ct:parry"]
        if view.status == "bound":
            return ["proactive:withdraw"]
        return self.advance(view, "proactive:melee_attack")


class FeintCounter(TempoScripted):
    """Feints to draw a parry, then replaces the feint with the +3 Counter-Attack (TP-047);
    answers a counter-attack with a CT Counter-Attack, and counter-attacks the opponent's attacks."""

    def preferences(self, view: View) -> Sequence[str]:
        if view.decision == REACT_KIND:
            return ["react:counter_attack", "react:double", "react:parry", "react:struggle", "react:dodge",
                    "react:evade"]
        if view.decision == COUNTER_KIND:
            return ["ct:feint_counter_attack", "ct:counter_attack"]
        return self.advance(view, "proactive:feint")


class Heuristic(TempoScripted):
    """A sensible fighter: mixes feints and attacks, parries when healthy and counter-attacks when ahead,
    contests binds and grapples, keeps a ranged weapon loaded and at a distance."""

    def __init__(self, seed: int | None = None, feint_rate: float = 0.3, ruleset: Any = None) -> None:
        super().__init__(seed, ruleset)
        self.feint_rate = feint_rate

    def preferences(self, view: View) -> Sequence[str]:
        if view.decision == REACT_KIND:
            return self._react(view)
        if view.decision == COUNTER_KIND:
            return ["ct:feint_counter_attack", "ct:parry" if view.health < view.opponent_health else "ct:counter_attack",
                    "ct:parry"]
        if view.weapon_kind == "ranged" and not view.disarmed and view.status == "on_guard":
            if view.distance * _DEFAULT_MAX_DISTANCE < 3:          # too close for a bow: open the distance
                return ["proactive:combat_move:open", "proactive:move:open", "proactive:unarmed_attack"]
            return ["proactive:reload", "proactive:aim", "proactive:ranged_attack"] if view.loaded else [
                "proactive:reload"]
        if view.status == "bound":
            return ["proactive:press", "proactive:disarm", "proactive:withdraw"] if view.ap >= 0.5 else [
                "proactive:withdraw"]
        attack = "proactive:feint" if self.rng.random() < self.feint_rate else "proactive:melee_attack"
        return self.advance(view, attack)

    @staticmethod
    def _react(view: View) -> list[str]:
        if view.declared in ("disarm", "grapple", "press", "withdraw"):
            return ["react:wind", "react:double"]
        if view.declared in ("escape", "pin", "unarmed_attack") and view.status == "grappled":
            return ["react:struggle"]
        if view.declared == "ranged_attack":
            return ["react:dodge"]
        if view.declared in ("move", "combat_move", "aim"):
            return ["react:counter_fire", "react:counter_attack"]
        if view.health >= view.opponent_health:
            return ["react:counter_attack", "react:evade", "react:parry"]
        return ["react:evade", "react:parry", "react:counter_attack"]   # Evade: no feint can exploit it


SCRIPTED: dict[str, type[TempoScripted]] = {
    "always_parry": AlwaysParry,
    "feint_counter": FeintCounter,
    "heuristic": Heuristic,
}
"""The scripted tempo fighters by name (command lines)."""
