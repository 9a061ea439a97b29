"""Scripted fighters for the encounter duel (001): aggressive, defensive and a heuristic.

Each is a policy ``(observation, action_mask) -> action`` that reads named slices of
:data:`issoku.rules.encounters.observation.SPEC` and picks among the legal actions by name; the action
table and observation schema do not depend on the fighters, so no ruleset is needed. Whether the
opponent is in reach is read off the mask (an attack is legal only within the weapon's range).
(Uniformly random play is the generic ``random`` policy.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from issoku.rules.encounters.actions import ACTION_NAMES
from issoku.rules.encounters.combat import STANCES
from issoku.rules.encounters.kinds import DECISION_KINDS, ENDURE_KIND, EXTRA_ATTACK_KIND, ROUND_START_KIND, STANCE_KIND
from issoku.rules.encounters.observation import FLAGS, PROFILE, SPEC
from issoku.rules.encounters.wounds import PENALTY_OF, RANK_NAMES

_INDEX = {name: i for i, name in enumerate(ACTION_NAMES)}
_ATN_SCALE = 80.0
_AGILITY = PROFILE.index("agility")
_SKILL = PROFILE.index("weapon_skill")
_HURT = RANK_NAMES.index("hurt")


@dataclass(frozen=True, slots=True)
class View:
    """What a scripted fighter reads from an observation, decoded."""

    decision: str
    stance: str
    rank: int
    opponent_rank: int
    opponent_stance: str
    opponent_atn: int
    flags: dict[str, bool]
    attack_pool: tuple[int, int]
    pending_damage: float


def _one_hot(observation: np.ndarray, name: str, labels: Sequence[str]) -> str:
    return labels[int(np.argmax(observation[SPEC.slice(name)]))]


def read(observation: np.ndarray) -> View:
    """Decode the fields the scripted fighters use."""
    profile = observation[SPEC.slice("self_profile")]
    agility = round(float(profile[_AGILITY]) * 5)
    skill = round(float(profile[_SKILL]) * 10)
    flags = observation[SPEC.slice("self_flags")]
    return View(
        decision=_one_hot(observation, "decision", DECISION_KINDS),
        stance=_one_hot(observation, "self_stance", STANCES),
        rank=int(np.argmax(observation[SPEC.slice("self_rank")])),
        opponent_rank=int(np.argmax(observation[SPEC.slice("opponent_rank")])),
        opponent_stance=_one_hot(observation, "opponent_stance", STANCES),
        opponent_atn=round(float(observation[SPEC.slice("opponent_numbers")][1]) * _ATN_SCALE),
        flags={name: bool(flags[i]) for i, name in enumerate(FLAGS)},
        attack_pool=(skill + agility, agility),
        pending_damage=float(observation[SPEC.slice("pending_damage")][0]),
    )


@lru_cache(maxsize=512)
def expected_total(roll: int, keep: int) -> float:
    """The mean of an exploding XkY pool (sampled once, from a fixed seed: the same number every run)."""
    rng = np.random.default_rng(0)
    faces = rng.integers(1, 11, size=(4000, max(roll, 1), 4))
    totals = np.where(faces[..., 0] < 10, faces[..., 0],
                      10 + np.where(faces[..., 1] < 10, faces[..., 1], 10 + faces[..., 2]))
    totals = -np.sort(-totals[:, :roll], axis=1)
    return float(totals[:, :min(keep, roll)].sum(axis=1).mean()) if roll else 0.0


def first_legal(mask: np.ndarray, preferences: Sequence[str]) -> int | None:
    """The first action named in ``preferences`` that the mask allows."""
    for name in preferences:
        action = _INDEX[name]
        if mask[action]:
            return action
    return None


def can_attack(mask: np.ndarray) -> bool:
    """Is any attack legal (the opponent within reach, two Simple Actions left, a stance that attacks)?"""
    return bool(mask[_INDEX["attack"]])


class EncounterScripted:
    """Shared plumbing: a preference list per situation, ``pass`` when nothing preferred is legal."""

    opening_stance = "water"

    def __init__(self, seed: int | None = None, ruleset: Any = None) -> None:
        """``ruleset``, where given, is only checked: these agents read the encounter duel's fixed actions and
        observation, so on another ruleset they would choose wrong actions; they refuse it instead."""
        if ruleset is not None and tuple(ruleset.action_names) != tuple(ACTION_NAMES):
            raise ValueError(f"an encounter_duel_v0 agent, it reads the encounter duel's actions and observation, "
                             f"not those of the {getattr(ruleset, 'name', type(ruleset).__name__)!r} rules")
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed (the single-agent training wrapper calls this on every reset)."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = read(observation)
        choice = first_legal(action_mask, self.preferences(view, action_mask))
        return choice if choice is not None else _INDEX["pass"]

    def preferences(self, view: View, mask: np.ndarray) -> Sequence[str]:
        """Action names in order of preference for this situation."""
        if view.decision == STANCE_KIND:
            return [f"stance:{self.stance(view)}", "stance:water", "stance:air"]
        if view.decision == ROUND_START_KIND:
            return self.round_start(view)
        if view.decision == ENDURE_KIND:
            return ["void:endure"] if self.endure(view) else ["pass"]
        if view.decision == EXTRA_ATTACK_KIND:
            return [self.attack(view)]
        return self.act(view, mask)

    def stance(self, view: View) -> str:
        """The stance to take."""
        return self.opening_stance

    def round_start(self, view: View) -> list[str]:
        """A Void Point at the start of the round, or not."""
        return ["pass"]

    def endure(self, view: View) -> bool:
        """Spend a Void Point to take 10 less damage?"""
        return True

    def attack(self, view: View) -> str:
        """Which attack (maneuvers and raises) to declare."""
        return "attack"

    def act(self, view: View, mask: np.ndarray) -> list[str]:
        """Shared turn logic: get out of holds and off the ground, re-arm, attack in reach, else close in."""
        if view.flags["grappled"]:
            return ["grapple:hit", "grapple:break"] if view.flags["in_control"] else ["grapple:break"]
        if view.flags["prone"]:
            return ["stand"]
        if view.flags["weapon_ground"]:
            return ["recover_weapon"]
        if view.flags["weapon_held"]:
            return ["ready_weapon"]
        if can_attack(mask):
            return [self.attack(view), "attack"]
        return ["free_move:toward", "simple_move:toward"]


class Aggressive(EncounterScripted):
    """Fire stance, closes in, attacks with an Extra Damage raise, Endures every blow."""

    opening_stance = "fire"

    def attack(self, view: View) -> str:
        return "attack:ed1"


class Defensive(EncounterScripted):
    """Water stance, Deflect at every round's start, plain attacks, Earth stance once Hurt."""

    def stance(self, view: View) -> str:
        return "earth" if view.rank >= _HURT else "water"

    def round_start(self, view: View) -> list[str]:
        return ["void:deflect", "pass"]

    def act(self, view: View, mask: np.ndarray) -> list[str]:
        return ["earth_defend"] + super().act(view, mask)


