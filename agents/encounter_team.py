"""A scripted team for the encounter skirmish (001, ``encounter_skirmish_v0``): focus fire.

One policy ``(observation, action_mask) -> action`` plays every member of a side. Every member reads the
same public facts (enemy ``k`` is the same character in every ally's slots: enemies are slotted by seat),
so the side agrees on one **focus** without talking: the enemy still able to act that is nearest to falling
(highest share of its Dead threshold taken), ties to the lowest slot. On its turn a member gets up and
re-arms if it must, attacks the focus if it is in reach (else whoever is in reach, most wounded first),
calling one Extra Damage raise when its mean roll clears the raised TN and spending a Free Raise from the
Tactics Pool on it; with nobody in reach it closes on the focus. Grappled, it Hits an enemy in its grapple when
in control and breaks free otherwise; it never starts a grapple. It takes Water stance, spends Endure when
hit hard and Deflect when Hurt. (Uniformly random play is the generic ``random`` policy.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from issoku.agents.encounter_scripted import expected_total
from issoku.rules.encounters.kinds import DECISION_KINDS, ENDURE_KIND, EXTRA_ATTACK_KIND, ROUND_START_KIND, STANCE_KIND
from issoku.rules.encounters.observation import FLAGS, PROFILE
from issoku.rules.encounters.skirmish_actions import CAPACITY, SKIRMISH_ACTION_NAMES
from issoku.rules.encounters.skirmish_observation import PLACE, SPEC
from issoku.rules.encounters.wounds import RANK_NAMES

_INDEX = {name: i for i, name in enumerate(SKIRMISH_ACTION_NAMES)}
_ATN_SCALE = 80.0
_HURT = RANK_NAMES.index("hurt")
_ENEMY_SLOTS = tuple(range(CAPACITY, 2 * CAPACITY))


def _slice(observation: np.ndarray, name: str) -> np.ndarray:
    return observation[SPEC.slice(name)]


class FocusFire:
    """The focus-fire team (see the module docstring)."""

    def __init__(self, seed: int | None = None, ruleset: Any = None) -> None:
        """``ruleset``, where given, is only checked: this team reads the skirmish's fixed actions and observation."""
        if ruleset is not None and tuple(ruleset.action_names) != SKIRMISH_ACTION_NAMES:
            raise ValueError(f"an encounter_skirmish_v0 team, it reads the encounter skirmish's actions and "
                             f"observation, not those of the {getattr(ruleset, 'name', type(ruleset).__name__)!r} rules")
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        """Reseed (nothing here is random; kept for the policy protocol)."""
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        for name in self.preferences(observation, action_mask):
            action = _INDEX[name]
            if action_mask[action]:
                return action
        return _INDEX["pass"]

    def preferences(self, observation: np.ndarray, mask: np.ndarray) -> list[str]:
        """Action names in order of preference for this decision."""
        decision = DECISION_KINDS[int(np.argmax(_slice(observation, "decision")))]
        hurt = int(np.argmax(_slice(observation, "slot0_rank"))) >= _HURT
        if decision == STANCE_KIND:
            return ["stance:water", "stance:air"]
        if decision == ROUND_START_KIND:
            return ["void:deflect"] if hurt else ["pass"]
        if decision == ENDURE_KIND:
            return ["void:endure"] if float(_slice(observation, "pending_damage")[0]) * 80 >= 10 else ["pass"]
        targets = self.targets(observation)
        attacks = [name for k in targets for name in self.attack(observation, k)]
        if decision == EXTRA_ATTACK_KIND:
            return attacks
        flags = _slice(observation, "slot0_flags")
        if flags[FLAGS.index("grappled")]:                                   # EN-085: grapple actions only
            held = [k for k in targets if _slice(observation, f"slot{_ENEMY_SLOTS[k]}_place")[
                PLACE.index("in_my_grapple")]]
            return [f"grapple:hit:enemy{k}" for k in held] + ["grapple:break"]
        if flags[FLAGS.index("prone")]:
            return ["stand"]
        if flags[FLAGS.index("weapon_ground")]:
            return ["recover_weapon"]
        if flags[FLAGS.index("weapon_held")]:
            return ["ready_weapon"]
        in_reach = [name for name in attacks if mask[_INDEX[name]]]
        if in_reach:
            raised = any(":ed" in name for name in in_reach[:1])
            return (["tactics:free_raise"] if raised else []) + in_reach
        focus = targets[0] if targets else 0
        return [f"free_move:toward:enemy{focus}", f"simple_move:toward:enemy{focus}", f"crawl:toward:enemy{focus}",
                *(f"simple_move:toward:enemy{k}" for k in targets)]

    def targets(self, observation: np.ndarray) -> list[int]:
        """Enemy slots able to act, the focus first: most of its Dead threshold taken, then the lowest slot."""
        able = []
        for k, slot in enumerate(_ENEMY_SLOTS):
            place = _slice(observation, f"slot{slot}_place")
            if place[PLACE.index("present")] and place[PLACE.index("able")]:
                able.append((-float(_slice(observation, f"slot{slot}_wounds")[0]), k))
        return [k for _, k in sorted(able)]

    def attack(self, observation: np.ndarray, k: int) -> list[str]:
        """The attacks to try on enemy ``k``: one Extra Damage raise if the mean roll clears ATN + 5."""
        profile = _slice(observation, "slot0_profile")
        agility = round(float(profile[PROFILE.index("agility")]) * 5)
        skill = round(float(profile[PROFILE.index("weapon_skill")]) * 10)
        atn = round(float(_slice(observation, f"slot{_ENEMY_SLOTS[k]}_numbers")[1]) * _ATN_SCALE)
        if expected_total(skill + agility, agility) >= atn + 5:
            return [f"attack:ed1:enemy{k}", f"attack:enemy{k}"]
        return [f"attack:enemy{k}"]