class Heuristic(EncounterScripted):
    """Reads the odds: Fire stance unless the opponent hits hard and it is losing, raises (Feint, then
    Extra Damage) only as far as its expected roll clears the opponent's ATN, Endures hard blows."""

    opening_stance = "fire"

    def stance(self, view: View) -> str:
        if view.opponent_stance in ("air", "earth"):
            return "fire"
        return "water" if view.rank > view.opponent_rank + 2 else "fire"

    def endure(self, view: View) -> bool:
        return view.pending_damage * 80 >= 6

    def attack(self, view: View) -> str:
        roll, keep = view.attack_pool
        if view.stance == "fire":
            roll, keep = roll + 2, keep + 1
        margin = expected_total(roll, keep) + PENALTY_OF.get(RANK_NAMES[view.rank], 0) - view.opponent_atn
        raises = max(0, int(margin - 4) // 5)
        name = "attack"
        if raises >= 2:
            name, raises = "attack:feint", raises - 2
        extra = min(raises, 3)
        return f"{name}:ed{extra}" if extra else name


class OneStance(Heuristic):
    """A stance archetype for the balance study: the heuristic's attacks, raises and Void Points, but always
    the one stance ``committed`` when the rules allow it (Prone and Stunned narrow the choice), and in Earth
    stance its Earth defence first (the stance's ATN bonus is earned by that test, EN-062)."""

    committed = "fire"
    opening_stance = "fire"

    def stance(self, view: View) -> str:
        return self.committed

    def act(self, view: View, mask: np.ndarray) -> list[str]:
        shared = super().act(view, mask)
        return ["earth_defend", *shared] if view.stance == "earth" else shared


class AirStance(OneStance):
    """The heuristic committed to Air stance."""

    committed = opening_stance = "air"


class EarthStance(OneStance):
    """The heuristic committed to Earth stance."""

    committed = opening_stance = "earth"


class FireStance(OneStance):
    """The heuristic committed to Fire stance."""

    committed = opening_stance = "fire"


class VoidStance(OneStance):
    """The heuristic committed to Void stance."""

    committed = opening_stance = "void"


class WaterStance(OneStance):
    """The heuristic committed to Water stance."""

    committed = opening_stance = "water"


SCRIPTED: dict[str, type[EncounterScripted]] = {
    "aggressive": Aggressive,
    "defensive": Defensive,
    "heuristic": Heuristic,
}
"""The scripted encounter fighters by name (command lines)."""
